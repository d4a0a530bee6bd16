// A stored image shown by its thumbnail (list cells, the show panel, the image uploader): a 200×200 skeleton while
// loading, 'Não foi possível carregar a imagem' when it fails. Light: no cropper.
import { useEffect, useState } from 'react';
import { Box, Skeleton, Stack, Typography } from '@mui/material';
import BrokenImageIcon from '@mui/icons-material/BrokenImage';
import { MSG_LOAD } from '../lib/upload';

export const PREVIEW_PX = 200;

/** The stored image (its thumbnail) or the failed-load panel. */
export function ImagePreview({ url, alt }: { url: string; alt: string }) {
  const [state, setState] = useState<'loading' | 'ok' | 'error'>('loading');
  useEffect(() => setState('loading'), [url]);
  if (state === 'error') {
    return (
      <Stack role="alert" data-testid="image-error" alignItems="center" justifyContent="center" spacing={1}
        sx={{ width: PREVIEW_PX, height: PREVIEW_PX, border: 1, borderColor: 'divider', borderRadius: 1, color: 'text.secondary' }}>
        <BrokenImageIcon fontSize="large" />
        <Typography variant="body2" align="center">{MSG_LOAD}</Typography>
      </Stack>
    );
  }
  return (
    <Box sx={{ width: PREVIEW_PX, height: PREVIEW_PX, position: 'relative' }}>
      {state === 'loading' && <Skeleton data-testid="image-skeleton" variant="rectangular" width={PREVIEW_PX} height={PREVIEW_PX} sx={{ position: 'absolute' }} />}
      <img src={url} alt={alt} width={PREVIEW_PX} height={PREVIEW_PX} onLoad={() => setState('ok')} onError={() => setState('error')}
        style={{ objectFit: 'contain', visibility: state === 'ok' ? 'visible' : 'hidden', borderRadius: 4 }} />
    </Box>
  );
}
