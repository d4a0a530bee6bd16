// The screen kind (`kind: tela`, metadata/_schema/screen.schema.json): a page with a hand-written component
// under runtime/src/screens/ (or the generic provider list), with its route, permission keys and menu entry.
import { basename } from 'node:path';
import { problem } from '../errors.ts';
import type { EntityMeta, PermissionMeta, ProviderMeta, RouteEntry, ScreenMeta } from '../../shared/model.ts';
import type { Err, KindModule } from './types.ts';

export interface RawScreen {
  kind: 'tela'; key: string; label: string; route: string; permission: string; permissionLabel?: string; self?: boolean; sharedKey?: boolean; public?: boolean;
  permissions?: PermissionMeta[]; subroutes?: string[]; menu?: { group: string; order: number; icon?: string }; component: string; help?: string;
  list?: { provider: string; params?: Record<string, string>; tabs?: { param: string; options: { value: string; label: string; path?: string; entity?: string; entityId?: string }[] } };
}

export function normalizeScreen(raw: RawScreen, file: string, area: string, err: Err): ScreenMeta {
  const expectedKey = basename(file).replace(/\.ya?ml$/, '');
  if (raw.key !== expectedKey) err('/key', `deve ser igual ao nome do arquivo (${expectedKey})`);
  if (!area) err('', 'o arquivo deve estar numa pasta de área (adm/, tlm/, cfg/ ...)');
  const seen = new Set<string>();
  (raw.permissions ?? []).forEach((p, i) => {
    if (seen.has(p.key)) err(`/permissions/${i}/key`, `permissão repetida: ${raw.permission}.${p.key}`);
    seen.add(p.key);
  });
  const screen: ScreenMeta = {
    key: raw.key, file, area, label: raw.label, route: raw.route, permission: raw.permission,
    permissions: [
      { key: raw.permission, label: raw.permissionLabel ?? `${raw.label}: Acessar` },
      ...(raw.permissions ?? []).map((p) => ({ key: `${raw.permission}.${p.key}`, label: `${raw.label}: ${p.label}` })),
    ],
    component: raw.component,
  };
  if (raw.self) {
    if (raw.permissions?.length) err('/permissions', 'uma tela self não tem permissões extras');
    screen.self = true;
    screen.permissions = [];
  }
  if (raw.sharedKey) {
    if (raw.permissions?.length || raw.self) err('/sharedKey', 'uma tela com sharedKey não tem permissões extras nem self');
    screen.sharedKey = true;
    screen.permissions = [];
  }
  if (raw.public) {
    if (!raw.sharedKey || raw.menu) err('/public', 'uma tela pública usa sharedKey e não tem menu');
    screen.public = true;
  }
  if (raw.subroutes?.length) screen.subroutes = raw.subroutes;
  if (raw.menu) screen.menu = raw.menu;
  if (raw.help) screen.help = raw.help;
  if (raw.list) {
    screen.list = { provider: raw.list.provider, params: raw.list.params ?? {} };
    if (raw.list.tabs) screen.list.tabs = { param: raw.list.tabs.param, options: raw.list.tabs.options.map((o) => ({ value: o.value, label: o.label, path: o.path ?? o.value, ...(o.entity ? { entity: o.entity } : {}), ...(o.entityId ? { entityId: o.entityId } : {}) })) };
  }
  return screen;
}

/** Screens that are a provider's list: the provider has a path; params map route params (of the route or its subroutes) to its params;
 *  the tabs' param is an enum param and each option one of its values; every path param is covered. */
export function screenLists(screens: ScreenMeta[], providers: ProviderMeta[], problems: string[], entities: EntityMeta[] = []): void {
  for (const t of screens) {
    if (!t.list) continue;
    const bad = (path: string, msg: string) => problems.push(problem(t.file, `/list${path}`, msg));
    const p = providers.find((x) => x.key === t.list!.provider);
    if (!p || !p.path) { bad('/provider', p ? `o provider ${p.key} não tem path` : `provider desconhecido: ${t.list.provider}`); continue; }
    // route parameters: the :name segments of the route itself and of its subroutes
    const routeParams = new Set([t.route, ...(t.subroutes ?? [])].flatMap((s) => s.split('/').filter((x) => x.startsWith(':')).map((x) => x.slice(1))));
    const covered = new Set<string>();
    for (const [name, param] of Object.entries(t.list.params)) {
      if (!routeParams.has(name)) bad(`/params/${name}`, `parâmetro de rota desconhecido (veja subroutes): ${name}`);
      if (!p.params.some((x) => x.name === param)) bad(`/params/${name}`, `parâmetro desconhecido em ${p.key}: ${param}`);
      covered.add(param);
    }
    const tabs = t.list.tabs;
    if (tabs) {
      const tp = p.params.find((x) => x.name === tabs.param);
      if (!tp) bad('/tabs/param', `parâmetro desconhecido em ${p.key}: ${tabs.param}`);
      else if (tp.enum) tabs.options.forEach((o, i) => { if (!tp.enum!.includes(o.value)) bad(`/tabs/options/${i}/value`, `deve ser um de: ${tp.enum!.join(', ')}`); });
      covered.add(tabs.param);
      tabs.options.forEach((o, i) => {
        if (o.entity && !entities.some((e) => e.key === o.entity)) bad(`/tabs/options/${i}/entity`, `entidade desconhecida: ${o.entity}`);
        if (o.entityId && !o.entity) bad(`/tabs/options/${i}/entityId`, 'entityId exige entity');
        if (o.entity && !p.columns.some((c) => c.name === (o.entityId ?? 'id'))) bad(`/tabs/options/${i}/entityId`, `coluna desconhecida em ${p.key}: ${o.entityId ?? 'id'}`);
      });
    }
    p.params.filter((x) => !covered.has(x.name) && p.path!.includes(`{${x.name}}`)).forEach((x) => bad('/params', `parâmetro de ${p.key} sem valor: ${x.name}`));
  }
  // An entity whose list is a screen's: the screen lists a provider and opens at the entity route.
  for (const e of entities) {
    if (!e.listScreen) continue;
    const t = screens.find((x) => x.key === e.listScreen);
    const routes = t ? [t.route, ...(t.subroutes ?? []).map((x) => `${t.route}/${x}`)] : [];
    if (!t?.list) problems.push(problem(e.file, '/listScreen', t ? `a tela ${t.key} não tem list` : `tela desconhecida: ${e.listScreen}`));
    else if (!routes.includes(e.route)) problems.push(problem(e.file, '/listScreen', `a rota ${e.route} não é uma rota da tela ${t.key}`));
  }
}

/** A screen's route and one per subroute (a self screen's route name is '', open to every signed-in user). */
export function screenRoutes(screens: ScreenMeta[]): RouteEntry[] {
  const routes: RouteEntry[] = [];
  for (const t of screens) {
    // A self screen (perfil) opens for every signed-in user: its route name is the open 'home'-like ''.
    routes.push({ path: t.route, name: t.self ? '' : t.permission, screen: t.key, view: 'screen' });
    for (const sub of t.subroutes ?? []) routes.push({ path: `${t.route}/${sub}`, name: t.permission, screen: t.key, view: 'screen' });
  }
  return routes;
}

export const screenKind: KindModule<ScreenMeta, RawScreen> = {
  kind: 'tela',
  schema: 'screen.schema.json',
  modelKey: 'screens',
  normalize: (raw, src, err) => normalizeScreen(raw, src.file, src.area, err),
};
