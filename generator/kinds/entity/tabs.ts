// Record pages (metadata `record`): {route}/:{by} opens a page of tabs. Every tab kind is registered once, in
// `tabKinds`: the JSON Schema of its property (injected into entity.schema.json's tab definition), its checks and
// what it puts in the model (TabMeta, `kind` = the property's name). The runtime renders a tab by its kind.
import { problem } from '../../errors.ts';
import type { LoadedMetadata } from '../../load.ts';
import type { EntityMeta, ProviderMeta, RouteEntry, ScreenMeta, TabMeta } from '../../../shared/model.ts';
import { TAB_KINDS, type TabKind } from '../../../shared/tabs.ts';
import type { RawEntity } from './raw.ts';

export interface TabContext {
  e: EntityMeta;
  by: string;                             // the record's route parameter field
  recordRoute: string;                    // record.path or the entity route (the part before /:by)
  byKey: Map<string, EntityMeta>;
  screens: ScreenMeta[];
  providers: ProviderMeta[];
  rawOf(key: string): RawEntity | undefined;
  bad(path: string, msg: string): void;   // path inside the tab, e.g. '/list'
}

export interface TabKindDef<V = any> {
  /** JSON Schema of the tab property that selects this kind. */
  schema: Record<string, unknown>;
  /** Fills the tab's own fields from the declared value; answers the keys the server requires for the target. */
  normalize(value: V, tab: TabMeta, ctx: TabContext): string[];
  /** The tab's key must be one the server requires (otherwise any catalogue key may show it). */
  strictPermission?: boolean;
}

const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
const identifier = { $ref: '#/definitions/identifier' };

