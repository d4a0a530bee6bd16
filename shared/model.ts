// The normalized model: what the generator produces from metadata/ and what the server and the
// runtime consume (server/generated/model.json, runtime/src/generated/model.json).
// The YAML format (metadata/_schema/entity.schema.json) is close to this, with defaults filled in here.

export type Scope = 'empresa' | 'ambiente' | 'global';

export type FieldType =
  | 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time'
  | 'enum' | 'reference' | 'referenceList' | 'json' | 'geometry' | 'file' | 'image' | 'password';

export interface EnumOption { value: string; label: string }

/** A string field whose values are the codes of a register (metadata `lookup`). */
export interface LookupMeta {
  entity: string;          // the register, e.g. modelo
  value: string;           // its field holding the code, e.g. codigo
  /** Narrowed by another field of this entity: the register's reference `via` points to a row whose code (that
   *  field's own lookup value) is the other field's value, e.g. modelo.protocolo → protocolo.codigo = tecnologia. */
  parent?: { field: string; via: string };
  /** A field of this entity: the row keeps the code in use only while it is empty (an ended link is history). */
  inUseWhileEmpty?: string;
}

/** Shapes the map widget of a geometry field draws: Circle = GeoJSON Point + radius; Corridor = LineString + width. */
export type MapShape = 'Polygon' | 'Circle' | 'Corridor' | 'Point' | 'LineString';
export interface GeometryMap { kindField?: string; radiusField?: string; colorField?: string; kinds: Record<string, MapShape> }

export interface FieldMeta {
  name: string;            // camelCase API/JSON name, e.g. idGaragem
  column: string;          // snake_case SQL column, e.g. id_garagem
  type: FieldType;
  label: string;           // pt-BR label, used in 'O campo {label} é obrigatório'
  required: boolean;
  unique: boolean;         // unique within the entity's tenancy scope
  uniqueGlobal?: boolean;  // unique across all tenants (e.g. usuario.login)
  caseInsensitive?: boolean; // unique without letter case (index on lower(column))
  /** Unique (in the tenant, or everywhere with uniqueGlobal) among the rows whose field of this name is empty: an open
   *  link (equipamento_ativo.serial while dataFim is empty). A partial unique index in the database. */
  uniqueWhileEmpty?: string;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: 'email' | 'uri';
  patternMessage?: string; // pt-BR message when pattern fails
  upperCase: boolean;
  options?: EnumOption[];  // enum; or the choices of a json string list
  items?: 'string' | 'integer';  // json only: the value is an array of this type
  optionsFrom?: 'permissions';   // json string list whose choices are the permission catalogue
  widget?: 'questionnaire' | 'answers' | 'code'; // json: core widget (shared/questionnaire.ts); text: code (monospace)
  /** geometry: edited on a map (core widget): what each value of kindField draws, the radius/width and colour fields. */
  map?: GeometryMap;
  reference?: string;      // entity key, for reference / referenceList
  onDelete?: 'restrict' | 'setNull' | 'cascade'; // reference: deleting the referenced row (default restrict → 409 'em uso')
  help?: string;
  rangeMessage?: string;   // integer/number: pt-BR message outside min/max (x-rangeMessage)
  zeroDisables?: boolean;  // integer/number: 0 accepted below min (disables the feature)
  default?: unknown;
  readOnly: boolean;       // shown, never written by clients (e.g. estaLogado)
  /** a state field: changed only by these actions (labels; fields of an action's `set` or `sets`). Read-only for
   *  writes; a create/update that tries to change it is refused (409, server/crud/write.ts). */
  setBy?: string[];
  hidden: boolean;         // never sent to clients (e.g. senha hash)
  secretToken?: boolean;   // hidden: the server generates a token on create, stores its SHA-256, answers it once
  secretUrl?: string;      // secretToken: shown as origin + secretUrl + token (an address to copy)
  writeOnly: boolean;      // accepted on write, never read back (e.g. password)
  /** reference / referenceList: the referenced row's fields (keys) must equal this row's fields (values); the picker
   *  lists only such rows and the server refuses others (server/crud/write.ts checkReferences). */
  narrow?: Record<string, string>;
  /** A valid value (JSON schema `examples`), where a hook decides validity; the conformance suite writes it. */
  example?: unknown;
  /** referenceList: the multi-select item's second label (a field of the referenced register) and its colour */
  pick?: { secondLabel?: string; colorSecond?: string | Record<string, string> };
  /** string: a code of a register (e.g. equipamento.modelo → modelo.codigo); choices and validation come from its
   *  rows, narrowed by `parent` (this entity's field whose value the register's reference `via` must carry). */
  lookup?: LookupMeta;
  upload?: { path?: string; accept?: string[] }; // file: where the uploader sends it ({name}: route parameter) and the extensions taken
  system: boolean;         // id, empresaId, createdAt ... added by the generator
}

