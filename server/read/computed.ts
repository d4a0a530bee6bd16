// Computed (virtual) columns declared with `sql` in metadata (e.g. the asset list's motorista and equipamentosList):
// inlined by the read engine as scalar subselects of the same statement, `{this}` = the row's alias. Expressions
// state their company with {scope:alias} (shared/scope-sql.ts). Every table they read exists: registers and the
// telemetry tables (metadata/telemetria) all come from the committed migrations.
import type { ColumnMeta, EntityMeta, FieldMeta } from '../../shared/model.ts';

export type Computed = ColumnMeta & { sql: string };

export const computedColumns = (e: EntityMeta): Computed[] =>
  e.columns.filter((c): c is Computed => !!c.virtual && !!c.sql);

/** A computed column as an export column (text). */
export const computedField = (c: ColumnMeta): FieldMeta => ({
  name: c.source, column: c.source, type: 'string', label: c.label, required: false, unique: false, upperCase: false,
  readOnly: true, hidden: false, writeOnly: false, system: false,
});
