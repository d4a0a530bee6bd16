// Upload helpers shared by the image and file uploaders: client-side checks (spec section 5 and 8 texts), the
// calls of spec section 7 (upload/single/{company}, upload/delete) and the crop geometry (pure, unit-tested).
import { httpClient } from '../../api/http';
import { session } from '../../api/session';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MSG_FORMAT = 'Formato de arquivo invalido';
export const MSG_SIZE = 'Files should not exceed 10MB in size';
export const MSG_LOAD = 'Não foi possível carregar a imagem';
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 8;
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/** The spec's message for a file the uploader must refuse, or null. `extensions`: the only endings taken (e.g. .bin). */
export function checkFile(file: { type: string; size: number; name?: string }, kind: 'image' | 'file', extensions?: string[]): string | null {
  if (kind === 'image' && !/^image\/(png|jpeg|gif|webp|avif|tiff)$/.test(file.type)) return MSG_FORMAT;
  if (extensions?.length && !extensions.some((x) => (file.name ?? '').toLowerCase().endsWith(x))) return MSG_FORMAT;
  if (file.size > MAX_FILE_BYTES) return MSG_SIZE;
  return null;
}

/** Zoom steps ×2 / ×0.5 within the cropper's bounds. */
export const zoomIn = (z: number) => Math.min(ZOOM_MAX, z * 2);
export const zoomOut = (z: number) => Math.max(ZOOM_MIN, z * 0.5);
/** Rotation in 90° steps, kept in 0..270. */
export const rotate = (deg: number, step: 90 | -90) => (((deg + step) % 360) + 360) % 360;

/** Bounding box of a w×h image rotated by `deg`. */
export function rotatedSize(w: number, h: number, deg: number): { width: number; height: number } {
  const r = (deg * Math.PI) / 180;
  return {
    width: Math.round(Math.abs(Math.cos(r) * w) + Math.abs(Math.sin(r) * h)),
    height: Math.round(Math.abs(Math.sin(r) * w) + Math.abs(Math.cos(r) * h)),
  };
}

export interface Area { x: number; y: number; width: number; height: number }

/** The crop (react-easy-crop's croppedAreaPixels, in the rotated image) drawn to a square PNG. */
export async function cropToPng(src: string, area: Area, rotation: number): Promise<Blob> {
  const img = await new Promise<HTMLImageElement>((resolve, reject) => {
    const i = new Image();
    i.onload = () => resolve(i);
    i.onerror = () => reject(new Error(MSG_LOAD));
    i.src = src;
  });
  const box = rotatedSize(img.naturalWidth, img.naturalHeight, rotation);
  const whole = document.createElement('canvas');
  whole.width = box.width;
  whole.height = box.height;
  const g = whole.getContext('2d')!;
  g.translate(box.width / 2, box.height / 2);
  g.rotate((rotation * Math.PI) / 180);
  g.drawImage(img, -img.naturalWidth / 2, -img.naturalHeight / 2);
  const side = Math.max(1, Math.round(Math.min(area.width, area.height)));
  const out = document.createElement('canvas');
  out.width = side;
  out.height = side;
  out.getContext('2d')!.drawImage(whole, Math.round(area.x), Math.round(area.y), side, side, 0, 0, side, side);
  return new Promise((resolve, reject) => out.toBlob((b) => (b ? resolve(b) : reject(new Error(MSG_FORMAT))), 'image/png'));
}

export interface Uploaded { id: number; filename: string; nome: string; mime: string; tamanho: number; file: string; path: string; urlResized: string | null }

/** POST /api/upload/single/{active company} (multipart field `file`), or to `to` (a field's metadata upload path). */
export async function uploadFile(file: Blob, name: string, to?: string): Promise<Uploaded> {
  const form = new FormData();
  form.append('file', file, name);
  const { json } = await httpClient(to ?? `/api/upload/single/${session.get()?.empresaAtiva ?? ''}`, { method: 'POST', body: form });
  return json.payload as Uploaded;
}

/** POST /api/upload/delete { filename, company }. */
export async function deleteFile(filename: string): Promise<void> {
  await httpClient('/api/upload/delete', { method: 'POST', body: JSON.stringify({ filename, company: session.get()?.empresaAtiva }) });
}

/** The 500 px thumbnail's URL of a stored image's URL (server/calls/upload.ts naming). */
export const thumbOf = (url: string) => url.replace(/^(\/api\/upload\/file\/[0-9a-f]{32})\.png$/, '$1_500.png');
