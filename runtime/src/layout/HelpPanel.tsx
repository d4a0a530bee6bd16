// The root screen's right-hand help side panel (spec section 2 "Root screen", section 9: 17% width): a title
// and label/value items keyed by screen and section (helpTexts.ts); opened by a HelpButton anywhere in the
// routed view, closed by its close button.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { Box, Divider, Drawer, IconButton, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { helpFor } from './helpTexts';

export const HELP_PANEL_WIDTH = '17%';

interface Help { key: { screen: string; section: string } | null; open: (screen: string, section: string) => void; close: () => void }
const HelpContext = createContext<Help>({ key: null, open: () => undefined, close: () => undefined });
export const useHelp = () => useContext(HelpContext);

export function HelpProvider({ children }: { children: ReactNode }) {
  const [key, setKey] = useState<Help['key']>(null);
  const value = useMemo<Help>(() => ({ key, open: (screen, section) => setKey({ screen, section }), close: () => setKey(null) }), [key]);
  return <HelpContext.Provider value={value}>{children}</HelpContext.Provider>;
}

export function HelpButton({ screen, section }: { screen: string; section: string }) {
  const { open } = useHelp();
  const title = helpFor(screen, section)?.title;
  if (!title) return null;
  return (
    <Tooltip title={`Ajuda: ${title}`} enterDelay={1000}>
      <IconButton size="small" aria-label={`Ajuda: ${title}`} onClick={() => open(screen, section)}><HelpOutlineIcon fontSize="small" /></IconButton>
    </Tooltip>
  );
}

export function HelpPanel() {
  const { key, close } = useHelp();
  const help = key ? helpFor(key.screen, key.section) : undefined;
  return (
    <Drawer anchor="right" variant="persistent" open={!!help}
      slotProps={{ paper: { 'aria-label': 'Ajuda', role: 'complementary', sx: { width: HELP_PANEL_WIDTH, minWidth: 220, pt: 7, px: 2 } } as object }}>
      {help && (
        <Box data-testid="help-panel">
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography variant="h6" component="h2">{help.title}</Typography>
            <IconButton aria-label="Fechar ajuda" onClick={close}><CloseIcon /></IconButton>
          </Box>
          <Divider sx={{ mb: 1 }} />
          <Box component="dl" sx={{ m: 0 }}>
            {help.items.map((i) => (
              <Box key={i.label} sx={{ mb: 1.5 }}>
                <Typography component="dt" variant="subtitle2">{i.label}</Typography>
                <Typography component="dd" variant="body2" color="text.secondary" sx={{ m: 0 }}>{i.value}</Typography>
              </Box>
            ))}
          </Box>
        </Box>
      )}
    </Drawer>
  );
}
