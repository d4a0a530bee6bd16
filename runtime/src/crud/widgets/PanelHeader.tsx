import type { ReactNode } from 'react';
import { Box, IconButton, Tooltip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';

// Title row shared by list and form panels: back button, title, right-hand tools.
export function PanelHeader({ title, onBack, children }: { title: string; onBack?: () => void; children?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1.25, flexWrap: 'wrap', minHeight: 60 }}>
      {onBack && (
        <Tooltip title="Voltar">
          <IconButton aria-label="Voltar" onClick={onBack} size="small">
            <ArrowBackIcon />
          </IconButton>
        </Tooltip>
      )}
      <Typography variant="h6" component="h1" sx={{ fontWeight: 600, mr: 2 }}>
        {title}
      </Typography>
      <Box sx={{ flex: 1 }} />
      {children}
    </Box>
  );
}