/** Display formats of list columns, for any entity or provider (runtime/src/crud/widgets/ColumnFormat.tsx):
 *  relativo 'há 2 min' (timestamp; full date as tooltip), online chip Online/Offline (timestamp within onlineMinutes,
 *  default 10), coordenada (6 decimals), link (an app path or URL; linkText the link's text), duracao (seconds as
 *  HH:MM:SS), km (a number with one decimal, pt-BR: 12,3), arquivo (a file a background job produces on demand; the
 *  value is the JSON text of ArquivoCell). */
export const COLUMN_FORMATS = ['relativo', 'online', 'coordenada', 'link', 'duracao', 'km', 'arquivo'] as const;
/** Value of a `format: arquivo` column: { url } the file is there (a download link, linkText or 'Baixar');
 *  { gerar, erro? } not produced yet (a button POSTs `gerar`, which starts the job; erro: the last try's failure);
 *  { gerando: true, tarefa } being produced (its progress comes with the `tarefa` push). The list reads its page again
 *  on the entity's list.refreshOn push. */
export interface ArquivoCell { url?: string; gerar?: string; erro?: string | null; gerando?: boolean; tarefa?: number | null }
export type ColumnFormat = (typeof COLUMN_FORMATS)[number];
export interface ColumnDisplay {
  format?: ColumnFormat; onlineMinutes?: number; linkText?: string;
  /** px: the column keeps this width (the table's fixed layout; the other columns share the rest), e.g. a plate
   *  that must read whole; longer values are still cut with a tooltip */
  width?: number;
  /** the value wraps onto up to 3 lines instead of being cut on one (a log's description or message) */
  wrap?: boolean;
}

export interface ColumnMeta extends ColumnDisplay {
  source: string;          // field name or a virtual column key from the catalogue
  label: string;
  sortable: boolean;
  default: boolean;        // shown when the user has no saved choice
  virtual?: boolean;       // catalogue column computed by the server, not a field
  sql?: string;            // virtual: scalar SQL expression, {this} = the row's table alias (server/read/computed.ts)
  from?: string;           // virtual: `reference.field` the sql was built from (a field of the record a reference points to)
}

export interface ActionMeta {
  name: string;            // e.g. desativa -> POST /api/{key}/{id}/desativa
  label: string;
  permission: string;      // full permission key, e.g. adm.sis.empresa.desativa
  set?: Record<string, unknown>; // declarative change applied to the row (exclusive with handler)
  handler?: string;        // server handler (server/crud/actions.ts registry) run on the row instead of set
  sets?: string[];         // handler: the state fields it changes (FieldMeta.setBy); its payload may write them
  payload?: Record<string, unknown>; // handler: JSON Schema of the request body (ajv-validated by the server)
  bulk: boolean;           // also POST /api/{key}/{name} { ids } on selected rows
  confirm?: string;        // text of the 'ATENÇÃO' dialog (runtime default 'Deseja continuar a requisição?')
  description?: string;    // one pt-BR sentence: what the action does (record toolbar, row menu); required on record pages
  visibleWhen?: Record<string, unknown>; // show the button only when the row matches
  guard?: ActionGuard;     // the dialog shows the row's live state; a typed confirmation above a speed
}

