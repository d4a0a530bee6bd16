// The provider kind (`kind: provider`, metadata/_schema/provider.schema.json): a read-only resource whose rows
// come from code (server/crud/provider.ts) or from its declared `sql` (server/read/provider.ts), with its list path, params, columns, filters, sort and named calls.
import { basename } from 'node:path';
import type { ProviderColumn, ProviderFilter, ProviderMeta, ProviderParam, ProviderSql } from '../../shared/model.ts';
import { displayOf } from './entity/columns.ts';
import { problem } from '../errors.ts';
import { fromTables } from '../../shared/sql-from.ts';
import type { Err, KindModule } from './types.ts';

export interface RawProvider {
  kind: 'provider'; key: string; label: string; path?: string; one?: boolean; permission: string[]; scope: 'empresa' | 'global';
  params?: (Partial<ProviderParam> & { name: string; label: string })[];
  columns: (Partial<ProviderColumn> & { name: string; label: string })[];
  filters?: (Partial<ProviderFilter> & { name: string; type: ProviderFilter['type'] })[];
  sort?: { field: string; order?: 'ASC' | 'DESC' };
  calls?: { path: string; op: 'one' | 'list'; query?: string[]; notFound?: string }[];
  help?: string;
  sql?: ProviderSql;
}

export const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

export function normalizeProvider(raw: RawProvider, file: string, area: string, err: Err): ProviderMeta {
  const expectedKey = basename(file).replace(/\.ya?ml$/, '');
  if (raw.key !== expectedKey) err('/key', `deve ser igual ao nome do arquivo (${expectedKey})`);
  if (!area) err('', 'o arquivo deve estar numa pasta de área (adm/, tlm/, cfg/ ...)');
  const columns: ProviderColumn[] = raw.columns.map((c, i) => ({
    name: c.name, label: c.label, type: c.type ?? 'string', sortable: c.sortable ?? false, default: c.default ?? true,
    ...(c.sortKey ? { sortKey: c.sortKey } : {}), ...(c.show ? { show: c.show } : {}), ...(c.tooltip ? { tooltip: c.tooltip } : {}),
    ...displayOf(c, `/columns/${i}`, err),
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
    return { name: p.name, label: p.label, type: p.type ?? 'string', ...(p.enum ? { enum: p.enum } : {}), ...(p.values ? { values: p.values } : {}), ...(p.row ? { row: p.row } : {}) };
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
  if (raw.sql) {
    const known = (n: string) => n === 'id' || columns.some((c) => c.name === n);
    Object.keys(raw.sql.columns ?? {}).forEach((n) => { if (!known(n)) err('/sql/columns', `coluna não declarada em columns: ${n}`); });
    [...(raw.sql.search ?? []), ...(raw.sql.tiebreak ?? [])].forEach((n) => { if (!known(n)) err('/sql', `coluna não declarada em columns: ${n}`); });
    Object.keys(raw.sql.filters ?? {}).forEach((n) => { if (!filters.some((f) => f.name === n)) err('/sql/filters', `filtro não declarado em filters: ${n}`); });
    if (raw.scope === 'empresa' && !raw.sql.scope) err('/sql/scope', 'um provider de escopo empresa declara em sql.scope o alias das linhas da empresa');
    if (raw.sql.versions) checkVersions(raw.sql, calls, err);
    provider.sql = raw.sql;
  }
  return provider;
}

// A kept list is right only if a row's text changes only when one of its tables' rows does: every table of FROM has
// its version read, and no value comes from elsewhere (a subquery, the clock, a request parameter).
function checkVersions(sql: ProviderSql, calls: { op: string }[], err: Err): void {
  const versions = sql.versions!;
  if (!calls.some((c) => c.op === 'list')) err('/sql/versions', 'versions serve a chamada nomeada de op list: declare uma em calls');
  if (/\(\s*select\b/i.test(sql.from)) err('/sql/versions', 'versions exige um from de tabelas (sem subconsulta)');
  const aliases = fromTables(sql.from).map((t) => t.alias);
  const missing = aliases.filter((a) => !versions.includes(a));
  if (missing.length) err('/sql/versions', `alias de from sem versão: ${missing.join(', ')}`);
  const unknown = versions.filter((a) => !aliases.includes(a));
  if (unknown.length) err('/sql/versions', `alias que não está em from: ${unknown.join(', ')}`);
  // the rows are the first table's (joined to the others): its alias is the company's and the id reads only it
  const base = aliases[0];
  if (versions[0] !== base || sql.scope !== base) err('/sql/versions', `a primeira versão é a da primeira tabela de from, o alias de sql.scope: ${base}`);
  const id = sql.columns?.id ?? `${sql.scope}."id"`;
  if (!new RegExp(`^\\s*${base}\\.("?)[a-z_][a-z0-9_]*\\1\\s*$`).test(id)) err('/sql/columns/id', `com versions, o id é uma coluna de ${base}`);
  for (const [name, expr] of Object.entries(sql.columns ?? {})) {
    if (/\bselect\b|\bnow\s*\(|\bcurrent_(date|time|timestamp)\b|\blocaltime|\bclock_timestamp|\{param:/i.test(expr)) {
      err(`/sql/columns/${name}`, 'com versions, uma coluna só lê as tabelas de from (sem subconsulta, relógio nem parâmetro)');
    }
  }
}

/** Providers: keys and API paths of their own (apiPaths: entity keys and named-call bases); keys from the catalogue. */
export function linkProviders(providers: ProviderMeta[], catalogue: Set<string>, apiPaths: Map<string, string>, problems: string[]): void {
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
}

export const providerKind: KindModule<ProviderMeta, RawProvider> = {
  kind: 'provider',
  schema: 'provider.schema.json',
  modelKey: 'providers',
  normalize: (raw, src, err) => normalizeProvider(raw, src.file, src.area, err),
};
