// Binary-file uploader: one file of at most 10 MB, sent as is (the server checks its content by magic bytes);
// the value is the stored file's URL, shown as a link with a remove button.
import { useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Button, LinearProgress, Link, Stack, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { checkFile, uploadFile } from '../lib/upload';

/** The frame both uploaders share: label, their content, the refusal message. */
export function UploaderFrame({ testId, id, label, error, children }: { testId: string; id?: string; label?: string; error: string | null; children: ReactNode }) {
  return (
    <Box sx={{ my: 1 }} data-testid={testId}>
      {label && <Typography variant="body2" color="text.secondary" gutterBottom component="label" htmlFor={id}>{label}</Typography>}
      {children}
      {error && <Alert severity="error" sx={{ mt: 1, maxWidth: 420 }}>{error}</Alert>}
    </Box>
  );
}

export interface FileUploaderProps {
  id?: string;
  label?: string;
  value?: string | null;
  /** `accept` of the file input, e.g. '.pdf,.zip'. */
  accept?: string;
  /** Where the file goes (default /api/upload/single/{company}) and the only extensions taken (e.g. ['.bin']). */
  uploadTo?: string;
  extensions?: string[];
  disabled?: boolean;
  onChange: (url: string | undefined) => void;
}

export function FileUploader({ id, label, value, accept, uploadTo, extensions, disabled, onChange }: FileUploaderProps) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState<string | null>(null);
  const choose = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const problem = checkFile(file, 'file', extensions);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const up = await uploadFile(file, file.name, uploadTo);
      setName(up.nome);
      onChange(up.file);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <UploaderFrame testId="file-uploader" id={id} label={label} error={error}>
      <Stack direction="row" spacing={2} alignItems="center">
        <Button variant="outlined" startIcon={<AttachFileIcon />} disabled={disabled || busy} onClick={() => input.current?.click()}>
          {value ? 'Trocar arquivo' : 'Selecionar arquivo'}
        </Button>
        {value && <Link href={value} target="_blank" rel="noopener">{name ?? 'Baixar arquivo'}</Link>}
        {value && <Button color="error" disabled={disabled || busy} onClick={() => { setName(null); onChange(undefined); }}>Remover</Button>}
      </Stack>
      {busy && <LinearProgress sx={{ mt: 1, maxWidth: 420 }} />}
      <input ref={input} id={id} type="file" accept={accept ?? extensions?.join(',')} hidden data-testid="file-input" onChange={(e) => void choose(e.target.files?.[0])} />
    </UploaderFrame>
  );
}
