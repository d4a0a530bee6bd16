// Options of the multi-select picker (spec 'Multi-select pickers'): filtering, select-all-filtered,
// and the grouping of the permission catalogue by area (menu group) and register. Pure; no React.
import type { Model } from '../../../../shared/model';

export interface PickOption {
  value: string | number;
  label: string;      // full label, e.g. 'Ativos: Listar' (chips, search)
  group?: string;     // area, e.g. 'Frota'
  subgroup?: string;  // register, e.g. 'Ativos'
  short?: string;     // label inside its register, e.g. 'Listar'
  secondLabel?: string; // shown beside the label (spec 'Multi-select item')
  colorSecond?: string; // CSS colour of secondLabel
  obrig?: boolean;      // mandatory: pre-selected, cannot be unticked
}

/** Lower case without accents: 'Situação' and 'situacao' match. */
export const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

export function filterOptions(options: PickOption[], query: string): PickOption[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!words.length) return options;
  return options.filter((o) => {
    const hay = fold(`${o.group ?? ''} ${o.subgroup ?? ''} ${o.label} ${o.short ?? ''} ${o.value}`);
    return words.every((w) => hay.includes(w));
  });
}

const same = (a: string | number, b: string | number) => String(a) === String(b);

/** Adds every filtered option to the selection (keeps the selection's order, new ones after). */
export function selectAll(selected: (string | number)[], filtered: PickOption[]): (string | number)[] {
  const have = new Set(selected.map(String));
  return [...selected, ...filtered.filter((o) => !have.has(String(o.value))).map((o) => o.value)];
}

/** Removes the given options from the selection, except mandatory ones. */
export function unselect(selected: (string | number)[], options: PickOption[]): (string | number)[] {
  const drop = new Set(options.filter((o) => !o.obrig).map((o) => String(o.value)));
  return selected.filter((v) => !drop.has(String(v)));
}

/** Ticks or unticks one value; `options` given, a mandatory one stays ticked. */
export function toggle(selected: (string | number)[], value: string | number, options?: PickOption[]): (string | number)[] {
  if (!selected.some((v) => same(v, value))) return [...selected, value];
  if (options?.some((o) => o.obrig && same(o.value, value))) return selected;
  return selected.filter((v) => !same(v, value));
}

/** The selection with every mandatory option in it (added after the others, in option order). */
export function withObrig(selected: (string | number)[], options: PickOption[]): (string | number)[] {
  const missing = options.filter((o) => o.obrig && !selected.some((v) => same(v, o.value)));
  return missing.length ? [...selected, ...missing.map((o) => o.value)] : selected;
}

/** 'Limpar todos': only the mandatory options remain. */
export const clearAll = (options: PickOption[]) => options.filter((o) => o.obrig).map((o) => o.value);

export interface OptionGroup { group: string; subgroups: { subgroup: string; options: PickOption[] }[] }

/** Groups options (already in display order) by group then subgroup, keeping first-seen order. */
export function groupOptions(options: PickOption[]): OptionGroup[] {
  const groups = new Map<string, Map<string, PickOption[]>>();
  for (const o of options) {
    const g = o.group ?? '';
    const s = o.subgroup ?? '';
    if (!groups.has(g)) groups.set(g, new Map());
    const sub = groups.get(g)!;
    if (!sub.has(s)) sub.set(s, []);
    sub.get(s)!.push(o);
  }
  return [...groups].map(([group, sub]) => ({ group, subgroups: [...sub].map(([subgroup, opts]) => ({ subgroup, options: opts })) }));
}

const AREAS: Record<string, string> = {
  adm: 'Administração', tlm: 'Telemetria', cfg: 'Configuração', esp: 'Especiais', rel: 'Relatórios', hdw: 'Equipamentos', wkd: 'Integrações',
};
// Standard actions first, in this order; named extras after them, by label.
const ACTION_ORDER = ['lista', 'visualizar', 'adicionar', 'editar', 'excluir'];

interface Owner { permission: string; label: string; menu?: { group: string; order: number } }

