// Turns validated metadata into the normalized Model (model.ts): defaults, system fields,
// permission catalogue, menu tree and route table; checks references across entities.
import { basename } from 'node:path';
import { MetadataError, problem } from './errors.ts';
import { normalizeHub, type RawHub } from './hubs.ts';
import type { LoadedMetadata } from './load.ts';
import type { ActionMeta, ColumnMeta, EntityMeta, FieldMeta, FieldType, HubMeta, MenuNode, Model, PermissionMeta, ProviderColumn, ProviderFilter, ProviderMeta, ProviderParam, RouteEntry, RouteParamMeta, RuleMeta, Scope, ScreenMeta, FormSection, TabMeta, TecnologiaMeta, AliasMeta, CompareMeta, CompareOp } from '../shared/model.ts';

// Raw YAML shapes (already validated against metadata/_schema/entity.schema.json).
interface RawField extends Partial<Omit<FieldMeta, 'name' | 'type' | 'label'>> { name: string; type: FieldType; label: string }
interface RawColumn { source: string; label?: string; default?: boolean; sortable?: boolean; virtual?: boolean; sql?: string; tables?: string[] }
interface RawEntity {
  key: string; table: string; label: { singular: string; plural: string }; route: string; permission: string;
  scope: Scope; menu?: { group: string; order: number; icon?: string }; recordRepresentation?: string; picker?: { groupBy: string; flat: string; secondLabel?: string };
  fields: RawField[];
  list?: { columns?: RawColumn[]; select?: { field: string };
    sort?: { field: string; order?: 'ASC' | 'DESC' } };
  search?: string[]; dateRange?: string; form?: { sections: FormSection[] };
  actions?: { name: string; label: string; set?: Record<string, unknown>; handler?: string; payload?: Record<string, unknown>; permission?: string; bulk?: boolean; confirm?: string; visibleWhen?: Record<string, unknown[]> }[];
  permissions?: PermissionMeta[]; readOnlyResource?: boolean; credentials?: boolean; importable?: boolean; listTabs?: { group: string; order: number; label?: string }; history?: boolean;
  owner?: string; aliases?: AliasMeta[]; listScreen?: string;
  companies?: string; platform?: { key: string; label?: string; operations: string[] };
  parent?: { entity: string; field: string; by?: string; path?: string }; calls?: string;
  params?: { name: string; field: string; values?: 'tecnologias' | 'modelos' }[];
  rules?: RuleMeta[]; hook?: string;
  compare?: ({ field: string; message: string } & Partial<Record<CompareOp, string>>)[];
  record?: { by?: string; path?: string; tabs: RawTab[] };
}
interface RawTab {
  name: string; label: string; permission?: string; form?: true | string[]; list?: string; provider?: string; screen?: string; action?: string[];
  delete?: true; route?: string; group?: { entity: string; each: string };
}
interface RawScreen {
  kind: 'tela'; key: string; label: string; route: string; permission: string; permissionLabel?: string; self?: boolean;
  permissions?: PermissionMeta[]; subroutes?: string[]; menu?: { group: string; order: number; icon?: string }; component: string; help?: string;
  list?: { provider: string; params?: Record<string, string>; tabs?: { param: string; options: { value: string; label: string; path?: string; entity?: string; entityId?: string }[] } };
}
interface RawProvider {
  kind: 'provider'; key: string; label: string; path?: string; one?: boolean; permission: string[]; scope: 'empresa' | 'global';
  params?: (Partial<ProviderParam> & { name: string; label: string })[];
  columns: (Partial<ProviderColumn> & { name: string; label: string })[];
  filters?: (Partial<ProviderFilter> & { name: string; type: ProviderFilter['type'] })[];
  sort?: { field: string; order?: 'ASC' | 'DESC' };
  calls?: { path: string; op: 'one' | 'list'; query?: string[]; notFound?: string }[];
  help?: string;
}
interface RawMenu { groups: { name: string; order: number; icon?: string }[] }

export const SYSTEM_FIELDS = ['id', 'empresaId', 'ambienteId', 'createdAt', 'updatedAt'];
export const CRUD_PERMISSIONS = [
  { key: 'lista', label: 'Listar' },
  { key: 'visualizar', label: 'Visualizar' },
  { key: 'adicionar', label: 'Adicionar' },
  { key: 'editar', label: 'Editar' },
  { key: 'excluir', label: 'Excluir' },
];
const STRING_TYPES: FieldType[] = ['string', 'text', 'password', 'file', 'image'];
const UNSORTABLE: FieldType[] = ['json', 'geometry', 'referenceList', 'password', 'file', 'image', 'text'];

export const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

function field(f: RawField, system = false): FieldMeta {
  const out: FieldMeta = {
    name: f.name, column: snake(f.name), type: f.type, label: f.label,
    required: f.required ?? false, unique: f.unique ?? false,
  } as FieldMeta;
  const optional = ['uniqueGlobal', 'caseInsensitive', 'min', 'max', 'minLength', 'maxLength', 'pattern', 'format', 'patternMessage'] as const;
  for (const k of optional) if (f[k] !== undefined) (out as any)[k] = f[k];
  out.upperCase = f.upperCase ?? false;
  for (const k of ['options', 'items', 'optionsFrom', 'widget', 'reference', 'onDelete', 'help', 'rangeMessage', 'zeroDisables', 'default', 'secretToken', 'upload', 'pick', 'lookup'] as const) {
    if (f[k] !== undefined) (out as any)[k] = f[k];
  }
  out.readOnly = f.readOnly ?? false;
  out.hidden = f.hidden ?? false;
  out.writeOnly = f.writeOnly ?? false;
  out.system = system;
  return out;
}

