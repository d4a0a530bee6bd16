// Report families (`kind: relatorio`, metadata/_schema/relatorio.schema.json): one file per family of catalogues.md
// 3.9 (viagem, consumo …) with its kinds (detalhado, resumido por ativo …). Each kind declares its parameters (the
// catalogue in shared/relatorio.ts), its allowed and default columns (the catalogue's keys, pt-BR labels, units) and
// the SQL of its rows (a declared provider's sql: the read engine adds the company condition of sql.scope). The
// family's key is rel.rel.relatorios.{key} and its route /rel/rel/relatorios/{key} (the reports screen).
import { basename } from 'node:path';
import type { ProviderSql, RouteEntry } from '../../shared/model.ts';
import {
  GROUPINGS, IMPLICIT_PARAMS, PERIOD_SHORTCUTS, REPORT_COLUMN_KEYS, REPORT_PARAMS, REPORTS_KEY, REPORTS_ROUTE,
  type ReportColumnMeta, type ReportFamilyMeta, type ReportKindMeta, type ReportParamMeta, type ReportParamName,
} from '../../shared/relatorio.ts';
import { snippetProblems, tablesRead } from '../../shared/scope-sql.ts';
import { problem } from '../errors.ts';
import { buildTelemetry, checkTelemetryRefs } from '../telemetry.ts';
import type { Err, KindModule } from './types.ts';

/** The screen every family's route opens (modules/relatorios/metadata/rel/relatorios.yaml). */
export const REPORTS_SCREEN = 'relatorios';
const DEFAULT_MAX_DIAS = 186;

type RawParam = ReportParamName | { name: ReportParamName; label?: string; required?: boolean; shortcuts?: string[]; maxDias?: number; options?: string[]; default?: string };
interface RawColumn { name: string; label: string; type?: ReportColumnMeta['type']; unit?: ReportColumnMeta['unit']; decimals?: number; sortable?: boolean; default?: boolean }
interface RawTipo { key: string; label: string; help?: string; params: RawParam[]; columns: RawColumn[]; sort?: { field: string; order?: 'ASC' | 'DESC' }; sql: ProviderSql & { scope: string; columns: Record<string, string>; plataforma?: string[] } }
export interface RawRelatorio { kind: 'relatorio'; key: string; label: string; permission: string; order?: number; help?: string; tipos: RawTipo[] }