/**
 * The permission catalogue as picker options: group = menu group of the register (or of the register it
 * belongs to, e.g. Fila de processamento under Equipamentos), subgroup = register, short = action.
 * Ordered like the menu; actions lista, visualizar, adicionar, editar, excluir, then the extras.
 */
export function permissionOptions(keys: string[], labels: string[], model: Pick<Model, 'entities' | 'screens' | 'menu'>): PickOption[] {
  const owners: Owner[] = [
    ...model.entities.map((e) => ({ permission: e.permission, label: e.label.plural, menu: e.menu })),
    // a screen's key is the full route name (e.g. x.lista); its extras are {permission}.{extra}
    // (a screen that shares another's key — an action's own page — owns no row: the key stays in its register's row)
    ...model.screens.filter((s) => !s.sharedKey).map((s) => ({ permission: s.permission, label: s.label, menu: s.menu })),
  ].sort((a, b) => b.permission.length - a.permission.length);
  const ownerOf = (key: string) => owners.find((o) => key === o.permission || key.startsWith(`${o.permission}.`));
  const parentOf = (o: Owner) => (o.permission.includes('.') ? ownerOf(o.permission.slice(0, o.permission.lastIndexOf('.'))) : undefined);
  // the register itself or the nearest register above it with a menu entry (sub-registers follow their parent)
  const menuOwner = (o: Owner | undefined) => {
    for (let cur = o; cur; cur = parentOf(cur)) if (cur.menu?.group) return cur;
    return undefined;
  };
  const groupRank = new Map(model.menu.map((n, i) => [n.label, i]));
  const routeRank = new Map<string, number>();
  model.menu.forEach((n) => (n.children ?? []).forEach((c, i) => c.permission && routeRank.set(c.permission, i)));
  const rankOf = (o: Owner | undefined) => {
    const m = menuOwner(o);
    if (!m) return 1000;
    const r = routeRank.get(m.permission) ?? routeRank.get(`${m.permission}.lista`) ?? 1000;
    return m === o ? r : r + 0.5;
  };

  const rows = keys.map((key, i) => {
    const label = labels[i] ?? key;
    const owner = ownerOf(key);
    const sep = label.indexOf(': ');
    // the key's own label names its register, qualified when two share a name ('Firmwares (Hardware)')
    const prefix = sep > 0 ? label.slice(0, sep) : undefined;
    const subgroup = owner && prefix?.startsWith(owner.label) ? prefix : owner?.label ?? prefix ?? key;
    const short = sep > 0 ? label.slice(sep + 2) : label;
    const action = owner && key.length > owner.permission.length ? key.slice(owner.permission.length + 1) : 'lista';
    const actionRank = ACTION_ORDER.includes(action) ? ACTION_ORDER.indexOf(action) : ACTION_ORDER.length;
    const group = menuOwner(owner)?.menu?.group ?? AREAS[key.split('.')[0]] ?? key.split('.')[0];
    return {
      o: { value: key, label, group, subgroup, short } as PickOption,
      sort: [groupRank.get(group) ?? 1000, group, rankOf(owner), subgroup, actionRank, short] as const,
    };
  });
  const cmp = (a: readonly (string | number)[], b: readonly (string | number)[]) => {
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      return typeof a[i] === 'number' ? (a[i] as number) - (b[i] as number) : String(a[i]).localeCompare(String(b[i]), 'pt-BR');
    }
    return 0;
  };
  return rows.sort((a, b) => cmp(a.sort, b.sort)).map((r) => r.o);
}

/** The asset picker's items (metadata picker): each row under its group's name (rows without one under `none`), or
 *  all under `flat`; groups in name order, rows in the order given. */
export function pickerGroups(items: PickOption[], groupOf: (o: PickOption) => string | undefined, grouped: boolean, flat: string, none = 'Sem garagem'): PickOption[] {
  if (!grouped) return items.map((o) => ({ ...o, group: flat, subgroup: undefined }));
  const named = items.map((o) => ({ ...o, group: groupOf(o) ?? none, subgroup: undefined }));
  const order = [...new Set(named.map((o) => o.group))].sort((a, b) => (a === none ? 1 : b === none ? -1 : a.localeCompare(b, 'pt-BR')));
  return order.flatMap((g) => named.filter((o) => o.group === g));
}

