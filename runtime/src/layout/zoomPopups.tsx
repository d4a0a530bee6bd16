// Popups under the window zoom (layout/zoom.ts). The zoom is on #root; Material UI's portals live on <body>, so
// menus and autocomplete lists are placed at the right spot but would be drawn at 100 % beside a zoomed form.
// Their contents take the zoom (Paper of an Autocomplete, List of a Menu: children of the positioned element, so
// the position is not scaled again), and an Autocomplete's popper, sized by MUI from the field's clientWidth (a
// length inside the zoomed tree), gets that width in window pixels.
import { forwardRef } from 'react';
import Popper, { type PopperProps } from '@mui/material/Popper';

/** The window zoom in force (1 when none). */
export const windowZoom = (): number =>
  Number(getComputedStyle(document.documentElement).getPropertyValue('--rastro-zoom')) || 1;

export const ZoomAwarePopper = forwardRef<HTMLDivElement, PopperProps>(function ZoomAwarePopper(props, ref) {
  const style = props.style as { width?: unknown } | undefined;
  const width = typeof style?.width === 'number' ? style.width * windowZoom() : style?.width;
  return <Popper ref={ref} {...props} style={{ ...props.style, width: width as number | undefined }} />;
});

/** Inside a popup: the contents drawn at the window zoom. */
export const zoomed = { zoom: 'var(--rastro-zoom, 1)' } as const;
