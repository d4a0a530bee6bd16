// The telemetry migration writer: the schema, roles and partition function (PREAMBLE_SQL) go into the migration that
// creates the first telemetry table only; a later one adds its table without repeating them.
import { describe, expect, it } from 'vitest';
import { diffTelemetry, PREAMBLE_SQL, type TableState } from './telemetry-schema.ts';

const table = (key: string): TableState => ({
  key, columns: [{ name: 'empresa_id', type: 'integer', notNull: true }, { name: 'serial', type: 'varchar(40)', notNull: true }],
  primaryKey: ['empresa_id', 'serial'], indexes: [], app: 'select', scope: true,
} as unknown as TableState);

describe('diffTelemetry', () => {
  it('writes the preamble with the first table only', () => {
    const first = diffTelemetry([], [table('a')]);
    expect(first.sql.slice(0, PREAMBLE_SQL.length)).toEqual(PREAMBLE_SQL);
    expect(first.changes).toEqual(['tabela nova: telemetria.a']);
    const next = diffTelemetry([table('a')], [table('a'), table('b')]);
    expect(next.changes).toEqual(['tabela nova: telemetria.b']);
    expect(next.sql.filter((s) => PREAMBLE_SQL.includes(s))).toEqual([]);
    expect(next.sql[0]).toMatch(/^CREATE TABLE IF NOT EXISTS telemetria\.b \(/);
  });

  it('an index whose covering columns change is dropped and built again with them', () => {
    const plain = { ...table('a'), indexes: [{ name: 'a_serial', columns: ['serial'] }] };
    const covering = { ...table('a'), indexes: [{ name: 'a_serial', columns: ['serial'], include: ['empresa_id'] }] };
    const d = diffTelemetry([plain], [covering]);
    expect(d.changes).toEqual(['índice alterado: a_serial']);
    expect(d.sql).toEqual(['DROP INDEX IF EXISTS telemetria.a_serial', 'CREATE INDEX IF NOT EXISTS a_serial ON telemetria.a (serial) INCLUDE (empresa_id)']);
    expect(diffTelemetry([covering], [covering]).changes).toEqual([]);
    expect(diffTelemetry([covering], [plain]).sql).toEqual(['DROP INDEX IF EXISTS telemetria.a_serial', 'CREATE INDEX IF NOT EXISTS a_serial ON telemetria.a (serial)']);
  });
});
