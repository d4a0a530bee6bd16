// The column chooser's choices (PUT /api/usuario { ui }): per list route, the columns in the user's order with
// `selected`. The routes and their columns are the lists the runtime shows with a chooser: an entity's list
// (entity.route, also its aliases and nested tabs), a provider screen (its route, and route/tab for each tab) and a
// record page's provider tab ({entity route}/:{by}/{tab}). At least one column stays selected (spec 4, lists).
import type { Model } from './model.ts';

/** List route → the column names its chooser offers. */
export function choiceColumns(model: Model): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (route: string, names: string[]) => out.set(route, new Set([...(out.get(route) ?? []), ...names]));
  const providerColumns = (key: string) => model.providers.find((p) => p.key === key)?.columns.map((c) => c.name) ?? [];
  for (const e of model.entities) {
    add(e.route, e.columns.map((c) => c.source));
    for (const t of e.record?.tabs ?? []) if (t.kind === 'provider' && t.provider) add(`${e.route}/:${e.record!.by ?? 'id'}/${t.name}`, providerColumns(t.provider));
  }
  for (const s of model.screens) {
    if (!s.list) continue;
    const names = providerColumns(s.list.provider);
    add(s.route, names);
    for (const o of s.list.tabs?.options ?? []) add(`${s.route}/${o.path}`, names);
  }
  return out;
}

/** pt-BR reason the `ui` of PUT /api/usuario is refused, or undefined when every route's choice is valid. */
export function choiceProblem(columns: Map<string, Set<string>>, ui: Record<string, unknown>): string | undefined {
  for (const [route, list] of Object.entries(ui)) {
    const known = columns.get(route);
    if (!known) return `Rota sem seleção de colunas: ${route}`;
    if (!Array.isArray(list) || list.some((c) => !c || typeof c !== 'object' || typeof c.key !== 'string' || typeof c.selected !== 'boolean'
      || (c.label !== undefined && typeof c.label !== 'string'))) return `Seleção de colunas inválida em ${route}: esperada uma lista de { key, label, selected }`;
    const unknown = list.find((c) => !known.has(c.key));
    if (unknown) return `Coluna desconhecida em ${route}: ${unknown.key}`;
    const keys = list.map((c) => c.key as string);
    const twice = keys.find((k, i) => keys.indexOf(k) !== i);
    if (twice) return `Coluna repetida em ${route}: ${twice}`;
    if (!list.some((c) => c.selected)) return `Ao menos uma coluna deve ficar selecionada (${route})`;
  }
  return undefined;
}
