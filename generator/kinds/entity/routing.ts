// Where an entity's screens live: aliases (more routes of a view) and route parameters ({name} segments bound to fields).
import type { EntityMeta, FieldMeta, RouteEntry, RouteParamMeta } from '../../../shared/model.ts';
import type { Err } from '../types.ts';
import type { RawEntity } from './raw.ts';

export function checkAliases(raw: RawEntity, byName: Map<string, FieldMeta>, err: Err): void {
  const readOnlyResource = raw.readOnlyResource ?? false;
    (raw.aliases ?? []).forEach((a, i) => {
      if (readOnlyResource && (a.view === 'create' || a.view === 'edit')) err(`/aliases/${i}/view`, 'cadastro somente leitura: só a lista e a visualização');
      if (a.menu && (a.view !== 'list' || !a.path.startsWith('/'))) err(`/aliases/${i}/menu`, 'menu só vale para uma lista de rota absoluta');
      if (a.filter && a.view !== 'list') err(`/aliases/${i}/filter`, 'filter só vale para view: list');
      for (const f of Object.keys(a.filter ?? {})) if (!byName.has(f)) err(`/aliases/${i}/filter`, `campo desconhecido: ${f}`);
      if (a.defaults && a.view !== 'create') err(`/aliases/${i}/defaults`, 'defaults só vale para view: create');
      // Below route parameters an absolute alias carries them too, right after its own base (list) or before :id/… .
      if (raw.params?.length && a.path.startsWith('/')) {
        const tail = raw.params.map((p) => `:${p.name}`).join('/');
        const ok = a.view === 'list' ? a.path.endsWith(`/${tail}`) : a.path.includes(`/${tail}/`) || a.path.endsWith(`/${tail}`);
        if (!ok) err(`/aliases/${i}/path`, `a rota deve ter os parâmetros ${tail}${a.view === 'list' ? ' no fim' : ''}`);
      }
      if (a.back && a.view !== 'create' && a.view !== 'edit') err(`/aliases/${i}/back`, 'back só vale para view: create ou edit');
      for (const m of (a.back ?? '').matchAll(/:([A-Za-z0-9_]+)/g)) if (!a.path.includes(`:${m[1]}`)) err(`/aliases/${i}/back`, `parâmetro :${m[1]} não está na rota ${a.path}`);
      const routeParamNames = [...`${a.path}`.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      for (const [f, param] of Object.entries(a.defaults ?? {})) {
        if (!byName.has(f)) err(`/aliases/${i}/defaults`, `campo desconhecido: ${f}`);
        if (param === '$now') { if (byName.has(f) && !['date', 'datetime'].includes(byName.get(f)!.type)) err(`/aliases/${i}/defaults`, `$now só vale para campo date ou datetime: ${f}`); }
        else if (!routeParamNames.includes(param)) err(`/aliases/${i}/defaults`, `parâmetro :${param} não está na rota ${a.path}`);
      }
    });
}

/** Route parameters: route '/a/b/{x}/{y}' → route '/a/b/:x/:y', base '/a/b', api '{key}/:x/:y'; each bound to a field. */
export function routeParams(raw: RawEntity, e: EntityMeta, byName: Map<string, FieldMeta>, err: Err): void {
  const names = [...raw.route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  if (!raw.params && !names.length) return;
  const declared = raw.params ?? [];
  if (names.join('/') !== declared.map((p) => p.name).join('/')) {
    err(raw.params ? '/params' : '/route', `os parâmetros da rota (${names.map((n) => `{${n}}`).join(', ') || 'nenhum'}) devem ser os de params, na mesma ordem`);
    return;
  }
  if (raw.parent) err('/params', 'params e parent não podem ser usados juntos');
  const params: RouteParamMeta[] = declared.map((p, i) => {
    const f = byName.get(p.field);
    if (!f || f.system) err(`/params/${i}/field`, `campo desconhecido: ${p.field}`);
    else if (!['string', 'enum'].includes(f.type) || !f.required) err(`/params/${i}/field`, `deve ser um campo string ou enum obrigatório: ${p.field}`);
    if (p.values === 'modelos' && declared[i - 1]?.values !== 'tecnologias') err(`/params/${i}/values`, 'modelos exige o parâmetro anterior com values: tecnologias');
    if (declared.findIndex((x) => x.field === p.field) !== i) err(`/params/${i}/field`, `campo repetido: ${p.field}`);
    return { name: p.name, field: p.field, label: f?.label ?? p.field, ...(p.values ? { values: p.values } : {}) };
  });
  e.params = params;
  e.base = raw.route.slice(0, raw.route.indexOf('/{'));
  e.route = raw.route.replace(/\{([^}]+)\}/g, ':$1');
  e.api = [e.key, ...params.map((p) => `:${p.name}`)].join('/');
}

/** Screen routes of an entity: navigation levels of its route parameters, list/adicionar/editar/visualizar, aliases
 *  (with their own levels), the nested list below its parent. */
export function entityRoutes(e: EntityMeta): RouteEntry[] {
  const routes: RouteEntry[] = [];
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
  return routes;
}