/** An action on a vehicle (metadata actions[].guard): the 'ATENÇÃO' dialog names the row and shows its latest state
 *  (rows of `provider` filtered by `by` = the row's id); when `typed` is set and a state's velocidade is above
 *  `speedAbove` km/h, the caller must type the row's `typed` field into the payload's `confirmacao` — the server
 *  refuses (409) otherwise (server/crud/guard.ts). */
export interface ActionGuard { provider: string; by: string; typed?: string; speedAbove?: number }

export interface ParentMeta {
  entity: string;          // parent entity key, e.g. garagem
  field: string;           // this entity's field holding the parent's value, e.g. idGaragem
  by: string;              // parent field named by the route parameter (id, serial)
  permission: string;      // parent's prefix: {permission}.visualizar is required too
  route: string;           // screen route, e.g. /tlm/fro/garagem/:id/ativos
  api: string;             // mount below /api, e.g. garagem/:parent/ativo
  tabKeys?: string[];      // keys of the parent's record tabs showing this list: the nested routes require them too
  refId?: boolean;         // by a unique field, but `field` references the parent: rows are filtered by the parent's id
}

export interface FormSection { title: string; fields: string[]; /** help side panel texts (runtime/src/layout/helpTexts.ts) */ help?: { screen: string; section: string } }

/** A route parameter ({name} of the route) bound to a field; values: its known values (Model.tecnologias). */
export interface RouteParamMeta { name: string; field: string; label: string; values?: 'tecnologias' | 'modelos' }

/** Cross-field rule: when the row matches `when`, the fields of `then` respect their limits (message otherwise). */
/** A comparison between two fields of a row (metadata compare): `field` op `other`; null on either side = no check. */
export type CompareOp = 'gt' | 'gte' | 'lt' | 'lte' | 'contains';
export interface CompareMeta { field: string; op: CompareOp; other: string; message: string }

export interface RuleMeta { when: Record<string, string | number | boolean>; then: Record<string, { min?: number; max?: number }>; message: string }

/** A device technology with its models and the catalogues of its libraries (metadata/_tecnologias.yaml). */
export interface TecnologiaMeta {
  id: string; label: string;
  modelos: { id: string; label: string }[];
  bibliotecas: { eventos?: string; parametros?: string };
  /** Open links (equipamento_ativo) a vehicle may hold of devices of this technology (default 1). */
  vinculosPorAtivo?: number;
}

/** One tab of a record page (metadata `record.tabs`): exactly one target. */
export interface TabMeta {
  name: string;            // last route segment: {record route}/{name}
  label: string;
  permission: string;      // catalogue key: the tab is hidden without it; the server requires it for the target
  kind: 'form' | 'list' | 'provider' | 'screen' | 'action' | 'delete' | 'route' | 'group';
  sections?: string[];     // form: only these section titles (absent: the whole form)
  entity?: string;         // list: the nested entity; group: the entity whose record tabs each entry opens
  screen?: string;         // screen: its key
  provider?: string;       // provider: its key (path params filled from the record's fields)
  actions?: string[];      // action: names of this entity's actions
  route?: string;          // route: target path, {field} replaced from the record
  each?: string;           // group: column of this entity listing the entries (comma-separated)
                           // group: `screen` (a tela) shows the entries instead of the plain buttons, given the tab's props
}

/** Record page (metadata `record`): {route}/:{by} and one route per tab. */
export interface RecordMeta {
  by: string;              // field named by the route parameter (id or a unique field)
  route: string;           // e.g. /tlm/fro/ativo/:id (record.path replaces the entity route)
  tabs: TabMeta[];
}

export interface PermissionMeta { key: string; label: string }