export const tabKinds: Record<TabKind, TabKindDef> = {
  form: {
    schema: {
      oneOf: [{ const: true }, { type: 'array', minItems: 1, uniqueItems: true, items: { $ref: '#/definitions/text' } }],
      description: 'The edit form (true) or only these form sections (titles).',
    },
    normalize(form: true | string[], tab, { e, bad }) {
      if (Array.isArray(form)) {
        form.forEach((s, j) => { if (!e.form.sections.some((x) => x.title === s)) bad(`/form/${j}`, `seção desconhecida no formulário: ${s}`); });
        tab.sections = form;
      }
      return [`${e.permission}.editar`];
    },
  },
  list: {
    schema: { ...identifier, description: 'An entity whose parent is this one: its nested list.' },
    normalize(list: string, tab, { e, by, recordRoute, byKey, bad }) {
      tab.entity = list;
      const child = byKey.get(list);
      if (!child?.parent || child.parent.entity !== e.key) bad('/list', `deve ser uma entidade com parent: ${e.key}`);
      else if (child.parent.by !== by) bad('/list', `${list} aponta o pai por ${child.parent.by}, o registro por ${by}`);
      else if (child.parent.route !== `${recordRoute}/:${by}/${tab.name}` && child.parent.refId) {
        bad('/name', `${list} refere o pai pelo id: a aba deve ter o caminho da lista aninhada (${child.parent.route})`);
      } else return [`${child.permission}.lista`, `${e.permission}.visualizar`];
      return [];
    },
  },
  provider: {
    schema: { ...identifier, description: "A provider (kind: provider) listed in the tab; its path params are filled from the record's fields." },
    strictPermission: true,
    normalize(provider: string, tab, { e, providers, bad }) {
      tab.provider = provider;
      const pv = providers.find((x) => x.key === provider);
      if (!pv?.path) { bad('/provider', `provider desconhecido ou sem path: ${provider}`); return []; }
      pathParams(pv.path).forEach((n) => { if (!e.fields.some((f) => f.name === n)) bad('/provider', `parâmetro {${n}} de ${pv.key} não é campo de ${e.key}`); });
      return pv.permission;
    },
  },
  screen: {
    schema: { ...identifier, description: 'A screen (kind: tela) shown in the tab.' },
    normalize(screen: string, tab, { screens, bad }) {
      tab.screen = screen;
      const s = screens.find((x) => x.key === screen);
      if (!s) { bad('/screen', `tela desconhecida: ${screen}`); return []; }
      return s.permissions.map((p) => p.key);
    },
  },
  action: {
    schema: {
      type: 'array', minItems: 1, uniqueItems: true, items: identifier,
      description: "Actions of this entity offered as buttons in the record's toolbar (not as a tab), each with its description, behind the ATENÇÃO dialog; the tab's route shows them too.",
    },
    strictPermission: true,
    normalize(action: string[], tab, { e, bad }) {
      tab.actions = action;
      const found = action.map((n, j) => {
        const a = e.actions.find((x) => x.name === n);
        if (!a) bad(`/action/${j}`, `ação desconhecida: ${n}`);
        // the record toolbar says what each button does
        else if (!a.description) bad(`/action/${j}`, `a ação ${n} precisa de description (uma frase dizendo o que ela faz)`);
        return a;
      });
      const keys = [...new Set(found.filter((a) => a).map((a) => a!.permission))];
      if (keys.length > 1) bad('/action', `as ações de uma aba devem ter a mesma permissão: ${keys.join(', ')}`);
      return keys;
    },
  },
  delete: {
    schema: { const: true, description: "Deletes the record (dialog 'Deseja Excluir?')." },
    strictPermission: true,
    normalize(_: true, _tab, { e, bad }) {
      if (e.readOnlyResource) bad('/delete', 'entidade sem exclusão (readOnlyResource)');
      return [`${e.permission}.excluir`];
    },
  },
  route: {
    schema: { type: 'string', pattern: '^(/([a-z0-9_]+|\\{[a-zA-Z]+\\}))+$', description: "Another screen route; {name} is replaced by the record's field." },
    normalize(route: string, tab, { e, bad }) {
      tab.route = route;
      pathParams(route).forEach((n) => { if (!e.fields.some((f) => f.name === n)) bad('/route', `campo desconhecido na rota: {${n}}`); });
      return [`${e.permission}.visualizar`];
    },
  },
  group: {
    schema: {
      type: 'object', additionalProperties: false, required: ['entity', 'each'],
      description: 'A tab group (second slide): one entry per value of the column `each` of this record (comma-separated), each opening the record tabs of `entity` (found by its record `by`).',
      properties: {
        entity: identifier, each: { $ref: '#/definitions/fieldName' },
        screen: { ...identifier, description: "A screen (kind: tela) shown at the second slide instead of the entries' buttons; it gets the record and opens the entries itself (e.g. the asset's Equipamento tab: link and unlink devices)." },
      },
    },
    normalize(group: { entity: string; each: string; screen?: string }, tab, { e, byKey, rawOf, screens, bad }) {
      tab.entity = group.entity;
      tab.each = group.each;
      if (group.screen) {
        tab.screen = group.screen;
        if (!screens.some((x) => x.key === group.screen)) bad('/group/screen', `tela desconhecida: ${group.screen}`);
      }
      const g = byKey.get(group.entity);
      const gRecord = rawOf(group.entity)?.record;
      if (!g) bad('/group/entity', `entidade desconhecida: ${group.entity}`);
      else if (!gRecord) bad('/group/entity', `${g.key} deve declarar record`);
      else if (gRecord.tabs.some((x) => x.group)) bad('/group/entity', `${g.key} não pode ter outro grupo de abas`);
      if (!e.columns.some((c) => c.source === group.each)) bad('/group/each', `coluna desconhecida: ${group.each}`);
      return g ? [`${g.permission}.lista`] : [];
    },
  },
};

/** entity.schema.json's tab definition gets one property per tab kind and "exactly one of them". */
export function withTabKinds(entitySchema: Record<string, any>): Record<string, any> {
  const tab = entitySchema.definitions.tab;
  const kinds = Object.keys(tabKinds);
  return {
    ...entitySchema,
    definitions: {
      ...entitySchema.definitions,
      tab: {
        ...tab,
        description: `One tab with exactly one target: ${kinds.join(', ')}.`,
        oneOf: kinds.map((k) => ({ required: [k] })),
        properties: { ...tab.properties, ...Object.fromEntries(kinds.map((k) => [k, tabKinds[k as TabKind].schema])) },
      },
    },
  };
}

