// Turns validated metadata into the normalized Model (shared/model.ts): each kind's files through its module
// (generator/kinds/), then the checks across kinds (shared key/route/permission namespaces, references, nested
// lists, companies, platform keys, provider paths, record pages), the permission catalogue, menu and route table.
import { MetadataError, problem } from './errors.ts';
import { entityKind } from './kinds/entity/index.ts';
import { lookupProblems } from './kinds/entity/fields.ts';
import type { RawEntity } from './kinds/entity/raw.ts';
import { normalizeRecords } from './kinds/entity/tabs.ts';
import { hubKind } from './kinds/hub.ts';
import { buildMenu, type RawMenu } from './kinds/menu.ts';
import { providerKind } from './kinds/provider.ts';
import { BUILTIN_KINDS, kinds } from './kinds/registry.ts';
import { screenKind, screenLists } from './kinds/screen.ts';
import { normalizeTecnologias } from './kinds/tecnologias.ts';
import type { KindModule, LinkContext } from './kinds/types.ts';
import type { LoadedMetadata } from './load.ts';
import type { EntityMeta, HubMeta, Model, ProviderMeta, RouteEntry, ScreenMeta } from '../shared/model.ts';

/** Every kind's items of a normalised model, by kind (also those kept out of model.json). */
const kindItems = new WeakMap<Model, Record<string, unknown[]>>();
export function itemsOf(model: Model): Record<string, unknown[]> {
  return kindItems.get(model) ?? {};
}

function buildRoutes(entities: EntityMeta[], screens: ScreenMeta[], hubs: HubMeta[] = []): RouteEntry[] {
  const routes: RouteEntry[] = hubs.map((h) => ({ path: h.route, name: h.permission, hub: h.key, view: 'hub' }));
  for (const e of entities) {
    const add = (path: string, name: string, view: RouteEntry['view']) =>
      routes.push({ path, name: `${e.permission}.${name}`, entity: e.key, view });
    // Route parameters: the levels above the list are navigation screens (choose the next parameter's value).
    (e.params ?? []).forEach((_, level) => routes.push({
      path: [e.base, ...e.params!.slice(0, level).map((p) => `:${p.name}`)].join('/'), name: `${e.permission}.lista`, entity: e.key, view: 'params', level,
    }));
    if (!e.listScreen) add(e.route, 'lista', 'list');
    if (!e.readOnlyResource) add(`${e.route}/adicionar`, 'adicionar', 'create');
    if (!e.readOnlyResource) add(`${e.route}/:id/editar`, 'editar', 'edit');
    add(`${e.route}/:id/visualizar`, 'visualizar', 'show');
    (e.aliases ?? []).forEach((al, alias) => {
      // A list alias below route parameters gets its own navigation levels (choose technology, then model …).
      if (al.view === 'list' && al.path.startsWith('/') && e.params?.length) {
        const base = al.path.split('/').slice(0, -e.params.length).join('/');
        e.params.forEach((_, level) => routes.push({
          path: [base, ...e.params!.slice(0, level).map((p) => `:${p.name}`)].join('/'), name: `${e.permission}.lista`, entity: e.key, view: 'params', level, alias,
        }));
      }
      routes.push({
      path: al.path.startsWith('/') ? al.path : `${e.route}/${al.path}`,
      name: `${e.permission}.${{ list: 'lista', create: 'adicionar', edit: 'editar', show: 'visualizar' }[al.view]}`, entity: e.key, view: al.view, alias,
      });
    });
    if (e.parent) routes.push({ path: e.parent.route, name: `${e.permission}.lista`, entity: e.key, view: 'list', parent: e.parent.entity });
  }
  for (const t of screens) {
    // A self screen (perfil) opens for every signed-in user: its route name is the open 'home'-like ''.
    routes.push({ path: t.route, name: t.self ? '' : t.permission, screen: t.key, view: 'screen' });
    for (const sub of t.subroutes ?? []) routes.push({ path: `${t.route}/${sub}`, name: t.permission, screen: t.key, view: 'screen' });
  }
  // Record pages: the record route, one route per tab, and per group tab one per tab of the group entity's record.
  // A tab route replaces the entity route of the same path (garagem/:id/editar, garagem/:id/ativos).
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
  const claimed = new Set(records.map((x) => x.path));
  return [...routes.filter((x) => !claimed.has(x.path)), ...records];
}

