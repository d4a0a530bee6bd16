// Window zoom of spec section 2 (root screen): 75% when the screen height is 768 px or less, 80% up to 900 px,
// otherwise 100%; mobile devices always 100%. Applied as CSS zoom on the app's root element (#root), not on <body>:
// Material UI renders menus, autocomplete lists, tooltips and dialogs in portals on <body>, and Chromium's standard
// CSS zoom would scale the coordinates they are placed at a second time (a list opening away from its field).
// Those popups stay at 100 %, placed exactly. --rastro-zoom lets full-height layouts compensate (100vh inside a
// zoomed element is zoomed too).
export function zoomFor(screenHeight: number, mobile: boolean): number {
  if (mobile || !Number.isFinite(screenHeight) || screenHeight <= 0) return 1;
  if (screenHeight <= 768) return 0.75;
  if (screenHeight <= 900) return 0.8;
  return 1;
}

export function isMobile(nav: Pick<Navigator, 'userAgent'> & { userAgentData?: { mobile?: boolean } } = navigator): boolean {
  return nav.userAgentData?.mobile ?? /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(nav.userAgent);
}

export function applyWindowZoom(): number {
  const z = zoomFor(window.screen.height, isMobile());
  const root = document.getElementById('root') ?? document.body;
  root.style.zoom = z === 1 ? '' : String(z);
  document.documentElement.style.setProperty('--rastro-zoom', String(z));
  return z;
}

/** Applies the zoom now and again when the window moves to another screen. */
export function installWindowZoom(): () => void {
  applyWindowZoom();
  const onResize = () => applyWindowZoom();
  window.addEventListener('resize', onResize);
  return () => window.removeEventListener('resize', onResize);
}

/** Full viewport height inside the zoomed body, minus `minus` (CSS length), for sx height/minHeight. */
export const fullHeight = (minus?: string) =>
  minus ? `calc(100vh / var(--rastro-zoom, 1) - ${minus})` : 'calc(100vh / var(--rastro-zoom, 1))';
