// Column chooser state: defaults from entity.columns, restored from the session user's ui
// (per route), saved through PUT /api/usuario {_id, ui} 1 s after the last change.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EntityMeta } from '../../../../shared/model';
import { call } from '../../api/http';
import { session, type ColumnChoice } from '../../api/session';

export const SAVE_DEBOUNCE_MS = 1000;

// Saved order first (the user's column order), then columns added to the metadata since, in metadata order.
export function initialChoices(entity: EntityMeta, saved?: ColumnChoice[]): ColumnChoice[] {
  const byKey = new Map((saved ?? []).map((c) => [c.key, c]));
  const rank = new Map((saved ?? []).map((c, i) => [c.key, i]));
  const n = saved?.length ?? 0;
  const list = entity.columns
    .map((c, i) => ({ key: c.source, label: c.label, selected: byKey.get(c.source)?.selected ?? c.default, i }))
    .sort((a, b) => (rank.get(a.key) ?? n + a.i) - (rank.get(b.key) ?? n + b.i))
    .map(({ i: _, ...c }) => c);
  if (!list.some((c) => c.selected) && list.length) list[0].selected = true;
  return list;
}

// Dragging column `from` onto column `to`: it takes `to`'s place (the others shift).
export function moveChoice(list: ColumnChoice[], from: string, to: string): ColumnChoice[] {
  const i = list.findIndex((c) => c.key === from);
  const j = list.findIndex((c) => c.key === to);
  if (i < 0 || j < 0 || i === j) return list;
  const next = [...list];
  const [moved] = next.splice(i, 1);
  next.splice(j, 0, moved);
  return next;
}

// Toggling never leaves zero columns selected.
export function toggleChoice(list: ColumnChoice[], key: string): ColumnChoice[] {
  const next = list.map((c) => (c.key === key ? { ...c, selected: !c.selected } : c));
  return next.some((c) => c.selected) ? next : list;
}

export function useColumnChoices(entity: EntityMeta) {
  const route = entity.route;
  const [choices, setChoices] = useState(() => initialChoices(entity, session.get()?.ui?.[route]));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pending = useRef(false);

  const persist = (list: ColumnChoice[]) => {
    const u = session.get();
    if (!u) return;
    session.patch({ ui: { ...u.ui, [route]: list } });
    // only this list's choice: the server merges it into the stored ones, so another tab or session of the same user
    // (its own lists, its own stale copy) never overwrites what was chosen elsewhere
    void call('/api/usuario', { method: 'PUT', body: JSON.stringify({ _id: u.id, ui: { [route]: list } }) }).catch(() => undefined); // silent
  };
  const update = (list: ColumnChoice[]) => {
    setChoices(list);
    pending.current = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      pending.current = false;
      persist(list);
    }, SAVE_DEBOUNCE_MS);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  const selected = useMemo(() => choices.filter((c) => c.selected).map((c) => c.key), [choices]);
  return {
    choices, selected,
    toggle: (key: string) => update(toggleChoice(choices, key)),
    move: (from: string, to: string) => update(moveChoice(choices, from, to)),
  };
}
