import { useEffect, type ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { AppBar, Layout as RaLayout, RefreshIconButton, TitlePortal } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { CompanyPicker } from './CompanyPicker';
import { AmbientePicker } from './AmbientePicker';
import { PinButton } from './Atalhos';
import { PushButton } from './Push';
import { Inactivity } from './Inactivity';
import { HELP_PANEL_WIDTH, HelpPanel, HelpProvider, useHelp } from './HelpPanel';
import { Menu } from './Menu';
import { fullHeight } from './zoom';

// The previous route is stored on each navigation (spec section 6).
let previous: string | null = null;
let current: string | null = null;
export const previousRoute = () => previous;

function TrackRoute() {
  const loc = useLocation();
  useEffect(() => {
    const here = loc.pathname + loc.search;
    if (here !== current) {
      previous = current;
      current = here;
    }
  }, [loc]);
  return null;
}

function RastroAppBar() {
  return (
    <AppBar
      color="secondary"
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <AmbientePicker />
          <CompanyPicker />
          <PinButton />
          <PushButton />
          <RefreshIconButton />
        </Box>
      }
    >
      <Typography variant="h6" sx={{ fontWeight: 700, letterSpacing: 0.5, mr: 3 }}>
        Rastro
      </Typography>
      <TitlePortal />
    </AppBar>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <HelpProvider>
      <ShellLayout>{children}</ShellLayout>
    </HelpProvider>
  );
}

function ShellLayout({ children }: { children: ReactNode }) {
  // The routed view gives way to the open help panel.
  const help = useHelp().key;
  return (
    <RaLayout appBar={RastroAppBar} menu={Menu} sx={{
      minHeight: fullHeight(), // window zoom (layout/zoom.ts): 100vh is zoomed too
      '& .RaSidebar-fixed': { height: `${fullHeight('3em')} !important` },
      '& .RaLayout-content': { p: { xs: 1, sm: 2.5 }, mr: help ? HELP_PANEL_WIDTH : 0 },
    }}>
      <TrackRoute />
      <Inactivity />
      {children}
      <HelpPanel />
    </RaLayout>
  );
}
