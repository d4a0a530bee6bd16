// react-admin's default theme with the Rastro palette.
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { ZoomAwarePopper, zoomed } from './layout/zoomPopups';

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    mode: 'light',
    primary: { main: '#0b4f6c', light: '#3d7a96', dark: '#063447', contrastText: '#ffffff' },
    secondary: { main: '#0b4f6c', contrastText: '#ffffff' },
    error: { main: '#c62828' },
    warning: { main: '#ef8a17' },
    success: { main: '#2e7d32' },
    background: { default: '#f4f6f8', paper: '#ffffff' },
  },
  shape: { borderRadius: 8 },
  typography: { fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif' },
  components: {
    ...defaultTheme.components,
    MuiAppBar: { styleOverrides: { colorSecondary: { backgroundColor: '#0b4f6c' } } },
    MuiCard: { styleOverrides: { root: { boxShadow: '0 1px 3px rgba(16,24,40,.08), 0 1px 2px rgba(16,24,40,.04)' } } },
    MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none', fontWeight: 600 } } },
    MuiTextField: { defaultProps: { size: 'small', margin: 'dense' } },
    // popups under the window zoom (layout/zoomPopups.tsx)
    MuiAutocomplete: {
      ...defaultTheme.components?.MuiAutocomplete,
      defaultProps: { ...defaultTheme.components?.MuiAutocomplete?.defaultProps, slots: { popper: ZoomAwarePopper } },
      styleOverrides: { paper: zoomed },
    },
    MuiMenu: { styleOverrides: { list: zoomed } },
    // Tab bars: Material UI places its indicator from window coordinates, which the window zoom (on #root) scales a
    // second time (the marker lands off its tab); the selected tab draws its own marker instead (the record page's
    // tab list has a marker element of its own, data-tab-marker).
    MuiTabs: {
      styleOverrides: {
        indicator: { display: 'none' },
        root: {
          '& .MuiTab-root.Mui-selected:not(:has([data-tab-marker]))': { boxShadow: 'inset 0 -2px 0 currentColor' },
          '&.MuiTabs-vertical .MuiTab-root.Mui-selected:not(:has([data-tab-marker]))': { boxShadow: 'inset -2px 0 0 currentColor' },
        },
      },
    },
  },
};