export interface EntityMeta {
  key: string;             // e.g. ativo; also the API path /api/ativo and react-admin resource name
  table: string;
  file: string;            // metadata file it came from (relative)
  area: string;            // adm, tlm, cfg ... (the folder)
  label: { singular: string; plural: string };
  route: string;           // screen route, e.g. /tlm/fro/ativo
  permission: string;      // prefix, e.g. tlm.fro.ativo
  scope: Scope;
  fields: FieldMeta[];     // system fields first (id, then empresaId/ambienteId), then declared, then createdAt/updatedAt
  columns: ColumnMeta[];
  search: string[];        // quick-search fields (q)
  dateRange?: string;      // field the list's date-range picker filters
  listSelect?: string;     // enum or reference field the list panel's select filters (metadata list.select)
  listRefreshOn?: string;  // server push on which the list reads its page again (metadata list.refreshOn)
  sort: { field: string; order: 'ASC' | 'DESC' };
  form: { sections: FormSection[] };
  actions: ActionMeta[];
  permissions: PermissionMeta[]; // every key of this entity: lista, visualizar, adicionar, editar, excluir, extras, actions
  menu?: { group: string; order: number; icon?: string };
  readOnlyResource: boolean;  // no create/edit/delete screens or routes (e.g. historico_de_login)
  credentials?: boolean;      // users, roles, grants, sessions, API keys: never written by an API-key call (server/core/pipeline.ts)
  importable?: boolean;       // offered by the import screens (modules/importacao/server/importacao.ts)
  listTabs?: { group: string; order: number; label: string }; // the list is one tab of a set of sibling registers
  owner?: string;             // scope empresa: reference to usuario; the caller sees only their own rows (notificacao)
  aliases?: AliasMeta[];  // more screen routes of a view (below the route, or absolute)
  listScreen?: string;        // the list is this screen's (a provider tab): no list/navigation route of the entity
  history: boolean;           // record changes (default true)
  hook?: string;              // server write hook (server/crud/hooks.ts) run in the create/update transaction
  recordRepresentation: string; // field used to show a row as a reference (default descricao/nome)
  /** how other registers' fields pick rows of this one: server search, grouped by a reference or flat */
  picker?: { groupBy: string; flat: string; secondLabel?: string };
  /** scope ambiente: path to the companies a row belongs to ('id', 'empresas', 'usuario.empresas'); a caller
   *  sees and changes the row only when all of them are among the caller's companies. */
  companies?: string;
  /** Route parameters (metadata params): route = base + '/:name'...; the API lives at /api/{api}. */
  params?: RouteParamMeta[];
  base?: string;           // params: the route before the first parameter (navigation index, menu entry)
  api?: string;            // params: mount below /api, e.g. modelo_de_configuracao/:tecnology/:model
  rules?: RuleMeta[];
  /** Cross-field comparisons (x-compare in the generated JSON Schema: server and form agree). */
  compare?: CompareMeta[];
  /** Nested list (metadata parent): also served under the parent's record. */
  parent?: ParentMeta;
  /** Named-call base (spec section 7, e.g. /adm/cad/pais): the entity's routes again below /api{calls}, answering the envelope. */
  calls?: string;
  /** Record page with tabs (metadata record). */
  record?: RecordMeta;
  /** Keys of this entity (full) that take effect only together with the platform key. */
  platform?: { key: string; gated: string[] };
}

/** A menu entry (route) or a section (children; `key` = its route prefix without slashes, e.g. tlm/fro). */
export interface MenuNode { label: string; key?: string; route?: string; permission?: string; icon?: string; children?: MenuNode[] }

