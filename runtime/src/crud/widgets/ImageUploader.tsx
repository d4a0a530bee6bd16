// Image uploader (spec section 2 "Other shared pieces", 4 and 5): empty → file chosen (not an image or over
// 10 MB: message, discarded) → square crop dialog (zoom ×2/×0.5, rotate 90° left/right, maximize, delete,
// Confirmar) → PNG uploaded → preview. Remove returns to empty; a 200×200 skeleton while loading; a failed
// image load shows 'Não foi possível carregar a imagem'. The value is the stored file's URL.
import { useEffect, useRef, useState } from 'react';
import Cropper from 'react-easy-crop';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import RotateLeftIcon from '@mui/icons-material/RotateLeft';
import RotateRightIcon from '@mui/icons-material/RotateRight';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import DeleteIcon from '@mui/icons-material/Delete';
import { UploaderFrame } from './FileUploader';
import { ImagePreview, PREVIEW_PX } from './ImagePreview';
import { checkFile, cropToPng, IMAGE_ACCEPT, rotate, thumbOf, uploadFile, zoomIn, zoomOut, type Area } from '../lib/upload';

const windowZoom = () => Number(getComputedStyle(document.documentElement).getPropertyValue('--rastro-zoom')) || 1;

interface CropProps { src: string; name: string; onCancel: () => void; onDelete: () => void; onConfirm: (png: Blob) => Promise<void> }

/** The square crop dialog. */
export function CropDialog({ src, name, onCancel, onDelete, onConfirm }: CropProps) {
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [full, setFull] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<Area | null>(null);
  const tool = (title: string, icon: React.ReactNode, onClick: () => void) => (
    <Tooltip title={title}><span><IconButton aria-label={title} onClick={onClick} disabled={busy}>{icon}</IconButton></span></Tooltip>
  );
  const confirm = async () => {
    if (!area.current) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm(await cropToPng(src, area.current, rotation));
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <Dialog open fullScreen={full} maxWidth="md" fullWidth onClose={(_, reason) => reason !== 'backdropClick' && !busy && onCancel()} aria-labelledby="crop-title">
      <DialogTitle id="crop-title">Recortar imagem</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" gutterBottom>{name}</Typography>
        {/* The cropper measures its box with getBoundingClientRect (zoomed) and the image with offsetWidth (not):
            under the window zoom (layout/zoom.ts) the crop would shrink, so the zoom is undone around it. */}
        <Box data-testid="cropper" sx={{ position: 'relative', width: '100%', height: full ? 'calc(100vh - 220px)' : 400, bgcolor: 'grey.900', zoom: 1 / windowZoom() }}>
          <Cropper image={src} crop={crop} zoom={zoom} rotation={rotation} aspect={1} minZoom={1} maxZoom={8}
            onCropChange={setCrop} onZoomChange={setZoom} onRotationChange={setRotation}
            onCropComplete={(_, px) => { area.current = px; }} />
        </Box>
        <Stack direction="row" spacing={1} sx={{ mt: 1 }} alignItems="center">
          {tool('Aumentar zoom', <ZoomInIcon />, () => setZoom(zoomIn))}
          {tool('Diminuir zoom', <ZoomOutIcon />, () => setZoom(zoomOut))}
          {tool('Girar para a esquerda', <RotateLeftIcon />, () => setRotation((r) => rotate(r, -90)))}
          {tool('Girar para a direita', <RotateRightIcon />, () => setRotation((r) => rotate(r, 90)))}
          {tool(full ? 'Restaurar' : 'Maximizar', full ? <FullscreenExitIcon /> : <FullscreenIcon />, () => setFull((f) => !f))}
          {tool('Excluir', <DeleteIcon />, onDelete)}
          <Typography variant="caption" data-testid="crop-state">{`zoom ${zoom}× · ${rotation}°`}</Typography>
        </Stack>
        {error && <Alert severity="error" sx={{ mt: 1 }}>{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>Cancelar</Button>
        <Button variant="contained" onClick={confirm} disabled={busy}>Confirmar</Button>
      </DialogActions>
    </Dialog>
  );
}

export interface ImageUploaderProps {
  id?: string;
  label?: string;
  value?: string | null;
  disabled?: boolean;
  onChange: (url: string | undefined) => void;
}

export function ImageUploader({ id, label, value, disabled, onChange }: ImageUploaderProps) {
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<{ src: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  useEffect(() => () => { if (picked) URL.revokeObjectURL(picked.src); }, [picked]);

  const choose = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const problem = checkFile(file, 'image');
    setError(problem);
    if (!problem) setPicked({ src: URL.createObjectURL(file), name: file.name });
  };
  const confirm = async (png: Blob) => {
    setUploading(true);
    try {
      const up = await uploadFile(png, (picked?.name ?? 'imagem').replace(/\.[^.]+$/, '') + '.png');
      onChange(up.file);
      setPicked(null);
    } finally {
      setUploading(false);
    }
  };
  return (
    <UploaderFrame testId="image-uploader" id={id} label={label} error={error}>
      <Stack direction="row" spacing={2} alignItems="center">
        {uploading ? <Skeleton data-testid="image-skeleton" variant="rectangular" width={PREVIEW_PX} height={PREVIEW_PX} />
          : value ? <ImagePreview url={thumbOf(value)} alt={label ?? 'Imagem'} />
            : <Box sx={{ width: PREVIEW_PX, height: PREVIEW_PX, border: 1, borderStyle: 'dashed', borderColor: 'divider', borderRadius: 1 }} />}
        <Stack spacing={1}>
          <Button variant="outlined" disabled={disabled || uploading} onClick={() => input.current?.click()}>
            {value ? 'Trocar imagem' : 'Selecionar imagem'}
          </Button>
          {value && <Button color="error" disabled={disabled || uploading} onClick={() => onChange(undefined)}>Remover imagem</Button>}
        </Stack>
      </Stack>
      <input ref={input} id={id} type="file" accept={IMAGE_ACCEPT} hidden data-testid="image-input" onChange={(e) => choose(e.target.files?.[0])} />
      {picked && (
        <CropDialog src={picked.src} name={picked.name} onConfirm={confirm}
          onCancel={() => setPicked(null)} onDelete={() => setPicked(null)} />
      )}
    </UploaderFrame>
  );
}
