// List settings of an entity: columns (declared or default), computed columns (sql with {this}), the record
// representation, the quick search, the date range and the default sort.
import { expandScope, snippetProblems } from '../../../shared/scope-sql.ts';
import type { ColumnDisplay, ColumnMeta, FieldMeta, FieldType } from '../../../shared/model.ts';
import type { Err } from '../types.ts';
import type { Known, RawColumn, RawEntity } from './raw.ts';

const UNSORTABLE: FieldType[] = ['json', 'geometry', 'referenceList', 'password', 'file', 'image', 'text'];

export interface EntityList { columns: ColumnMeta[]; recordRepresentation: string; search: string[]; sort: { field: string; order: 'ASC' | 'DESC' } }

export function entityList(raw: RawEntity, declared: FieldMeta[], byName: Map<string, FieldMeta>, known: Known, err: Err): EntityList {
  // List columns (default: every visible scalar field).
  const columns: ColumnMeta[] = [];
  const rawColumns: RawColumn[] = raw.list?.columns ?? declared
    .filter((f) => !f.hidden && !f.writeOnly && !['json', 'geometry', 'password'].includes(f.type))
    .map((f, i) => ({ source: f.name, default: i < 6 }));
  rawColumns.forEach((c, i) => {
    const shown = displayOf(c, `/list/columns/${i}`, err);
    if (c.virtual) {
      if (byName.has(c.source)) err(`/list/columns/${i}/source`, `coluna virtual com o nome de um campo: ${c.source}`);
      if (c.sql !== undefined && !c.sql.includes('{this}')) err(`/list/columns/${i}/sql`, 'a expressão deve usar {this} (a linha da entidade)');
      for (const m of c.sql ? snippetProblems(c.sql, raw.scope) : []) err(`/list/columns/${i}/sql`, m);
      // the read engine names the row `t` ({this}): a table aliased t inside the snippet would shadow it silently
      if (c.sql && /\b(?:FROM|JOIN)\s+[A-Za-z_][\w.]*\s+(?:AS\s+)?t\b/i.test(c.sql)) err(`/list/columns/${i}/sql`, 'o apelido t é o da linha ({this}): use outro apelido');
      if (c.sortable && (c.sql || c.from)) err(`/list/columns/${i}/sortable`, 'coluna calculada ainda não pode ser ordenada');
      if (c.from) {
        // reference.field: the sql is written once the referenced entity is known (link.ts, fromColumns)
        if (c.sql) err(`/list/columns/${i}/from`, 'from ou sql, não os dois');
        const ref = byName.get(c.from.split('.')[0]);
        if (!ref || ref.type !== 'reference') err(`/list/columns/${i}/from`, `${c.from.split('.')[0]} não é um campo reference desta entidade`);
      }
      columns.push({ source: c.source, label: c.label!, sortable: false, default: c.default ?? false, virtual: true,
        ...(c.sql ? { sql: expandScope(c.sql, raw.scope) } : {}), ...(c.from ? { from: c.from } : {}), ...shown });
      return;
    }
    const f = known(c.source, `/list/columns/${i}/source`);
    if (f && (f.hidden || f.writeOnly)) err(`/list/columns/${i}/source`, `campo oculto não pode ser coluna: ${c.source}`);
    columns.push({ source: c.source, label: c.label ?? f?.label ?? c.source,
      sortable: c.sortable ?? (f ? !UNSORTABLE.includes(f.type) : false), default: c.default ?? false, ...shown });
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
  return { columns, recordRepresentation, search, sort };
}

/** A column's display format (ColumnDisplay) as the model keeps it; its options only with their format. */
export function displayOf(c: ColumnDisplay, path: string, err: Err): ColumnDisplay {
  if (c.onlineMinutes !== undefined && c.format !== 'online') err(`${path}/onlineMinutes`, 'onlineMinutes vale só para format: online');
  if (c.linkText !== undefined && c.format !== 'link' && c.format !== 'arquivo') err(`${path}/linkText`, 'linkText vale só para format: link ou arquivo');
  return {
    ...(c.format ? { format: c.format } : {}),
    ...(c.format === 'online' ? { onlineMinutes: c.onlineMinutes ?? 10 } : {}),
    ...(c.linkText !== undefined ? { linkText: c.linkText } : {}),
    ...(c.width !== undefined ? { width: c.width } : {}),
    ...(c.wrap ? { wrap: true } : {}),
  };
}
