// Shows a secret the server answers once, on creation (metadata field `secretToken`, e.g. chave_de_api.chave):
// it cannot be read again, so the user copies it now.
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';

export function SecretDialog({ label, value, onClose }: { label: string; value: string; onClose: () => void }) {
  return (
    <Dialog open maxWidth="sm" fullWidth aria-labelledby="secret-title">
      <DialogTitle id="secret-title">{label} gerada</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>Copie agora: ela não será mostrada novamente.</Alert>
        <TextField label={label} value={value} fullWidth slotProps={{ input: { readOnly: true } }} onFocus={(e) => e.target.select()} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void navigator.clipboard?.writeText(value)}>Copiar</Button>
        <Button variant="contained" onClick={onClose}>Fechar</Button>
      </DialogActions>
    </Dialog>
  );
}
