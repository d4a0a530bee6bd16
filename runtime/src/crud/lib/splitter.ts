// The record page's vertical tab splitter (spec: shared table, "vertical tab splitter (60 to 300 px, default 300)"):
// the width of the tab column, clamped, kept per register in the browser's storage.
export const SPLITTER = { min: 60, max: 300, initial: 300, step: 10 } as const;

export const clampWidth = (w: number) => Math.min(SPLITTER.max, Math.max(SPLITTER.min, Math.round(Number.isFinite(w) ? w : SPLITTER.initial)));

type Store = Pick<Storage, 'getItem' | 'setItem'>;
const keyOf = (register: string) => `rastro.abas.largura.${register}`;

export function loadWidth(store: Store | undefined, register: string): number {
  const raw = store?.getItem(keyOf(register));
  return raw === null || raw === undefined ? SPLITTER.initial : clampWidth(Number(raw));
}

export function saveWidth(store: Store | undefined, register: string, w: number): number {
  const v = clampWidth(w);
  store?.setItem(keyOf(register), String(v));
  return v;
}

/** The width after a key on the focused splitter; undefined for keys it does not handle. */
export function keyWidth(w: number, key: string): number | undefined {
  switch (key) {
    case 'ArrowLeft': return clampWidth(w - SPLITTER.step);
    case 'ArrowRight': return clampWidth(w + SPLITTER.step);
    case 'Home': return SPLITTER.min;
    case 'End': return SPLITTER.max;
    default: return undefined;
  }
}

/** Below this width the tab column shows the tabs' initials (their full labels as tooltips). */
export const COMPACT_BELOW = 120;
export const initials = (label: string) => label.split(/\s+/).filter((w) => w.length > 2 || /^[A-ZÀ-Ú]/.test(w)).slice(0, 2).map((w) => w[0].toUpperCase()).join('') || label.slice(0, 2);