/** A non-CRUD screen (metadata file with kind: tela): hand-written component, generated route/permissions/menu. */
export interface ScreenMeta {
  key: string;             // e.g. rastreamento_ao_vivo
  file: string;            // metadata file it came from (relative)
  area: string;            // adm, tlm, cfg ... (the folder)
  label: string;           // pt-BR title
  route: string;           // e.g. /tlm/ras/rastreamento_ao_vivo
  permission: string;      // route name = permission key that opens it, e.g. tlm.ras.rastreamento_ao_vivo
  self?: boolean;          // the user's own page (perfil): open to every signed-in user, no key in the catalogue
  /** Opened by a key another register declares (e.g. adm.cfg.equipamentos.reiniciar_simcard): no key of its own. */
  sharedKey?: boolean;
  /** Opens without a session (runtime/src/App.tsx, before react-admin): its data comes from a public API route declared
   *  as such in the route table (server/core/pipeline.ts publicRoute). Needs sharedKey (owns no key). */
  public?: boolean;
  permissions: PermissionMeta[]; // the key above first, then its extras ({permission}.{extra})
  subroutes?: string[];    // child paths below route, same component and permission (e.g. ':tecnology/:model/eventos')
  menu?: { group: string; order: number; icon?: string };
  component: string;       // under runtime/src/screens/ (provider/ProviderScreen.tsx) or, ./-relative, in its module folder
  help?: string;
  /** A provider's list (component provider/ProviderScreen.tsx): route params → provider params, tabs over one param. */
  list?: ScreenList;
}

/** A tab of a provider screen; entity: the register it lists (add/edit routes below the tab), entityId: its id column. */
export interface ScreenTabOption { value: string; label: string; path: string; entity?: string; entityId?: string }

export interface ScreenList {
  provider: string;
  params: Record<string, string>;   // route parameter (:name) → provider param
  tabs?: { param: string; options: ScreenTabOption[] };
}

/** A read-only resource whose rows come from code (metadata `kind: provider`), served by the core
 *  (server/crud/provider.ts) through the one pipeline; implementation registered in server/providers/. */
export interface ProviderColumn extends ColumnDisplay { name: string; label: string; type: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'json'; sortable: boolean; default: boolean; sortKey?: string; show?: string; tooltip?: string }
export interface ProviderFilter { name: string; label: string; type: 'search' | 'string' | 'integer' | 'boolean' | 'date' | 'datetime'; multiple: boolean }
export interface ProviderParam {
  name: string; label: string; type: 'string' | 'integer' | 'date'; enum?: string[]; values?: 'tecnologias' | 'modelos';
  /** The param names a row of a register (by id or `by`): not seen in the caller's company scope → 404 (server/crud/provider.ts). */
  row?: { entity: string; by?: string; notFound?: string };
}
export interface ProviderCall { path: string; op: 'one' | 'list'; query: string[]; notFound?: string }
export interface ProviderMeta {
  key: string;
  file: string;
  area: string;
  label: string;
  path?: string;           // ra-data-simple-rest list below /api, params as {name}
  one: boolean;            // also GET {path}/:id
  permission: string[];    // any of these keys opens it
  scope: 'empresa' | 'global';
  params: ProviderParam[];
  columns: ProviderColumn[];
  filters: ProviderFilter[];
  sort: { field: string; order: 'ASC' | 'DESC' };
  calls: ProviderCall[];
  help?: string;
  /** Rows SQL can say: the read engine serves the provider from this (server/read/provider.ts), no code. */
  sql?: ProviderSql;
}

/** The `sql:` block of a provider's YAML. Expressions use the source's alias; `{param:name}` is a route parameter. */
export interface ProviderSql {
  /** FROM clause: a table or a subquery with its alias, e.g. `(SELECT …) x`. */
  from: string;
  /** Alias whose company column is the row's company (scope empresa). */
  scope?: string;
  /** The alias `{scope:y}` in `from` compares y's company with (default `scope`): a subquery's own row. */
  this?: string;
  /** Column name → SQL expression (default: `{alias}."name"` with the alias of `scope`, else x); `id` is the row's id
   *  (ra needs one; default the column id). */
  columns?: Record<string, string>;
  /** Filter name → SQL condition with `{value}` (default: the column's expression equal to the value, or in the list). */
  filters?: Record<string, string>;
  /** Columns the search filter (type search) looks in, case-insensitively contained. */
  search?: string[];
  /** Columns (names) that make the order total, after the sort column. */
  tiebreak: string[];
  /** Every alias of `from` (plain tables): the unfiltered named-call list is kept serialised per company and only the
   *  rows whose version (xmin of each alias) changed are read again (server/read/snapshot.ts). */
  versions?: string[];
}

