// The writer's transaction against a real PostgreSQL: latest-state upsert (typed arrays), attributes merge,
// company change, the literals of the one simple query that ends each batch, and no concurrent-query warning.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { migrateTelemetria } from './migrate.ts';
import { newMetrics } from './metrics.ts';
import { createDatabase, defaultDatabaseUrl, registerDevice } from './testing/db.ts';
import type { IngestMessage } from './types.ts';
import { arrayLiteral, BatchWriter, dollarQuote } from './writer.ts';

let db: { url: string; drop: () => Promise<void> };
let pool: pg.Pool;
const t0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 86_400_000;
const iso = (s: number) => new Date(t0 + s * 1000).toISOString();
const link = { id: 't', protocol: 'queclink', stream: true, alive: true, send: () => true };

function msg(serial: string, s: number | null, attributes: IngestMessage['result']['attributes'], extra: Partial<IngestMessage['result']> = {}): IngestMessage {
  return { link, raw: 'raw', receivedAt: new Date(t0 + 3_600_000 + (s ?? 0) * 1000), result: {
    protocol: 'queclink', deviceId: serial, type: 'FRI', attributes, events: [],
    positions: s === null ? [] : [{ fixTime: iso(s), latitude: -23 - s / 1000, longitude: -46, speedKmh: s, course: 1, valid: true }], ...extra } };
}

async function write(msgs: IngestMessage[]): Promise<void> {
  const w = new BatchWriter(pool, newMetrics(), { lingerMs: 1, maxBatch: 1000, pending: { maintenanceMs: 0 } });
  for (const m of msgs) w.enqueue(m);
  await w.drain();
  await w.stop();
}
const state = async (serial: string) => (await pool.query(`SELECT * FROM telemetria.ultimo_estado WHERE serial = $1`, [serial])).rows[0];

beforeAll(async () => {
  db = await createDatabase(inject('databaseUrl') ?? defaultDatabaseUrl(), `ingest_writer_${process.pid}`);
  pool = new pg.Pool({ connectionString: db.url, max: 3 });
  await migrateTelemetria(pool);
  await registerDevice(pool, '864000000000001', 1, 11);
  await registerDevice(pool, '864000000000002', 1, 12);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('writer transaction', () => {
  it('writes literals PostgreSQL reads back exactly (quotes, backslashes, dollar tags, NULL, unicode)', async () => {
    const texts = ["a'b", 'c\\d', '$r$', 'x$r', '$r0$r$', '"q"', 'São Paulo', '{}', 'NULL', ''];
    for (const t of texts) expect((await pool.query(`SELECT ${dollarQuote(t)}::text AS v`)).rows[0].v).toBe(t);
    const values = [...texts, null, 1.5, true];
    const got = (await pool.query(`SELECT ${dollarQuote(arrayLiteral(values))}::text[] AS v`)).rows[0].v;
    expect(got).toEqual([...texts, null, '1.5', 't']);
  });

  it('keeps the newest position, merges attributes over the stored ones, keeps them when a message has none', async () => {
    const warn = vi.spyOn(process, 'emitWarning');
    await write([msg('864000000000001', 10, { odometer: 1, fuel: 50 }), msg('864000000000001', 20, { odometer: 2 }, { type: 'HBD' }),
      msg('864000000000002', 5, { note: "it's \\ $r$" })]);
    let u = await state('864000000000001');
    expect(u).toMatchObject({ empresa_id: 1, ativo_id: 11, lat: -23.02, speed: 20, ultimo_tipo: 'HBD', attributes: { odometer: 2 } });
    expect(u.fix_time.toISOString()).toBe(iso(20));
    expect((await state('864000000000002')).attributes).toEqual({ note: "it's \\ $r$" });
    // An older position in a later batch: position kept, attributes merged, last communication moves on.
    await write([msg('864000000000001', 15, { fuel: 40, rpm: 900 }, { type: 'FRI' })]);
    u = await state('864000000000001');
    expect(u).toMatchObject({ lat: -23.02, speed: 20, ultimo_tipo: 'FRI', attributes: { odometer: 2, fuel: 40, rpm: 900 } });
    expect(u.fix_time.toISOString()).toBe(iso(20));
    // No attributes, no position: both kept.
    await write([msg('864000000000001', null, {}, { type: 'HBD' })]);
    u = await state('864000000000001');
    expect(u).toMatchObject({ lat: -23.02, ultimo_tipo: 'HBD', attributes: { odometer: 2, fuel: 40, rpm: 900 } });
    expect(await pool.query(`SELECT count(*)::int n FROM telemetria.posicao WHERE serial = '864000000000001'`).then((r) => r.rows[0].n)).toBe(3);
    expect(warn.mock.calls.filter(([w]) => String(w).includes('already executing'))).toEqual([]);
    warn.mockRestore();
  });

  it('drops the previous company’s attributes and position when the serial moves to another company', async () => {
    await pool.query(`UPDATE equipamento SET empresa_id = 2 WHERE serial = '864000000000002'`);
    await pool.query(`DELETE FROM equipamento_ativo WHERE serial = '864000000000002'`);
    await write([msg('864000000000002', 1, { fuel: 7 })]);
    const u = await state('864000000000002');
    expect(u).toMatchObject({ empresa_id: 2, ativo_id: null, attributes: { fuel: 7 }, lat: -23.001 });
  });
});
