// Turns validated metadata into the normalized Model (shared/model.ts): each kind's files through its module
// (generator/kinds/), then the checks across kinds (shared key/route/permission namespaces, references, nested
// lists, companies, platform keys, provider paths, record pages), the permission catalogue, menu and route table.
import { MetadataError, problem } from './errors.ts';
import { entityKind } from './kinds/entity/index.ts';
import { entityRoutes } from './kinds/entity/routing.ts';
import { normalizeRecords, recordRoutes } from './kinds/entity/tabs.ts';
import { callBases, linkCompanies, linkParents, linkReferences, platformKeys, uniqueEntities } from './kinds/entity/link.ts';
import { hubKind, hubRoutes } from './kinds/hub.ts';
import { buildMenu, type RawMenu } from './kinds/menu.ts';
import { linkProviders, providerKind } from './kinds/provider.ts';
import { BUILTIN_KINDS, kinds } from './kinds/registry.ts';
import { screenKind, screenLists, screenRoutes } from './kinds/screen.ts';
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
  const routes: RouteEntry[] = [...hubRoutes(hubs), ...entities.flatMap(entityRoutes), ...screenRoutes(screens)];
  // A tab route replaces the entity route of the same path (garagem/:id/editar, garagem/:id/ativos).
  const records = recordRoutes(entities);
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
  uniqueEntities(entities, problems);
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
  linkReferences(entities, byKey, groups, meta.menu.file, problems);
  for (const t of [...screens, ...hubs]) {
    if (t.menu && !groups.has(t.menu.group))
      problems.push(problem(t.file, '/menu/group', `grupo de menu desconhecido: ${t.menu.group} (veja ${meta.menu.file})`));
  }

  linkParents(meta, byKey, taken, problems);
  linkCompanies(entities, byKey, problems);
  const platform = platformKeys(meta, byKey, taken, problems);

  qualifyPermissionLabels(entities, hubs, screens, byKey);
  const entityPermissions = [...entities.flatMap((e) => e.permissions), ...platform.map((p) => ({ key: p.key, label: p.label }))].sort((a, b) => (a.key < b.key ? -1 : 1));
  entityPermissions.forEach((p, i) => {
    if (i > 0 && entityPermissions[i - 1].key === p.key) problems.push(problem(meta.menu.file.replace(/_menu\.yaml$/, ''), '', `permissão repetida entre entidades: ${p.key}`));
  });
  // Providers: keys and API paths of their own; permission keys from the catalogue.
  const catalogue = new Set([...entityPermissions, ...screens.flatMap((t) => t.permissions), ...hubs.flatMap((h) => h.permissions), ...extraPermissions].map((p) => p.key));
  for (const t of screens) if (t.sharedKey && !catalogue.has(t.permission)) problems.push(problem(t.file, '/permission', `sharedKey: permissão fora do catálogo: ${t.permission}`));
  const apiPaths = new Map<string, string>(entities.map((e) => [`/${e.key}`, e.file]));
  callBases(entities, apiPaths, problems);
  linkProviders(providers, catalogue, apiPaths, problems);
  const tecnologias = normalizeTecnologias(meta, entities, problems);
  screenLists(screens, providers, problems, entities);
  normalizeRecords(meta, byKey, screens, providers, catalogue, problems);
  const linkContext: LinkContext = { meta, model: partial as Model, catalogue, problems, claim };
  for (const k of extra) k.link?.(byKind.get(k.kind)!, linkContext);
  if (problems.length) throw new MetadataError(problems);
  // Screen keys were checked against the entities' above.
  const permissions = [...entityPermissions, ...screens.flatMap((t) => t.permissions), ...hubs.flatMap((h) => h.permissions), ...extraPermissions].sort((a, b) => (a.key < b.key ? -1 : 1));
  // Every key says what it controls: no two keys share a label (the cargo's permission matrix, chips, lists).
  const byLabel = new Map<string, string>();
  for (const p of permissions) {
    const other = byLabel.get(p.label);
    if (other) problems.push(problem(meta.menu.file.replace(/_menu\.yaml$/, ''), '', `rótulo de permissão repetido: '${p.label}' (${other} e ${p.key})`));
    byLabel.set(p.label, p.key);
  }
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

/**
 * Registers with the same plural label (e.g. Equipamentos: the company's trackers and the hardware kinds) get a
 * qualifier in their permission labels, 'Equipamentos (Hardware): Listar': the one in the menu keeps its plain
 * label, the others name the hub that shows them or their parent register (or, failing both, their route).
 */
function qualifyPermissionLabels(entities: EntityMeta[], hubs: HubMeta[], screens: ScreenMeta[], byKey: Map<string, EntityMeta>): void {
  // hubs and screens keep their labels; they count as a name taken ('Modelos' the hub vs 'Modelos' of Hardware)
  const same = new Map<string, { e?: EntityMeta; menu: boolean }[]>();
  const add = (name: string, o: { e?: EntityMeta; menu: boolean }) => same.set(name, [...(same.get(name) ?? []), o]);
  for (const e of entities) add(e.label.plural, { e, menu: !!e.menu });
  for (const t of [...hubs, ...screens]) add(t.label, { menu: !!t.menu });
  for (const [plural, all] of same) {
    if (all.length < 2) continue;
    const list = all.flatMap((o) => (o.e ? [o.e] : []));
    const context = (e: EntityMeta) => hubs.find((h) => h.members?.some((m) => m.key === e.key))?.label
      ?? (e.parent ? byKey.get(e.parent.entity)?.label.plural : undefined) ?? e.route;
    const withMenu = all.filter((o) => o.menu);
    const plain = withMenu.length === 1 ? withMenu[0].e : undefined;
    // (a register inside its namesake hub shares the hub's row: 'Aparelhos: Acessar', 'Aparelhos: Listar')
    const names = new Map(list.map((e) => [e, e === plain || context(e) === plural ? plural : `${plural} (${context(e)})`]));
    // still the same (two under one hub): the route tells them apart
    for (const e of list) if ([...names.values()].filter((n) => n === names.get(e)).length > 1) names.set(e, `${plural} (${e.route})`);
    for (const e of list) {
      const name = names.get(e)!;
      if (name === plural) continue;
      e.permissions = e.permissions.map((p) => (p.label.startsWith(`${plural}: `) ? { ...p, label: `${name}: ${p.label.slice(plural.length + 2)}` } : p));
    }
  }
}