/** An index screen (metadata `kind: hub`, generator/hubs.ts): the entities and screens one route segment below. */
export interface HubMeta {
  key: string;
  file: string;
  area: string;
  label: string;           // pt-BR title
  route: string;           // e.g. /adm/sis/cadastro
  permission: string;      // route name = permission key that opens it
  permissions: PermissionMeta[];
  members: { key: string; label: string; route: string; permission: string }[]; // sorted by label
  menu?: { group: string; order: number; icon?: string };
  help?: string;
}

/** A second screen route of one view of an entity (metadata aliases). */
export interface AliasMeta {
  path: string;                               // as declared: relative to the route, or absolute ('/…')
  view: 'list' | 'create' | 'edit' | 'show';
  label?: string;                             // screen title (default the entity's)
  filter?: Record<string, unknown>;           // list: fixed filter
  defaults?: Record<string, string>;          // create: field → route parameter pre-filling it, or '$now' (date/datetime)
  back?: string;                              // create/edit: route the form returns to (:parameters from the alias route)
  menu?: { group: string; order: number; icon?: string }; // list: a menu entry of its own (absolute path)
}

export interface RouteEntry {
  path: string;            // e.g. /tlm/fro/ativo/:id/editar
  name: string;            // route name = permission key, e.g. tlm.fro.ativo.editar
  entity?: string;         // CRUD routes: the entity key
  screen?: string;         // screen routes: the screen key (view 'screen')
  hub?: string;            // hub routes: the hub key (view 'hub')
  view: 'list' | 'create' | 'edit' | 'show' | 'screen' | 'hub' | 'params' | 'record';
  level?: number;          // view 'params': how many route parameters are already chosen (navigation screen)
  parent?: string;         // nested list: the parent entity key (route parameter = parent.by)
  tab?: string;            // record: the tab shown (absent: the first one the user may see)
  sub?: string;            // record, group tab: the tab of the group entity's record shown for one entry
  alias?: number;          // alias routes: index in entity.aliases (title, fixed filter, defaults); view 'params': the alias list's levels
}

/** Report families (metadata kind: relatorio; shared/relatorio.ts has the catalogues). */
export type ReportParamName = 'periodo' | 'ativos' | 'motoristas' | 'garagens' | 'grupos' | 'passageiros' | 'itinerarios' | 'formularios' | 'agrupamento'
  | 'janelaMediana' | 'volumeMinimo' | 'intervaloUniao' | 'somenteParado';
/** Value types of report columns: date 'YYYY-MM-DD', time 'HH:MM:SS', duration in seconds. */
export type ReportColumnType = 'string' | 'integer' | 'number' | 'date' | 'time' | 'datetime' | 'duration';
export interface ReportColumnMeta {
  name: string; label: string; type: ReportColumnType;
  unit?: 'km' | 'km/h' | 'h' | '%' | 'L' | 'km/L' | 'L/h' | 'kg'; decimals?: number;
  sortable: boolean; default: boolean;
}

export interface ReportParamMeta {
  name: ReportParamName; label: string; type: 'periodo' | 'registros' | 'agrupamento' | 'numero' | 'booleano'; required: boolean;
  reference?: string;           // registros: the register picked
  shortcuts?: string[];         // periodo: the date picker's shortcuts offered
  maxDias?: number;             // periodo: longest period
  options?: { value: string; label: string }[]; // agrupamento
  default?: string | number | boolean;            // agrupamento, numero, booleano
  minimum?: number; maximum?: number;             // numero
}

