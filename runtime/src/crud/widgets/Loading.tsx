// Loading text of spec section 2 ('Aguarde montando dados...'); light module for the first load.
import { Box, Typography } from '@mui/material';

export function Loading() {
  return (
    <Box sx={{ p: 4, textAlign: 'center' }}>
      <Typography color="text.secondary">Aguarde montando dados...</Typography>
    </Box>
  );
}