/** A lookup names a register's code field (unique text) and, when narrowed, a field of this entity with its own
 *  lookup and a reference of the register to that field's register. */
export function lookupProblems(e: EntityMeta, f: FieldMeta, byKey: Map<string, EntityMeta>): string[] {
  const l = f.lookup!;
  const target = byKey.get(l.entity);
  if (!target) return [`entidade desconhecida: ${l.entity}`];
  const out: string[] = [];
  const v = target.fields.find((x) => x.name === l.value);
  if (!v || v.type !== 'string' || !v.unique) out.push(`${l.entity}.${l.value} deve ser um campo string unique`);
  if (l.parent) {
    const pf = e.fields.find((x) => x.name === l.parent!.field);
    if (!pf?.lookup) out.push(`parent.field deve ser um campo com lookup de ${e.key}: ${l.parent.field}`);
    const via = target.fields.find((x) => x.name === l.parent!.via);
    if (!via || via.type !== 'reference' || (pf?.lookup && via.reference !== pf.lookup.entity))
      out.push(`parent.via deve ser um campo reference de ${l.entity} para ${pf?.lookup?.entity ?? '?'}: ${l.parent.via}`);
  }
  if (l.inUseWhileEmpty) {
    const w = e.fields.find((x) => x.name === l.inUseWhileEmpty);
    if (!w || w.system || w.required) out.push(`inUseWhileEmpty deve ser um campo opcional de ${e.key}: ${l.inUseWhileEmpty}`);
  }
  return out;
}

function systemFields(scope: Scope): { head: FieldMeta[]; tail: FieldMeta[] } {
  const sys = (f: RawField) => field({ readOnly: true, ...f }, true);
  const head = [sys({ name: 'id', type: 'integer', label: 'ID', required: true })];
  if (scope === 'empresa') head.push(sys({ name: 'empresaId', type: 'reference', reference: 'empresa', label: 'Empresa', required: true }));
  if (scope === 'ambiente') head.push(sys({ name: 'ambienteId', type: 'reference', reference: 'ambiente', label: 'Ambiente', required: true }));
  const tail = [
    sys({ name: 'createdAt', type: 'datetime', label: 'Criado em', required: true }),
    sys({ name: 'updatedAt', type: 'datetime', label: 'Atualizado em', required: true }),
  ];
  return { head, tail };
}