export interface ReportKindMeta {
  key: string; label: string; help?: string;
  params: ReportParamMeta[];
  columns: ReportColumnMeta[];
  sort: { field: string; order: 'ASC' | 'DESC' };
  /** The rows: read by the read engine (server/read/provider.ts) with the company condition of `sql.scope`;
   *  `plataforma`: registers without company (scope global, e.g. the event library) read without one. */
  sql: ProviderSql & { plataforma?: string[] };
  /** JSON Schema (draft-07) of the parameters: the screen's form and the server's validation. */
  schema: Record<string, unknown>;
}

export interface ReportFamilyMeta {
  key: string; file: string; area: string; label: string; order: number; help?: string;
  /** The family's key (core.md /rel tree: rel.rel.relatorios.{key}); its route is /rel/rel/relatorios/{key}. */
  permission: string;
  route: string;
  tipos: ReportKindMeta[];
}

/** A value of the model as the browser's copy holds it (runtime/src/generated/model.json): the server's SQL — computed
 *  columns, providers, report families — left out (generator/emit runtimeModelJson). */
export type WithoutSql<T> = T extends (infer U)[] ? WithoutSql<U>[]
  : T extends object ? { [K in keyof T as K extends 'sql' ? never : K]: WithoutSql<T[K]> } : T;
export type BrowserModel = WithoutSql<Model>;

export interface Model {
  entities: EntityMeta[];
  screens: ScreenMeta[];   // non-CRUD screens, sorted by key
  providers: ProviderMeta[]; // resources whose rows come from code, sorted by key
  hubs?: HubMeta[];        // index screens (kind: hub), sorted by key
  permissions: PermissionMeta[]; // the whole catalogue, sorted by key
  menu: MenuNode[];
  routes: RouteEntry[];
  tecnologias?: TecnologiaMeta[]; // device technologies and models (metadata/_tecnologias.yaml)
  /** Report families (metadata kind: relatorio, shared/relatorio.ts), sorted by key. */
  relatorios?: ReportFamilyMeta[];
  /** Platform keys (metadata `platform`): each with the entity keys it gates. */
  platform?: { key: string; label: string; gated: string[] }[];
}

/** PostgreSQL types a telemetry column may have (metadata `kind: telemetria`). */
export const TELEMETRY_COLUMN_TYPES = ['text', 'integer', 'bigint', 'smallint', 'real', 'double precision', 'boolean', 'timestamptz', 'jsonb'] as const;
export type TelemetryColumnType = (typeof TELEMETRY_COLUMN_TYPES)[number];
export interface TelemetryColumnMeta {
  name: string; type: TelemetryColumnType; notNull: boolean;
  /** SQL default expression, as written in the metadata (now(), false, ''). */
  default?: string;
  identity?: 'always';
}
/** A table of the schema telemetria (metadata/telemetria/*.yaml), written by the gateway, read by providers. */
export interface TelemetryTableMeta {
  key: string; file: string; label: string;
  schema: 'telemetria';
  /** Qualified name: telemetria.<key>. */
  table: string;
  columns: TelemetryColumnMeta[];
  primaryKey: string[];
  /** Monthly range partitions on a timestamptz column; partitions created from monthsBehind before now to monthsAhead after. */
  partition?: { column: string; interval: 'month'; monthsBehind: number; monthsAhead: number };
  /** include: covering columns (INCLUDE), stored in the index but not part of its key. */
  indexes: { name: string; columns: string[]; include?: string[] }[];
  /** empresa: row-level security by the company column empresa_id (rastro_app sees its company, rastro_ingest all). */
  scope?: 'empresa';
  /** What the API's role (rastro_app) may do: select, or nothing. The gateway's role (rastro_ingest) writes every table. */
  app: 'select' | 'none';
  fillfactor?: number;
}