/** Record pages: tabs checked against the entity, its nested lists, actions, screens and the catalogue. */
export function normalizeRecords(
  meta: LoadedMetadata, byKey: Map<string, EntityMeta>, screens: ScreenMeta[], providers: ProviderMeta[], catalogue: Set<string>, problems: string[],
): void {
  const rawOf = (key: string) => meta.entities.find((m) => (m.data as RawEntity).key === key)?.data as RawEntity | undefined;
  for (const src of meta.entities) {
    const raw = (src.data as RawEntity).record;
    if (!raw) continue;
    const e = byKey.get((src.data as RawEntity).key)!;
    const bad = (path: string, msg: string) => problems.push(problem(e.file, `/record${path}`, msg));
    const by = raw.by ?? 'id';
    const byField = e.fields.find((f) => f.name === by);
    if (!byField) bad('/by', `campo desconhecido: ${by}`);
    else if (by !== 'id' && !byField.unique) bad('/by', `${e.key}.${by} deve ser unique`);
    const names = new Set<string>();
    const tabs = raw.tabs.map((rt, i): TabMeta => {
      const at = (p: string) => `/tabs/${i}${p}`;
      if (names.has(rt.name)) bad(at('/name'), `aba repetida: ${rt.name}`);
      names.add(rt.name);
      const kind = TAB_KINDS.find((k) => (rt as unknown as Record<string, unknown>)[k] !== undefined) ?? 'form';
      const tab: TabMeta = { name: rt.name, label: rt.label, permission: rt.permission ?? '', kind };
      const ctx: TabContext = { e, by, recordRoute: raw.path ?? e.route, byKey, screens, providers, rawOf, bad: (p, msg) => bad(at(p), msg) };
      const value = (rt as unknown as Record<string, unknown>)[kind];
      // keys the server requires for the target (the tab's key must be one of them)
      const needs = value === undefined ? [] : tabKinds[kind].normalize(value, tab, ctx);
      if (!rt.permission) {
        if (needs.length) tab.permission = needs[0];
        else bad(at('/permission'), 'permissão obrigatória para esta aba');
      } else if (!catalogue.has(rt.permission)) {
        bad(at('/permission'), `permissão fora do catálogo: ${rt.permission}`);
      } else if (tabKinds[kind].strictPermission) {
        if (needs.length && !needs.includes(rt.permission)) bad(at('/permission'), `deve ser a permissão que o servidor exige: ${needs.join(', ')}`);
      }
      return tab;
    });
    e.record = { by, route: `${raw.path ?? e.route}/:${by}`, tabs };
  }
  // A list referring to its parent by id under a route naming another field is only shown in the parent's record
  // tab (which has the row, hence its id), never on a route of its own.
  for (const e of byKey.values()) {
    const p = e.parent;
    if (!p?.refId) continue;
    const tabbed = byKey.get(p.entity)?.record?.tabs.some((t) => t.kind === 'list' && t.entity === e.key && `${byKey.get(p.entity)!.record!.route}/${t.name}` === p.route);
    if (!tabbed) problems.push(problem(e.file, '/parent', `${e.key} refere ${p.entity} pelo id numa rota por ${p.by}: declare-a numa aba do record de ${p.entity} com o caminho ${p.route}`));
  }
  // A list tab's key is required by the nested routes too (the server refuses what the tab hides).
  for (const e of byKey.values()) {
    for (const tab of e.record?.tabs ?? []) {
      const child = tab.kind === 'list' ? byKey.get(tab.entity!) : undefined;
      if (!child?.parent || [`${child.permission}.lista`, `${e.permission}.visualizar`].includes(tab.permission)) continue;
      child.parent.tabKeys = [...new Set([...(child.parent.tabKeys ?? []), tab.permission])];
    }
  }
}

/** Record pages: the record route, one route per tab, and per group tab one per tab of the group entity's record.
 *  They replace the entity routes of the same path (generator/normalize.ts buildRoutes). */
export function recordRoutes(entities: EntityMeta[]): RouteEntry[] {
  const records: RouteEntry[] = [];
  for (const e of entities) {
    if (!e.record) continue;
    const r = e.record;
    records.push({ path: r.route, name: `${e.permission}.visualizar`, entity: e.key, view: 'record' });
    for (const tab of r.tabs) {
      if (tab.kind === 'route') continue;
      records.push({ path: `${r.route}/${tab.name}`, name: tab.permission, entity: e.key, view: 'record', tab: tab.name });
      const g = tab.kind === 'group' ? entities.find((x) => x.key === tab.entity)?.record : undefined;
      for (const sub of g?.tabs ?? []) {
        if (sub.kind === 'route') continue;
        records.push({ path: `${r.route}/${tab.name}/:${g!.by}/${sub.name}`, name: sub.permission, entity: e.key, view: 'record', tab: tab.name, sub: sub.name });
      }
    }
  }
  return records;
}