function normalizeEntity(raw: RawEntity, file: string, area: string, err: (path: string, msg: string) => void): EntityMeta {
  const { head, tail } = systemFields(raw.scope);
  const declared = raw.fields.map((f) => field(f));
  const fields = [...head, ...declared, ...tail];
  const byName = new Map<string, FieldMeta>();
  raw.fields.forEach((f, i) => {
    if (SYSTEM_FIELDS.includes(f.name)) err(`/fields/${i}/name`, `"${f.name}" é um campo de sistema (gerado automaticamente)`);
    else if (byName.has(f.name)) err(`/fields/${i}/name`, `campo "${f.name}" repetido`);
    const isStr = STRING_TYPES.includes(f.type);
    if ((f.min !== undefined || f.max !== undefined) && f.type !== 'integer' && f.type !== 'number')
      err(`/fields/${i}`, 'min/max valem só para campos integer ou number');
    if ((f.maxLength !== undefined || f.minLength !== undefined || f.pattern !== undefined || f.upperCase !== undefined || f.format !== undefined) && !isStr)
      err(`/fields/${i}`, 'minLength/maxLength/pattern/format/upperCase valem só para campos de texto');
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) err(`/fields/${i}/min`, 'min maior que max');
    if (f.upload !== undefined && f.type !== 'file') err(`/fields/${i}/upload`, 'upload vale só para campos file');
    if ((f.rangeMessage !== undefined || f.zeroDisables !== undefined) && f.type !== 'integer' && f.type !== 'number')
      err(`/fields/${i}`, 'rangeMessage/zeroDisables valem só para campos integer ou number');
    if (f.zeroDisables && !(f.min !== undefined && f.min > 0)) err(`/fields/${i}/zeroDisables`, 'zeroDisables exige min maior que 0');
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) err(`/fields/${i}/minLength`, 'minLength maior que maxLength');
    if (f.patternMessage !== undefined && f.pattern === undefined) err(`/fields/${i}/patternMessage`, 'patternMessage sem pattern');
    if (f.options) {
      const values = f.options.map((o) => o.value);
      if (new Set(values).size !== values.length) err(`/fields/${i}/options`, 'valores repetidos');
      if (f.type === 'enum' && f.default !== undefined && !values.includes(f.default as string))
        err(`/fields/${i}/default`, `deve ser um de: ${values.join(', ')}`);
      if (f.type === 'json' && !f.items) err(`/fields/${i}`, 'options em campo json exige items: string');
    }
    if (f.optionsFrom && f.items !== 'string') err(`/fields/${i}`, 'optionsFrom exige items: string');
    if (f.pick && f.type !== 'referenceList') err(`/fields/${i}/pick`, 'pick vale só para campos referenceList');
    if (f.pick?.colorSecond && !f.pick.secondLabel) err(`/fields/${i}/pick/colorSecond`, 'colorSecond exige secondLabel');
    if (f.lookup && f.type !== 'string') err(`/fields/${i}/lookup`, 'lookup vale só para campos string');
    if (f.widget === 'code' ? f.type !== 'text' : f.widget && (f.type !== 'json' || f.items || f.options)) {
      err(`/fields/${i}/widget`, f.widget === 'code' ? 'widget code vale só para campos text' : 'widget vale só para campos json sem items/options');
    }
    if (f.uniqueGlobal && !f.unique) err(`/fields/${i}/uniqueGlobal`, 'uniqueGlobal exige unique: true');
    if (f.caseInsensitive && (!f.unique || !['string', 'text'].includes(f.type))) err(`/fields/${i}/caseInsensitive`, 'caseInsensitive exige unique: true em campo de texto');
    byName.set(f.name, declared[i]);
  });
  for (const f of [...head, ...tail]) byName.set(f.name, f);
  const known = (name: string, path: string, what = 'campo') => {
    if (!byName.has(name)) err(path, `${what} desconhecido: ${name}`);
    return byName.get(name);
  };

  // List columns (default: every visible scalar field).
  const columns: ColumnMeta[] = [];
  const rawColumns: RawColumn[] = raw.list?.columns ?? declared
    .filter((f) => !f.hidden && !f.writeOnly && !['json', 'geometry', 'password'].includes(f.type))
    .map((f, i) => ({ source: f.name, default: i < 6 }));
  rawColumns.forEach((c, i) => {
    if (c.virtual) {
      if (byName.has(c.source)) err(`/list/columns/${i}/source`, `coluna virtual com o nome de um campo: ${c.source}`);
      if (c.sql !== undefined && !c.sql.includes('{this}')) err(`/list/columns/${i}/sql`, 'a expressão deve usar {this} (a linha da entidade)');
      if (c.sortable && c.sql) err(`/list/columns/${i}/sortable`, 'coluna calculada ainda não pode ser ordenada');
      columns.push({ source: c.source, label: c.label!, sortable: false, default: c.default ?? false, virtual: true,
        ...(c.sql ? { sql: c.sql } : {}), ...(c.tables?.length ? { tables: c.tables } : {}) });
      return;
    }
    const f = known(c.source, `/list/columns/${i}/source`);
    if (f && (f.hidden || f.writeOnly)) err(`/list/columns/${i}/source`, `campo oculto não pode ser coluna: ${c.source}`);
    columns.push({ source: c.source, label: c.label ?? f?.label ?? c.source,
      sortable: c.sortable ?? (f ? !UNSORTABLE.includes(f.type) : false), default: c.default ?? false });
  });
  if (columns.length && !columns.some((c) => c.default)) columns.forEach((c) => (c.default = true));
  const sources = columns.map((c) => c.source);
  sources.forEach((s, i) => { if (sources.indexOf(s) !== i) err(`/list/columns/${i}/source`, `coluna repetida: ${s}`); });

  const recordRepresentation = raw.recordRepresentation
    ?? ['descricao', 'nome'].find((n) => byName.has(n))
    ?? declared.find((f) => f.type === 'string')?.name ?? 'id';
  if (raw.recordRepresentation) known(raw.recordRepresentation, '/recordRepresentation');

  const search = raw.search ?? (byName.get(recordRepresentation)?.type === 'string' ? [recordRepresentation] : []);
  search.forEach((s, i) => {
    const f = known(s, `/search/${i}`);
    if (f && !['string', 'text', 'enum'].includes(f.type)) err(`/search/${i}`, `a busca rápida exige campo de texto: ${s}`);
  });
  if (raw.dateRange) {
    const f = known(raw.dateRange, '/dateRange');
    if (f && f.type !== 'date' && f.type !== 'datetime') err('/dateRange', `exige campo date ou datetime: ${raw.dateRange}`);
  }
  const sortField = raw.list?.sort?.field ?? recordRepresentation;
  if (raw.list?.sort) known(sortField, '/list/sort/field');
  const sort = { field: sortField, order: raw.list?.sort?.order ?? 'ASC' } as const;

  const writable = declared.filter((f) => !f.readOnly && !f.hidden);
  const sections = raw.form?.sections ?? [{ title: raw.label.singular, fields: writable.map((f) => f.name) }];
  raw.form?.sections.forEach((s, i) => s.fields.forEach((n, j) => {
    const f = known(n, `/form/sections/${i}/fields/${j}`);
    if (f && (f.system || f.hidden)) err(`/form/sections/${i}/fields/${j}`, `campo não editável: ${n}`);
  }));

  const actions: ActionMeta[] = (raw.actions ?? []).map((a, i) => {
    for (const k of Object.keys(a.set ?? {})) known(k, `/actions/${i}/set/${k}`);
    for (const k of Object.keys(a.visibleWhen ?? {})) known(k, `/actions/${i}/visibleWhen/${k}`);
    // A permission named by the action must be one of the entity's declared extras (it then adds no key of its own).
    if (a.permission !== undefined && !(raw.permissions ?? []).some((p) => p.key === a.permission)) {
      err(`/actions/${i}/permission`, `permissão não declarada em permissions: ${a.permission}`);
    }
    if (a.payload !== undefined && a.payload.type !== 'object') err(`/actions/${i}/payload`, 'o payload deve ser um JSON Schema com type: object');
    if (a.payload !== undefined && !a.handler) err(`/actions/${i}/payload`, 'payload exige handler');
    const out: ActionMeta = { name: a.name, label: a.label, permission: `${raw.permission}.${a.permission ?? a.name}`, bulk: a.bulk ?? false };
    if (a.set !== undefined) out.set = a.set;
    if (a.handler !== undefined) out.handler = a.handler;
    if (a.payload !== undefined) out.payload = a.payload;
    if (a.confirm !== undefined) out.confirm = a.confirm;
    if (a.visibleWhen !== undefined) out.visibleWhen = a.visibleWhen;
    return out;
  });

  const readOnlyResource = raw.readOnlyResource ?? false;
  const crud = CRUD_PERMISSIONS.filter((p) => !readOnlyResource || p.key === 'lista' || p.key === 'visualizar');
  const perms = [...crud, ...(raw.permissions ?? []), ...(raw.actions ?? []).filter((a) => !a.permission).map((a) => ({ key: a.name, label: a.label }))];
  const seen = new Set<string>();
  perms.forEach((p) => {
    if (seen.has(p.key)) err('/permissions', `permissão repetida: ${raw.permission}.${p.key}`);
    seen.add(p.key);
  });

  const expectedKey = basename(file).replace(/\.ya?ml$/, '');
  if (raw.key !== expectedKey) err('/key', `deve ser igual ao nome do arquivo (${expectedKey})`);
  if (!area) err('', 'o arquivo deve estar numa pasta de área (adm/, tlm/, cfg/ ...)');

  const entity: EntityMeta = {
    key: raw.key, table: raw.table, file, area, label: raw.label, route: raw.route, permission: raw.permission,
    scope: raw.scope, fields, columns, search, sort, form: { sections }, actions,
    permissions: perms.map((p) => ({ key: `${raw.permission}.${p.key}`, label: `${raw.label.plural}: ${p.label}` })),
    readOnlyResource, history: raw.history ?? true, recordRepresentation,
  };
  if (raw.dateRange) entity.dateRange = raw.dateRange;
  if (raw.listTabs) entity.listTabs = { group: raw.listTabs.group, order: raw.listTabs.order, label: raw.listTabs.label ?? raw.label.plural };
  if (raw.importable) {
    if (raw.scope !== 'empresa') err('/importable', 'importable exige scope: empresa');
    if (readOnlyResource) err('/importable', 'cadastro somente leitura não pode ser importado');
    entity.importable = true;
  }
  if (raw.credentials) {
    if (raw.importable) err('/importable', 'cadastro de credenciais (credentials) não pode ser importado');
    entity.credentials = true;
  }
  if (raw.owner) {
    const f = byName.get(raw.owner);
    if (raw.scope !== 'empresa') err('/owner', 'owner exige scope: empresa');
    if (!f || f.type !== 'reference' || f.reference !== 'usuario' || !f.readOnly) err('/owner', `owner deve ser um campo reference a usuario com readOnly: ${raw.owner}`);
    entity.owner = raw.owner;
  }
  if (raw.aliases) {
    raw.aliases.forEach((a, i) => {
      if (readOnlyResource && (a.view === 'create' || a.view === 'edit')) err(`/aliases/${i}/view`, 'cadastro somente leitura: só a lista e a visualização');
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
    entity.aliases = raw.aliases;
  }
  if (raw.menu) entity.menu = raw.menu;
  if (raw.listScreen) {
    if (raw.params) err('/listScreen', 'listScreen e params não podem ser usados juntos');
    if (raw.menu) err('/listScreen', 'a lista é da tela: o menu também');
    entity.listScreen = raw.listScreen;
  }
  if (raw.calls) entity.calls = raw.calls;
  if (raw.hook) {
    if (readOnlyResource) err('/hook', 'cadastro somente leitura não tem escrita: hook não se aplica');
    entity.hook = raw.hook;
  }
  routeParams(raw, entity, byName, err);
  if (raw.rules) entity.rules = rules(raw.rules, byName, err);
  if (raw.compare) entity.compare = compare(raw.compare, byName, err);
  if (raw.list?.select) {
    const f = known(raw.list.select.field, '/list/select/field');
    if (f && !['enum', 'reference'].includes(f.type) && !f.lookup) err('/list/select/field', `o seletor da lista exige campo enum, reference ou com lookup: ${f.name}`);
    if (f?.lookup?.parent) err('/list/select/field', `o seletor da lista não aceita lookup com parent: ${f.name}`);
    else if (f?.hidden) err('/list/select/field', `campo oculto: ${f.name}`);
    entity.listSelect = raw.list.select.field;
  }
  if (raw.picker) {
    const g = known(raw.picker.groupBy, '/picker/groupBy');
    if (g && g.type !== 'reference') err('/picker/groupBy', `deve ser um campo reference: ${raw.picker.groupBy}`);
    if (raw.picker.secondLabel) known(raw.picker.secondLabel, '/picker/secondLabel');
    if (!search.length) err('/picker', 'picker exige campos de busca (search)');
    entity.picker = raw.picker;
  }
  if (raw.companies) {
    if (raw.scope !== 'ambiente') err('/companies', 'companies exige scope: ambiente');
    entity.companies = raw.companies;
  }
  if (raw.platform) {
    const ops = new Set(perms.map((p) => p.key));
    raw.platform.operations.forEach((op, i) => { if (!ops.has(op)) err(`/platform/operations/${i}`, `operação desconhecida: ${op}`); });
    entity.platform = { key: raw.platform.key, gated: raw.platform.operations.map((op) => `${raw.permission}.${op}`) };
  }
  return entity;
}

/** Route parameters: route '/a/b/{x}/{y}' → route '/a/b/:x/:y', base '/a/b', api '{key}/:x/:y'; each bound to a field. */
function routeParams(raw: RawEntity, e: EntityMeta, byName: Map<string, FieldMeta>, err: (path: string, msg: string) => void): void {
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

const COMPARE_OPS: CompareOp[] = ['gt', 'gte', 'lt', 'lte', 'contains'];
// Comparable families: numbers with numbers, dates/datetimes with each other, times with times.
const family = (t: string) => (t === 'integer' || t === 'number' ? 'n' : t === 'date' || t === 'datetime' ? 'd' : t === 'time' ? 't' : undefined);

function compare(raw: NonNullable<RawEntity['compare']>, byName: Map<string, FieldMeta>, err: (path: string, msg: string) => void): CompareMeta[] {
  return raw.map((c, i) => {
    const ops = COMPARE_OPS.filter((o) => c[o] !== undefined);
    if (ops.length !== 1) err(`/compare/${i}`, 'declare exatamente um de gt, gte, lt, lte, contains');
    const op = ops[0] ?? 'gt';
    const other = String(c[op] ?? '');
    for (const [k, name] of [['field', c.field], [op, other]] as const) {
      const f = byName.get(name);
      if (!f) err(`/compare/${i}/${k}`, `campo desconhecido: ${name}`);
      else if (f.system || f.readOnly || f.hidden) err(`/compare/${i}/${k}`, `deve ser um campo editável: ${name}`);
      else if (op !== 'contains' && !family(f.type)) err(`/compare/${i}/${k}`, `deve ser um campo integer, number, date, datetime ou time: ${name}`);
    }
    const a = byName.get(c.field), b = byName.get(other);
    if (op === 'contains') {
      if (a && a.type !== 'referenceList') err(`/compare/${i}/field`, `contains exige um campo referenceList: ${c.field}`);
      if (b && a?.type === 'referenceList' && (b.type !== 'reference' || b.reference !== a.reference)) err(`/compare/${i}/contains`, `contains exige uma referência ao mesmo cadastro de ${c.field}: ${other}`);
    } else if (a && b && family(a.type) && family(b.type) && family(a.type) !== family(b.type)) err(`/compare/${i}/${op}`, `tipos não comparáveis: ${a.type} e ${b.type}`);
    if (c.field === other) err(`/compare/${i}/${op}`, 'compare um campo com outro');
    return { field: c.field, op, other, message: c.message };
  });
}

function rules(raw: RuleMeta[], byName: Map<string, FieldMeta>, err: (path: string, msg: string) => void): RuleMeta[] {
  raw.forEach((r, i) => {
    for (const k of Object.keys(r.when)) if (!byName.has(k)) err(`/rules/${i}/when/${k}`, `campo desconhecido: ${k}`);
    for (const [k, lim] of Object.entries(r.then)) {
      const f = byName.get(k);
      if (!f) err(`/rules/${i}/then/${k}`, `campo desconhecido: ${k}`);
      else if (f.type !== 'integer' && f.type !== 'number') err(`/rules/${i}/then/${k}`, `deve ser um campo integer ou number: ${k}`);
      if (lim.min !== undefined && lim.max !== undefined && lim.min > lim.max) err(`/rules/${i}/then/${k}/min`, 'min maior que max');
    }
  });
  return raw.map((r) => ({ when: r.when, then: r.then, message: r.message }));
}

function normalizeScreen(raw: RawScreen, file: string, area: string, err: (path: string, msg: string) => void): ScreenMeta {
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
  if (raw.subroutes?.length) screen.subroutes = raw.subroutes;
  if (raw.menu) screen.menu = raw.menu;
  if (raw.help) screen.help = raw.help;
  if (raw.list) {
    screen.list = { provider: raw.list.provider, params: raw.list.params ?? {} };
    if (raw.list.tabs) screen.list.tabs = { param: raw.list.tabs.param, options: raw.list.tabs.options.map((o) => ({ value: o.value, label: o.label, path: o.path ?? o.value, ...(o.entity ? { entity: o.entity } : {}), ...(o.entityId ? { entityId: o.entityId } : {}) })) };
  }
  return screen;
}

const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

function normalizeProvider(raw: RawProvider, file: string, area: string, err: (path: string, msg: string) => void): ProviderMeta {
  const expectedKey = basename(file).replace(/\.ya?ml$/, '');
  if (raw.key !== expectedKey) err('/key', `deve ser igual ao nome do arquivo (${expectedKey})`);
  if (!area) err('', 'o arquivo deve estar numa pasta de área (adm/, tlm/, cfg/ ...)');
  const columns: ProviderColumn[] = raw.columns.map((c) => ({
    name: c.name, label: c.label, type: c.type ?? 'string', sortable: c.sortable ?? false, default: c.default ?? true,
    ...(c.sortKey ? { sortKey: c.sortKey } : {}), ...(c.show ? { show: c.show } : {}), ...(c.tooltip ? { tooltip: c.tooltip } : {}),
  }));
  raw.columns.forEach((c, i) => {
    if ((c.show || c.tooltip) && c.type !== 'json') err(`/columns/${i}`, 'show/tooltip valem só para colunas json');
    if (c.tooltip && !c.show) err(`/columns/${i}/tooltip`, 'tooltip exige show');
  });
  const filters: ProviderFilter[] = (raw.filters ?? []).map((f) => ({
    name: f.name, label: f.label ?? columns.find((c) => c.name === f.name)?.label ?? f.name, type: f.type, multiple: f.multiple ?? false,
  }));
  const params: ProviderParam[] = (raw.params ?? []).map((p, i, all) => {
    if (p.values === 'modelos' && all[i - 1]?.values !== 'tecnologias') err(`/params/${i}/values`, 'modelos exige o parâmetro anterior com values: tecnologias');
    if (p.values && (p.enum || p.type === 'integer')) err(`/params/${i}/values`, 'values não combina com enum nem com type: integer');
    return { name: p.name, label: p.label, type: p.type ?? 'string', ...(p.enum ? { enum: p.enum } : {}), ...(p.values ? { values: p.values } : {}) };
  });
  const dup = (what: string, names: string[], path: string) => names.forEach((n, i) => { if (names.indexOf(n) !== i) err(`${path}/${i}/name`, `${what} repetido: ${n}`); });
  dup('coluna', columns.map((c) => c.name), '/columns');
  dup('filtro', filters.map((f) => f.name), '/filters');
  dup('parâmetro', params.map((p) => p.name), '/params');
  if (filters.filter((f) => f.type === 'search').length > 1) err('/filters', 'só um filtro pode ser do tipo search');
  const sort = { field: raw.sort?.field ?? columns[0].name, order: raw.sort?.order ?? 'ASC' as const };
  if (!columns.some((c) => c.sortable && c.name === sort.field)) err('/sort/field', `deve ser uma coluna com sortable: true: ${sort.field}`);
  const used = new Set<string>();
  const checkPath = (path: string, at: string) => pathParams(path).forEach((n) => {
    used.add(n);
    if (!params.some((p) => p.name === n)) err(at, `parâmetro {${n}} não declarado em params`);
  });
  if (raw.path) checkPath(raw.path, '/path');
  if (raw.one && !raw.path) err('/one', 'exige path');
  const calls = (raw.calls ?? []).map((c, i) => {
    checkPath(c.path, `/calls/${i}/path`);
    (c.query ?? []).forEach((q, j) => { if (!filters.some((f) => f.name === q)) err(`/calls/${i}/query/${j}`, `filtro não declarado em filters: ${q}`); });
    return { path: c.path, op: c.op, query: c.query ?? [], ...(c.notFound ? { notFound: c.notFound } : {}) };
  });
  params.forEach((p, i) => { if (!used.has(p.name)) err(`/params/${i}/name`, `parâmetro não usado em path nem em calls: ${p.name}`); });
  if (!raw.path && !calls.length) err('', 'declare path, calls ou os dois');
  const provider: ProviderMeta = {
    key: raw.key, file, area, label: raw.label, one: raw.one ?? false, permission: raw.permission, scope: raw.scope,
    params, columns, filters, sort, calls,
  };
  if (raw.path) provider.path = raw.path;
  if (raw.help) provider.help = raw.help;
  return provider;
}

/** Screens that are a provider's list: the provider has a path; params map route params (of subroutes) to its params;
 *  the tabs' param is an enum param and each option one of its values; every path param is covered. */
function screenLists(screens: ScreenMeta[], providers: ProviderMeta[], problems: string[], entities: EntityMeta[] = []): void {
  for (const t of screens) {
    if (!t.list) continue;
    const bad = (path: string, msg: string) => problems.push(problem(t.file, `/list${path}`, msg));
    const p = providers.find((x) => x.key === t.list!.provider);
    if (!p || !p.path) { bad('/provider', p ? `o provider ${p.key} não tem path` : `provider desconhecido: ${t.list.provider}`); continue; }
    const routeParams = new Set((t.subroutes ?? []).flatMap((s) => s.split('/').filter((x) => x.startsWith(':')).map((x) => x.slice(1))));
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

/** metadata/_tecnologias.yaml: unique ids; needed by any entity param with values. */
function normalizeTecnologias(meta: LoadedMetadata, entities: EntityMeta[], problems: string[]): TecnologiaMeta[] {
  const raw = ((meta.tecnologias?.data ?? { tecnologias: [] }) as { tecnologias: (Omit<TecnologiaMeta, 'bibliotecas'> & { bibliotecas?: TecnologiaMeta['bibliotecas'] })[] }).tecnologias;
  const file = meta.tecnologias?.file ?? 'metadata/_tecnologias.yaml';
  raw.forEach((t, i) => {
    if (raw.findIndex((x) => x.id === t.id) !== i) problems.push(problem(file, `/tecnologias/${i}/id`, `tecnologia repetida: ${t.id}`));
    t.modelos.forEach((m, j) => { if (t.modelos.findIndex((x) => x.id === m.id) !== j) problems.push(problem(file, `/tecnologias/${i}/modelos/${j}/id`, `modelo repetido: ${m.id}`)); });
  });
  for (const e of entities) {
    e.params?.forEach((p, i) => {
      if (p.values && !raw.length) problems.push(problem(e.file, `/params/${i}/values`, `nenhuma tecnologia declarada em ${file}`));
    });
  }
  return raw.map((t) => ({ id: t.id, label: t.label, modelos: t.modelos.map((m) => ({ id: m.id, label: m.label })), bibliotecas: t.bibliotecas ?? {} }));
}

function buildMenu(entities: EntityMeta[], screens: ScreenMeta[], menu: RawMenu, hubs: HubMeta[] = []): MenuNode[] {
  const items = [
    ...hubs.map((h) => ({ key: h.key, menu: h.menu, node: { label: h.label, route: h.route, permission: h.permission } as MenuNode })),
    ...entities.map((e) => ({ key: e.key, menu: e.menu, node: { label: e.label.plural, route: e.base ?? e.route, permission: `${e.permission}.lista` } as MenuNode })),
    ...screens.map((t) => ({ key: t.key, menu: t.menu, node: { label: t.label, route: t.route, ...(t.self ? {} : { permission: t.permission }) } as MenuNode })),
  ];
  return [...menu.groups]
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
    .map((g) => {
      const children = items
        .filter((e) => e.menu?.group === g.name)
        .sort((a, b) => a.menu!.order - b.menu!.order || a.key.localeCompare(b.key))
        .map((e) => {
          const node: MenuNode = { ...e.node };
          if (e.menu!.icon) node.icon = e.menu!.icon;
          return node;
        });
      const node: MenuNode = { label: g.name };
      if (g.icon) node.icon = g.icon;
      node.children = children;
      return node;
    })
    .filter((g) => g.children!.length > 0);
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

/** Record pages (metadata record): tabs checked against the entity, its nested lists, actions, screens and the catalogue. */
function normalizeRecords(
  meta: LoadedMetadata, byKey: Map<string, EntityMeta>, screens: ScreenMeta[], providers: ProviderMeta[], catalogue: Set<string>, problems: string[],
): void {
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
      const tab: TabMeta = { name: rt.name, label: rt.label, permission: rt.permission ?? '', kind: 'form' };
      let needs: string[] = [];   // keys the server requires for the target (the tab's key must be one of them)
      if (rt.form !== undefined) {
        tab.kind = 'form';
        needs = [`${e.permission}.editar`];
        if (Array.isArray(rt.form)) {
          rt.form.forEach((s, j) => { if (!e.form.sections.some((x) => x.title === s)) bad(at(`/form/${j}`), `seção desconhecida no formulário: ${s}`); });
          tab.sections = rt.form;
        }
      } else if (rt.list !== undefined) {
        tab.kind = 'list';
        tab.entity = rt.list;
        const child = byKey.get(rt.list);
        if (!child?.parent || child.parent.entity !== e.key) bad(at('/list'), `deve ser uma entidade com parent: ${e.key}`);
        else if (child.parent.by !== by) bad(at('/list'), `${rt.list} aponta o pai por ${child.parent.by}, o registro por ${by}`);
        else if (child.parent.route !== `${raw.path ?? e.route}/:${by}/${rt.name}` && child.parent.refId) {
          bad(at('/name'), `${rt.list} refere o pai pelo id: a aba deve ter o caminho da lista aninhada (${child.parent.route})`);
        }
        else needs = [`${child.permission}.lista`, `${e.permission}.visualizar`];
      } else if (rt.provider !== undefined) {
        tab.kind = 'provider';
        tab.provider = rt.provider;
        const pv = providers.find((x) => x.key === rt.provider);
        if (!pv?.path) bad(at('/provider'), `provider desconhecido ou sem path: ${rt.provider}`);
        else {
          pathParams(pv.path).forEach((n) => { if (!e.fields.some((f) => f.name === n)) bad(at('/provider'), `parâmetro {${n}} de ${pv.key} não é campo de ${e.key}`); });
          needs = pv.permission;
        }
      } else if (rt.screen !== undefined) {
        tab.kind = 'screen';
        tab.screen = rt.screen;
        const s = screens.find((x) => x.key === rt.screen);
        if (!s) bad(at('/screen'), `tela desconhecida: ${rt.screen}`);
        else needs = s.permissions.map((p) => p.key);
      } else if (rt.action !== undefined) {
        tab.kind = 'action';
        tab.actions = rt.action;
        const found = rt.action.map((n, j) => {
          const a = e.actions.find((x) => x.name === n);
          if (!a) bad(at(`/action/${j}`), `ação desconhecida: ${n}`);
          return a;
        });
        const keys = [...new Set(found.filter((a) => a).map((a) => a!.permission))];
        if (keys.length > 1) bad(at('/action'), `as ações de uma aba devem ter a mesma permissão: ${keys.join(', ')}`);
        needs = keys;
      } else if (rt.delete !== undefined) {
        tab.kind = 'delete';
        if (e.readOnlyResource) bad(at('/delete'), 'entidade sem exclusão (readOnlyResource)');
        needs = [`${e.permission}.excluir`];
      } else if (rt.route !== undefined) {
        tab.kind = 'route';
        tab.route = rt.route;
        pathParams(rt.route).forEach((n) => { if (!e.fields.some((f) => f.name === n)) bad(at('/route'), `campo desconhecido na rota: {${n}}`); });
        needs = [`${e.permission}.visualizar`];
      } else if (rt.group !== undefined) {
        tab.kind = 'group';
        tab.entity = rt.group.entity;
        tab.each = rt.group.each;
        const g = byKey.get(rt.group.entity);
        const gRecord = (meta.entities.find((m) => (m.data as RawEntity).key === rt.group!.entity)?.data as RawEntity | undefined)?.record;
        if (!g) bad(at('/group/entity'), `entidade desconhecida: ${rt.group.entity}`);
        else if (!gRecord) bad(at('/group/entity'), `${g.key} deve declarar record`);
        else if (gRecord.tabs.some((x) => x.group)) bad(at('/group/entity'), `${g.key} não pode ter outro grupo de abas`);
        if (!e.columns.some((c) => c.source === rt.group!.each)) bad(at('/group/each'), `coluna desconhecida: ${rt.group.each}`);
        needs = g ? [`${g.permission}.lista`] : [];
      }
      if (!rt.permission) {
        if (needs.length) tab.permission = needs[0];
        else bad(at('/permission'), 'permissão obrigatória para esta aba');
      } else if (!catalogue.has(rt.permission)) {
        bad(at('/permission'), `permissão fora do catálogo: ${rt.permission}`);
      } else if (['action', 'delete', 'provider'].includes(tab.kind)) {
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

export function normalize(meta: LoadedMetadata): Model {
  const problems: string[] = [];
  const entities: EntityMeta[] = [];
  for (const src of meta.entities) {
    const err = (path: string, msg: string) => problems.push(problem(src.file, path, msg));
    entities.push(normalizeEntity(src.data as RawEntity, src.file, src.area, err));
  }
  entities.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const screens: ScreenMeta[] = [];
  for (const src of meta.screens ?? []) {
    const err = (path: string, msg: string) => problems.push(problem(src.file, path, msg));
    screens.push(normalizeScreen(src.data as RawScreen, src.file, src.area, err));
  }
  screens.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const providers: ProviderMeta[] = [];
  for (const src of meta.providers ?? []) {
    const err = (path: string, msg: string) => problems.push(problem(src.file, path, msg));
    providers.push(normalizeProvider(src.data as RawProvider, src.file, src.area, err));
  }
  providers.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

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
  const hubs: HubMeta[] = [];
  for (const src of meta.hubs ?? []) {
    const err = (path: string, msg: string) => problems.push(problem(src.file, path, msg));
    const h = normalizeHub(src.data as RawHub, src.file, src.area, entities, screens, err);
    for (const [id, path, what, v] of [[`key:${h.key}`, '/key', 'key', h.key], [`route:${h.route}`, '/route', 'route', h.route], [`perm:${h.permission}`, '/permission', 'permissão', h.permission]]) {
      const other = taken.get(id);
      if (other) err(path, `${what} "${v}" já usado em ${other}`);
      else taken.set(id, src.file);
    }
    hubs.push(h);
  }
  hubs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
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
  const catalogue = new Set([...entityPermissions, ...screens.flatMap((t) => t.permissions), ...hubs.flatMap((h) => h.permissions)].map((p) => p.key));
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
  if (problems.length) throw new MetadataError(problems);
  // Screen keys were checked against the entities' above.
  const permissions = [...entityPermissions, ...screens.flatMap((t) => t.permissions), ...hubs.flatMap((h) => h.permissions)].sort((a, b) => (a.key < b.key ? -1 : 1));
  if (problems.length) throw new MetadataError(problems);
  const routes = buildRoutes(entities, screens, hubs);
  // An alias route may not take a route another screen opens (the first one would win silently).
  for (const e of entities) (e.aliases ?? []).forEach((al, i) => {
    const path = al.path.startsWith('/') ? al.path : `${e.route}/${al.path}`;
    if (routes.filter((r) => r.path === path).length > 1) problems.push(problem(e.file, `/aliases/${i}/path`, `rota já usada por outra tela: ${path}`));
  });
  if (problems.length) throw new MetadataError(problems);
  const model: Model = { entities, screens, providers, permissions, menu: buildMenu(entities, screens, meta.menu.data as RawMenu, hubs), routes };
  if (hubs.length) model.hubs = hubs;
  if (platform.length) model.platform = platform;
  if (tecnologias.length) model.tecnologias = tecnologias;
  return model;
}
