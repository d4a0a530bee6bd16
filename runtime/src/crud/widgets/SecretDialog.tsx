// Shows a secret the server answers once (metadata field `secretToken`, e.g. chave_de_api.chave, on creation; the
// public link's address, on creation and on Copiar link): it cannot be read again, so the user copies it now. A field
// with `secretUrl` is an address: origin + secretUrl + token.
import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import type { FieldMeta } from '../../../../shared/model';

/** What the dialog shows for a secret field's answer. */
export function secretShown(f: Pick<FieldMeta, 'label' | 'secretUrl'>, token: string, origin = window.location.origin) {
  return f.secretUrl
    ? { title: 'Link gerado', label: f.label, value: `${origin}${f.secretUrl}${encodeURIComponent(token)}`, warn: 'Copie agora: este endereço não será mostrado novamente.' }
    : { title: `${f.label} gerada`, label: f.label, value: token, warn: 'Copie agora: ela não será mostrada novamente.' };
}

export function SecretDialog({ field, value, onClose }: { field: Pick<FieldMeta, 'label' | 'secretUrl'>; value: string; onClose: () => void }) {
  const s = secretShown(field, value);
  const [copied, setCopied] = useState(false);
  return (
    <Dialog open maxWidth="sm" fullWidth aria-labelledby="secret-title">
      <DialogTitle id="secret-title">{s.title}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>{s.warn}</Alert>
        <TextField label={s.label} value={s.value} fullWidth multiline={!!field.secretUrl} slotProps={{ input: { readOnly: true } }} onFocus={(e) => e.target.select()} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => { void navigator.clipboard?.writeText(s.value).then(() => setCopied(true), () => undefined); }}>{copied ? 'Copiado' : 'Copiar'}</Button>
        <Button variant="contained" onClick={onClose}>Fechar</Button>
      </DialogActions>
    </Dialog>
  );
}