export function normalize(meta: LoadedMetadata): Model {
  const problems: string[] = [];
  const byKind = new Map<string, { key: string; file: string }[]>();
  const partial: Partial<Model> = {};
  // Each kind's files through its module, in registry order (a kind sees the model of the kinds before it). Hubs
  // are normalised after the entities' and screens' namespaces are claimed (below), registered kinds after hubs.
  const normalizeKind = (k: KindModule) => {
    const items: { key: string; file: string }[] = [];
    for (const src of meta.kinds?.[k.kind] ?? []) {
      const err = (path: string, msg: string) => problems.push(problem(src.file, path, msg));
      items.push(k.normalize(src.data, src, err, { model: partial }));
    }
    items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    byKind.set(k.kind, items);
    if (k.modelKey) (partial as Record<string, unknown>)[k.modelKey] = items;
    return items;
  };
  const entities = normalizeKind(entityKind) as EntityMeta[];
  const screens = normalizeKind(screenKind) as ScreenMeta[];
  const providers = normalizeKind(providerKind) as ProviderMeta[];

  // Cross-entity checks.
  const byKey = new Map<string, EntityMeta>();
  const unique = (what: string, get: (e: EntityMeta) => string, path: string) => {
    const seen = new Map<string, EntityMeta>();
    for (const e of entities) {
      const v = get(e);
      const other = seen.get(v);
      if (other) problems.push(problem(e.file, path, `${what} "${v}" já usado em ${other.file}`));
      else seen.set(v, e);
    }
  };
  unique('key', (e) => e.key, '/key');
  unique('table', (e) => e.table, '/table');
  unique('route', (e) => e.route, '/route');
  unique('permission', (e) => e.permission, '/permission');
  // Screens share the key, route and permission namespaces with the entities (and their CRUD paths).
  const taken = new Map<string, string>();
  for (const e of entities) {
    taken.set(`key:${e.key}`, e.file);
    if (!e.listScreen) taken.set(`route:${e.route}`, e.file);   // else the screen's own route (checked in screenLists)
    for (const al of e.aliases ?? []) if (al.path.startsWith('/')) taken.set(`route:${al.path}`, e.file);
    if (e.base) taken.set(`route:${e.base}`, e.file);
    taken.set(`route:${e.route}/adicionar`, e.file);
    for (const p of e.permissions) taken.set(`perm:${p.key}`, e.file);
  }
  for (const t of screens) {
    const check = (id: string, path: string, what: string, v: string) => {
      const other = taken.get(id);
      if (other) problems.push(problem(t.file, path, `${what} "${v}" já usado em ${other}`));
      else taken.set(id, t.file);
    };
    check(`key:${t.key}`, '/key', 'key', t.key);
    check(`route:${t.route}`, '/route', 'route', t.route);
    (t.subroutes ?? []).forEach((sub, i) => check(`route:${t.route}/${sub}`, `/subroutes/${i}`, 'route', `${t.route}/${sub}`));
    t.permissions.forEach((p, i) => check(`perm:${p.key}`, i === 0 ? '/permission' : `/permissions/${i - 1}/key`, 'permissão', p.key));
  }
  // Hubs: members from the entities and screens below their route; same namespaces as the screens.
  const claim = (id: string, file: string, path: string, what: string, v: string) => {
    const other = taken.get(id);
    if (other) problems.push(problem(file, path, `${what} "${v}" já usado em ${other}`));
    else taken.set(id, file);
  };
  const hubs = normalizeKind(hubKind) as HubMeta[];
  for (const h of hubs) for (const [id, path, what, v] of [[`key:${h.key}`, '/key', 'key', h.key], [`route:${h.route}`, '/route', 'route', h.route], [`perm:${h.permission}`, '/permission', 'permissão', h.permission]]) claim(id, h.file, path, what, v);
  // Registered kinds (not built in): normalised like the others, linked generically below.
  const extra = kinds().filter((k) => !BUILTIN_KINDS.has(k.kind));
  for (const k of extra) normalizeKind(k);
  const extraPermissions = extra.flatMap((k) => k.permissions?.(byKind.get(k.kind)!) ?? []);
  for (const e of entities) byKey.set(e.key, e);
  const groups = new Set((meta.menu.data as RawMenu).groups.map((g) => g.name));
  for (const e of entities) {
    const declared = e.fields.filter((f) => !f.system);
    for (const f of e.fields) {
      if (!f.reference) continue;
      const i = declared.indexOf(f);
      const path = f.system ? '/scope' : `/fields/${i}/reference`;
      if (!byKey.has(f.reference)) problems.push(problem(e.file, path, `entidade referenciada desconhecida: ${f.reference}`));
      const second = f.pick?.secondLabel;
      if (second && byKey.has(f.reference) && !byKey.get(f.reference)!.fields.some((x) => x.name === second && !x.hidden))
        problems.push(problem(e.file, `/fields/${i}/pick/secondLabel`, `campo desconhecido em ${f.reference}: ${second}`));
    }
    e.fields.forEach((f) => { if (f.lookup) for (const msg of lookupProblems(e, f, byKey)) problems.push(problem(e.file, `/fields/${declared.indexOf(f)}/lookup`, msg)); });
    if (e.menu && !groups.has(e.menu.group))
      problems.push(problem(e.file, '/menu/group', `grupo de menu desconhecido: ${e.menu.group} (veja ${meta.menu.file})`));
  }
  for (const t of [...screens, ...hubs]) {
    if (t.menu && !groups.has(t.menu.group))
      problems.push(problem(t.file, '/menu/group', `grupo de menu desconhecido: ${t.menu.group} (veja ${meta.menu.file})`));
  }

  // Nested lists: the parent exists, shares the company scope, and its `by` field matches this entity's `field`.
  for (const src of meta.entities) {
    const raw = (src.data as RawEntity).parent;
    if (!raw) continue;
    const e = byKey.get((src.data as RawEntity).key)!;
    const bad = (path: string, msg: string) => problems.push(problem(e.file, `/parent${path}`, msg));
    const parent = byKey.get(raw.entity);
    const by = raw.by ?? 'id';
    const f = e.fields.find((x) => x.name === raw.field && !x.system);
    if (!parent) { bad('/entity', `entidade desconhecida: ${raw.entity}`); continue; }
    if (parent.scope !== e.scope) bad('/entity', `escopo diferente do pai (${parent.scope})`);
    const pf = parent.fields.find((x) => x.name === by);
    if (!pf) { bad('/by', `campo desconhecido em ${parent.key}: ${by}`); continue; }
    if (!f) { bad('/field', `campo desconhecido: ${raw.field}`); continue; }
    // by a unique field: the child holds that value, or a reference to the parent (refId: filtered by the parent's id)
    const refId = by !== 'id' && f.type === 'reference' && f.reference === parent.key;
    if (by === 'id' ? !(f.type === 'reference' && f.reference === parent.key) : !refId && f.type !== pf.type) {
      bad('/field', by === 'id' ? `deve ser um campo reference para ${parent.key}` : `tipo diferente de ${parent.key}.${by} (${pf.type})`);
    }
    if (by !== 'id' && !pf.unique) bad('/by', `${parent.key}.${by} deve ser unique`);
    // Below the parent's record page, wherever it lives (record.path).
    const parentBase = (meta.entities.find((m) => (m.data as RawEntity).key === parent.key)?.data as RawEntity | undefined)?.record?.path ?? parent.route;
    const route = `${parentBase}/:${by}/${raw.path ?? e.key}`;
    const other = taken.get(`route:${route}`);
    if (other) bad('/path', `route "${route}" já usado em ${other}`);
    taken.set(`route:${route}`, e.file);
    e.parent = { entity: parent.key, field: raw.field, by, permission: parent.permission, route, api: `${parent.key}/:parent/${e.key}`, ...(refId ? { refId } : {}) };
  }

  // companies paths: 'id' on empresa, a reference(List) to empresa, or reference.path through an entity with companies.
  for (const e of entities) {
    if (!e.companies) continue;
    const [head, rest] = e.companies.split('.');
    const f = e.fields.find((x) => x.name === head);
    const bad = (msg: string) => problems.push(problem(e.file, '/companies', msg));
    if (!rest) {
      if (head === 'id' ? e.key !== 'empresa' : !f || !['reference', 'referenceList'].includes(f.type) || f.reference !== 'empresa') bad(`deve ser id (na entidade empresa) ou um campo reference/referenceList para empresa: ${e.companies}`);
    } else {
      const target = f?.type === 'reference' && f.reference ? byKey.get(f.reference) : undefined;
      if (!target) bad(`${head} deve ser um campo reference`);
      else if (target.companies !== rest) bad(`${f!.reference} deve declarar companies: ${rest}`);
    }
  }
  // Platform keys: declared on the entities they gate; one label each; outside every entity's prefix.
  const platformByKey = new Map<string, { key: string; label: string; gated: string[] }>();
  for (const src of meta.entities) {
    const raw = (src.data as RawEntity).platform;
    if (!raw) continue;
    const e = byKey.get((src.data as RawEntity).key)!;
    const p = platformByKey.get(raw.key) ?? { key: raw.key, label: '', gated: [] };
    if (raw.label) {
      if (p.label && p.label !== raw.label) problems.push(problem(src.file, '/platform/label', `rótulo diferente para ${raw.key}: ${p.label}`));
      p.label = raw.label;
    }
    p.gated.push(...(e.platform?.gated ?? []));
    platformByKey.set(raw.key, p);
  }
  for (const p of platformByKey.values()) {
    if (!p.label) problems.push(problem(meta.menu.file.replace(/_menu\.yaml$/, ''), '', `a permissão de plataforma ${p.key} precisa de label em uma das declarações`));
    if (taken.has(`perm:${p.key}`)) problems.push(problem(taken.get(`perm:${p.key}`)!, '/platform/key', `permissão de plataforma repetida: ${p.key}`));
    p.gated.sort();
  }
  const platform = [...platformByKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1));

  const entityPermissions = [...entities.flatMap((e) => e.permissions), ...platform.map((p) => ({ key: p.key, label: p.label }))].sort((a, b) => (a.key < b.key ? -1 : 1));
  entityPermissions.forEach((p, i) => {
    if (i > 0 && entityPermissions[i - 1].key === p.key) problems.push(problem(meta.menu.file.replace(/_menu\.yaml$/, ''), '', `permissão repetida entre entidades: ${p.key}`));
  });
  // Providers: keys and API paths of their own; permission keys from the catalogue.
  const catalogue = new Set([...entityPermissions, ...screens.flatMap((t) => t.permissions), ...hubs.flatMap((h) => h.permissions), ...extraPermissions].map((p) => p.key));
  const apiPaths = new Map<string, string>(entities.map((e) => [`/${e.key}`, e.file]));
  // Named-call bases share the API namespace with the entity keys (and the providers' paths below).
  for (const e of entities) {
    if (!e.calls) continue;
    const other = apiPaths.get(e.calls) ?? [...apiPaths.keys()].find((k) => e.calls!.startsWith(`${k}/`) && !k.includes('/', 1));
    if (other) problems.push(problem(e.file, '/calls', `caminho "${e.calls}" já usado em ${apiPaths.get(other) ?? other}`));
    else apiPaths.set(e.calls, e.file);
  }
  const providerKeys = new Map<string, string>();
  for (const p of providers) {
    const pp: string[] = [];
    const other = providerKeys.get(p.key);
    if (other) pp.push(problem(p.file, '/key', `key "${p.key}" já usado em ${other}`));
    providerKeys.set(p.key, p.file);
    p.permission.forEach((k, i) => { if (!catalogue.has(k)) pp.push(problem(p.file, `/permission/${i}`, `permissão fora do catálogo: ${k}`)); });
    const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
    const claim = (path: string, at: string) => {
      const o = apiPaths.get(shape(path));
      if (o) pp.push(problem(p.file, at, `caminho "${path}" já usado em ${o}`));
      else apiPaths.set(shape(path), p.file);
    };
    if (p.path) claim(p.path, '/path');
    p.calls.forEach((c, i) => claim(c.path, `/calls/${i}/path`));
    problems.push(...pp);
  }
  const tecnologias = normalizeTecnologias(meta, entities, problems);
  screenLists(screens, providers, problems, entities);
  normalizeRecords(meta, byKey, screens, providers, catalogue, problems);
  const linkContext: LinkContext = { meta, model: partial as Model, catalogue, problems, claim };
  for (const k of extra) k.link?.(byKind.get(k.kind)!, linkContext);
  if (problems.length) throw new MetadataError(problems);
  // Screen keys were checked against the entities' above.
  const permissions = [...entityPermissions, ...screens.flatMap((t) => t.permissions), ...hubs.flatMap((h) => h.permissions), ...extraPermissions].sort((a, b) => (a.key < b.key ? -1 : 1));
  if (problems.length) throw new MetadataError(problems);
  const routes = [...buildRoutes(entities, screens, hubs), ...extra.flatMap((k) => k.routes?.(byKind.get(k.kind)!) ?? [])];
  // An alias route may not take a route another screen opens (the first one would win silently).
  for (const e of entities) (e.aliases ?? []).forEach((al, i) => {
    const path = al.path.startsWith('/') ? al.path : `${e.route}/${al.path}`;
    if (routes.filter((r) => r.path === path).length > 1) problems.push(problem(e.file, `/aliases/${i}/path`, `rota já usada por outra tela: ${path}`));
  });
  if (problems.length) throw new MetadataError(problems);
  const model: Model = { entities, screens, providers, permissions, menu: buildMenu(entities, screens, meta.menu.data as RawMenu, hubs, extra.flatMap((k) => k.menu?.(byKind.get(k.kind)!) ?? [])), routes };
  if (hubs.length) model.hubs = hubs;
  if (platform.length) model.platform = platform;
  if (tecnologias.length) model.tecnologias = tecnologias;
  for (const k of extra) {
    const items = byKind.get(k.kind)!;
    if (k.modelKey && items.length) (model as unknown as Record<string, unknown>)[k.modelKey] = items;
  }
  kindItems.set(model, Object.fromEntries(byKind));
  return model;
}