const PARAM_REF = /\{param:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const IN_REF = /\{in:([A-Za-z_][A-Za-z0-9_]*):([A-Za-z_][A-Za-z0-9_]*\.[a-z_][a-z0-9_]*)\}/g;

/** `{in:name:alias.column}` → no choice (NULL) or the column among the chosen ids. */
export const expandIn = (sql: string) => sql.replace(IN_REF, (_, n: string, col: string) => `({param:${n}}::int[] IS NULL OR ${col} = ANY({param:${n}}::int[]))`);

function normalizeParam(raw: RawParam, at: string, err: Err): ReportParamMeta {
  const o = typeof raw === 'string' ? { name: raw } : raw;
  const cat = REPORT_PARAMS[o.name];
  const p: ReportParamMeta = { name: o.name, label: o.label ?? cat.label, type: cat.type, required: o.name === 'periodo' || !!o.required };
  if ('reference' in cat) p.reference = cat.reference;
  const only = (prop: 'shortcuts' | 'maxDias' | 'options' | 'default', type: string) => {
    if ((o as Record<string, unknown>)[prop] !== undefined && cat.type !== type) err(`${at}/${prop}`, `vale só para o parâmetro ${type === 'periodo' ? 'periodo' : 'agrupamento'}`);
  };
  only('shortcuts', 'periodo'); only('maxDias', 'periodo'); only('options', 'agrupamento'); only('default', 'agrupamento');
  if (cat.type === 'periodo') {
    const shortcuts = o.shortcuts ?? [...PERIOD_SHORTCUTS];
    shortcuts.forEach((s, i) => { if (!(PERIOD_SHORTCUTS as readonly string[]).includes(s)) err(`${at}/shortcuts/${i}`, `atalho desconhecido do seletor de datas: ${s} (use ${PERIOD_SHORTCUTS.join(', ')})`); });
    p.shortcuts = shortcuts;
    p.maxDias = o.maxDias ?? DEFAULT_MAX_DIAS;
  }
  if (cat.type === 'agrupamento') {
    const values = o.options ?? GROUPINGS.map((g) => g.value);
    p.options = GROUPINGS.filter((g) => values.includes(g.value)).map((g) => ({ value: g.value, label: g.label }));
    p.default = o.default ?? values[0];
    if (!values.includes(p.default as string)) err(`${at}/default`, `deve ser um de: ${values.join(', ')}`);
  }
  if (cat.type === 'numero' || cat.type === 'booleano') {
    p.default = cat.default;
    if (cat.minimum !== undefined) p.minimum = cat.minimum;
    if (cat.maximum !== undefined) p.maximum = cat.maximum;
  }
  return p;
}

function normalizeColumn(c: RawColumn, at: string, err: Err): ReportColumnMeta {
  if (!REPORT_COLUMN_KEYS.includes(c.name)) err(`${at}/name`, `coluna fora do catálogo de relatórios (catalogues.md 3.9): ${c.name}`);
  const type = c.type ?? 'string';
  if (c.decimals !== undefined && type !== 'number') err(`${at}/decimals`, 'decimals vale só para colunas number');
  if (c.unit && !['integer', 'number'].includes(type)) err(`${at}/unit`, 'unit vale só para colunas integer e number');
  return {
    name: c.name, label: c.label, type, ...(c.unit ? { unit: c.unit } : {}), ...(type === 'number' ? { decimals: c.decimals ?? 2 } : {}),
    sortable: c.sortable ?? true, default: c.default ?? false,
  };
}

/** JSON Schema of a kind's parameters: the screen's form and the server's validation (one schema). */
export function paramsSchema(params: ReportParamMeta[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const p of params) {
    if (p.type === 'periodo') {
      properties[p.name] = {
        type: 'object', title: p.label, additionalProperties: false, required: ['inicio', 'fim'],
        properties: { inicio: { type: 'string', format: 'date-time', title: 'Início' }, fim: { type: 'string', format: 'date-time', title: 'Fim' } },
      };
    } else if (p.type === 'registros') {
      properties[p.name] = { type: 'array', title: p.label, uniqueItems: true, maxItems: 5000, items: { type: 'integer', minimum: 1 }, ...(p.required ? { minItems: 1 } : {}) };
    } else if (p.type === 'numero') {
      properties[p.name] = { type: 'number', title: p.label, default: p.default, ...(p.minimum !== undefined ? { minimum: p.minimum } : {}), ...(p.maximum !== undefined ? { maximum: p.maximum } : {}) };
    } else if (p.type === 'booleano') {
      properties[p.name] = { type: 'boolean', title: p.label, default: p.default };
    } else {
      properties[p.name] = { type: 'string', title: p.label, enum: p.options!.map((o) => o.value), default: p.default };
    }
  }
  return { type: 'object', additionalProperties: false, required: params.filter((p) => p.required).map((p) => p.name), properties };
}

function normalizeTipo(t: RawTipo, at: string, err: Err): ReportKindMeta {
  const params = t.params.map((p, i) => normalizeParam(p, `${at}/params/${i}`, err));
  params.forEach((p, i) => { if (params.findIndex((x) => x.name === p.name) !== i) err(`${at}/params/${i}`, `parâmetro repetido: ${p.name}`); });
  if (!params.some((p) => p.name === 'periodo')) err(`${at}/params`, 'todo relatório declara o parâmetro periodo');
  const columns = t.columns.map((c, i) => normalizeColumn(c, `${at}/columns/${i}`, err));
  columns.forEach((c, i) => { if (columns.findIndex((x) => x.name === c.name) !== i) err(`${at}/columns/${i}/name`, `coluna repetida: ${c.name}`); });
  if (!columns.some((c) => c.default)) err(`${at}/columns`, 'ao menos uma coluna com default: true (a escolha de colunas nunca fica vazia)');
  const sortField = t.sort?.field ?? columns.find((c) => c.default)?.name ?? columns[0].name;
  if (!columns.some((c) => c.sortable && c.name === sortField)) err(`${at}/sort/field`, `deve ser uma coluna ordenável: ${sortField}`);
  // SQL: every column has its expression; every parameter is used and nothing else is bound
  const known = (n: string) => n === 'id' || columns.some((c) => c.name === n);
  columns.forEach((c, i) => { if (!t.sql.columns[c.name]) err(`${at}/columns/${i}/name`, `coluna sem expressão em sql.columns: ${c.name}`); });
  Object.keys(t.sql.columns).forEach((n) => { if (!known(n)) err(`${at}/sql/columns/${n}`, `coluna não declarada em columns: ${n}`); });
  t.sql.tiebreak.forEach((n, i) => { if (!known(n)) err(`${at}/sql/tiebreak/${i}`, `coluna não declarada em columns: ${n}`); });
  const from = expandIn(t.sql.from);
  const texts = [from, ...Object.values(t.sql.columns)];
  const bound = new Set(texts.flatMap((s) => [...s.matchAll(PARAM_REF)].map((m) => m[1])));
  const allowed = new Set<string>([...IMPLICIT_PARAMS, ...params.flatMap((p) => (p.type === 'periodo' ? ['inicio', 'fim'] : [p.name]))]);
  for (const n of bound) if (!allowed.has(n)) err(`${at}/sql`, `{param:${n}} não é um parâmetro do tipo (declare em params; periodo dá inicio e fim)`);
  for (const n of allowed) if (!(IMPLICIT_PARAMS as readonly string[]).includes(n) && !bound.has(n)) err(`${at}/sql/from`, `parâmetro declarado e não usado na SQL: ${n}`);
  // company conditions: {scope:x} for every table read (the scope alias gets the engine's), never empresa_id by hand;
  // the platform registers listed in sql.plataforma (no company: the event library…) are read without one (link checks
  // that they are global registers)
  const plataforma = t.sql.plataforma ?? [];
  const exempt = (m: string) => plataforma.some((g) => m.startsWith(`a tabela ${g} `));
  for (const [path, text] of [['from', from], ...Object.entries(t.sql.columns).map(([n, v]) => [`columns/${n}`, v])] as [string, string][]) {
    snippetProblems(text, 'empresa').filter((m) => !exempt(m)).forEach((m) => err(`${at}/sql/${path}`, m));
  }
  plataforma.forEach((g, i) => {
    if (!tablesRead([from, ...Object.values(t.sql.columns)].join('\n')).some((x) => x.table === g)) err(`${at}/sql/plataforma/${i}`, `tabela não lida na SQL: ${g}`);
  });
  const sql: ReportKindMeta['sql'] = { from, scope: t.sql.scope, ...(plataforma.length ? { plataforma } : {}), ...(t.sql.this ? { this: t.sql.this } : {}), columns: t.sql.columns, tiebreak: t.sql.tiebreak };
  return {
    key: t.key, label: t.label, ...(t.help ? { help: t.help } : {}), params, columns,
    sort: { field: sortField, order: t.sort?.order ?? 'ASC' }, sql, schema: paramsSchema(params),
  };
}

export function normalizeRelatorio(raw: RawRelatorio, file: string, area: string, err: Err): ReportFamilyMeta {
  const expectedKey = basename(file).replace(/\.ya?ml$/, '');
  if (raw.key !== expectedKey) err('/key', `deve ser igual ao nome do arquivo (${expectedKey})`);
  if (area !== 'rel') err('', 'um relatório fica na pasta de área rel/');
  const permission = `${REPORTS_KEY}.${raw.key}`;
  if (raw.permission !== permission) err('/permission', `deve ser ${permission} (árvore /rel de core.md)`);
  const tipos = raw.tipos.map((t, i) => normalizeTipo(t, `/tipos/${i}`, err));
  tipos.forEach((t, i) => { if (tipos.findIndex((x) => x.key === t.key) !== i) err(`/tipos/${i}/key`, `tipo repetido: ${t.key}`); });
  return {
    key: raw.key, file, area, label: raw.label, order: raw.order ?? 100, ...(raw.help ? { help: raw.help } : {}),
    permission, route: `${REPORTS_ROUTE}/${raw.key}`, tipos,
  };
}

export const relatorioKind: KindModule<ReportFamilyMeta, RawRelatorio> = {
  kind: 'relatorio',
  schema: 'relatorio.schema.json',
  modelKey: 'relatorios',
  normalize: (raw, src, err) => normalizeRelatorio(raw, src.file, src.area, err),
  link(items, ctx) {
    if (items.length && !ctx.model.screens.some((s) => s.key === REPORTS_SCREEN && s.route === REPORTS_ROUTE)) {
      ctx.problems.push(problem(items[0].file, '', `a tela ${REPORTS_SCREEN} (rota ${REPORTS_ROUTE}) não existe`));
    }
    const tables = buildTelemetry(ctx.meta.kinds?.telemetria ?? []).tables;
    for (const f of items) {
      ctx.claim(`route:${f.route}`, f.file, '/key', 'route', f.route);
      f.tipos.forEach((t, i) => {
        for (const p of t.params) {
          if (p.reference && !ctx.model.entities.some((e) => e.key === p.reference)) ctx.problems.push(problem(f.file, `/tipos/${i}/params`, `entidade desconhecida: ${p.reference}`));
        }
        // platform registers read without a company condition: only registers without company (scope global)
        (t.sql.plataforma ?? []).forEach((g, j) => {
          const e = ctx.model.entities.find((x) => x.table === g);
          if (!e || e.scope !== 'global') ctx.problems.push(problem(f.file, `/tipos/${i}/sql/plataforma/${j}`, `${g} não é um cadastro da plataforma (sem empresa): leia-o com {scope:apelido}`));
        });
        // telemetry tables: only the columns metadata/telemetria describes
        const refs = checkTelemetryRefs([{ file: f.file, area: f.area, data: { sql: t.sql } }], tables);
        ctx.problems.push(...refs.map((m) => m.replace(`${f.file}: /sql`, `${f.file}: /tipos/${i}/sql`)));
      });
    }
  },
  permissions: (items) => items.map((f) => ({ key: f.permission, label: `Relatórios: ${f.label}` })),
  routes: (items): RouteEntry[] => items.map((f) => ({ path: f.route, name: f.permission, screen: REPORTS_SCREEN, view: 'screen' })),
};
