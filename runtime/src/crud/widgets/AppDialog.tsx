// Shared dialog with the spec's defaults (section 2 "Other shared pieces"): 70% × 50%, buttons 'Fechar' and
// 'Salvar', persistent (a click outside or Esc does not close it), title 'Defina o Titulo'; and the loading modal.
import type { ReactNode } from 'react';
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';

export const DIALOG_DEFAULTS = { width: '70%', height: '50%', title: 'Defina o Titulo', closeLabel: 'Fechar', saveLabel: 'Salvar', persistent: true } as const;

export interface AppDialogProps {
  open: boolean;
  title?: string;
  width?: string;
  height?: string;
  closeLabel?: string;
  saveLabel?: string;
  /** false: a click outside or Esc closes it too. */
  persistent?: boolean;
  /** Without onSave the Salvar button is not shown. */
  onSave?: () => void;
  saveDisabled?: boolean;
  onClose: () => void;
  children?: ReactNode;
}

/** Whether MUI's close request (click outside, Esc) closes the dialog: persistent ones close by their buttons only. */
export const closesOnRequest = (persistent: boolean) => !persistent;

export function AppDialog(p: AppDialogProps) {
  const d = { ...DIALOG_DEFAULTS, ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) } as typeof DIALOG_DEFAULTS & AppDialogProps;
  return (
    <Dialog open={p.open} maxWidth={false} aria-labelledby="app-dialog-title"
      onClose={() => closesOnRequest(d.persistent) && p.onClose()}
      slotProps={{ paper: { sx: { width: d.width, height: d.height, maxWidth: 'none' } } }}>
      <DialogTitle id="app-dialog-title">{d.title}</DialogTitle>
      <DialogContent dividers>{p.children}</DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>{d.closeLabel}</Button>
        {p.onSave && <Button variant="contained" onClick={p.onSave} disabled={p.saveDisabled}>{d.saveLabel}</Button>}
      </DialogActions>
    </Dialog>
  );
}

/** A modal that blocks the screen while something runs. */
export function LoadingModal({ open, text = 'Aguarde montando dados...' }: { open: boolean; text?: string }) {
  return (
    <Dialog open={open} aria-label={text} slotProps={{ paper: { sx: { px: 4, py: 3 } } }}>
      <Box role="progressbar" aria-busy="true" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <CircularProgress size={28} />
        <Typography>{text}</Typography>
      </Box>
    </Dialog>
  );
}
