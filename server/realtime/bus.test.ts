// The latest-state bus: the trigger's NOTIFY names company and serials, split below 8 KB; a writer publishing on Redis
// silences it (publish once); the Redis transport delivers the same messages.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedDatabase } from '../test/harness.ts';
import { estadoPayloads, parseEstado, redisEstadoPublisher, subscribeEstado, type EstadoMessage } from './bus.ts';

let url: string;
let pool: pg.Pool;
let empresa: number;

beforeAll(async () => {
  ({ url } = await createMigratedDatabase());
  pool = new pg.Pool({ connectionString: url, max: 2 });
  empresa = (await pool.query('SELECT min(id)::int AS id FROM empresa')).rows[0].id;
});
afterAll(async () => { await pool?.end(); });

async function listen(fn: () => Promise<unknown>, ms = 1500): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const got: string[] = [];
  c.on('notification', (m) => got.push(String(m.payload)));
  await c.query('LISTEN rastro_estado');
  try {
    await fn();
    await new Promise((r) => setTimeout(r, ms));
    return got;
  } finally { await c.end(); }
}

const serials = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${String(i).padStart(15, '0')}`);

describe('latest-state bus', () => {
  it('payloads: per company, below 8 KB, every serial once', () => {
    const rows = [...serials(900, 'A').map((serial) => ({ empresaId: 1, serial })), { empresaId: 2, serial: 'B1' }, { empresaId: null, serial: 'X' }];
    const out = estadoPayloads(rows);
    expect(out.every((p) => Buffer.byteLength(p) < 8000)).toBe(true);
    const msgs = out.map((p) => parseEstado(p)!);
    expect(msgs.filter((m) => m.empresaId === 1).flatMap((m) => m.serials!).sort()).toEqual(serials(900, 'A'));
    expect(msgs.filter((m) => m.empresaId === 2)).toEqual([{ empresaId: 2, serials: ['B1'] }]);
    expect(parseEstado('7')).toEqual({ empresaId: 7, serials: null });
    expect(parseEstado('x:1')).toBeNull();
  });

  it('the trigger notifies company:serials once per statement, split below 8 KB', async () => {
    const all = serials(700, 'T'); // 700 × 17 bytes: two notifications
    const got = await listen(() => pool.query(
      `INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ultima_comunicacao) SELECT s, $1, now() FROM unnest($2::text[]) s`, [empresa, all]));
    expect(got.length).toBe(2);
    expect(got.every((p) => Buffer.byteLength(p) < 8000 && p.startsWith(`${empresa}:`))).toBe(true);
    expect(got.flatMap((p) => parseEstado(p)!.serials!).sort()).toEqual(all);
  });

  it("a writer that publishes on Redis silences the trigger (SET LOCAL rastro.estado_bus = 'redis')", async () => {
    const got = await listen(async () => {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        await c.query(`SET LOCAL rastro.estado_bus = 'redis'`);
        await c.query(`UPDATE telemetria.ultimo_estado SET speed = 1 WHERE serial = $1`, ['T000000000000001']);
        await c.query('COMMIT');
      } finally { c.release(); }
      await pool.query(`UPDATE telemetria.ultimo_estado SET speed = 2 WHERE serial = $1`, ['T000000000000002']);
    });
    expect(got).toEqual([`${empresa}:T000000000000002`]);
  });

  it('Redis: what the gateway publishes reaches a subscriber of the same database only', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const got: EstadoMessage[] = [], other: EstadoMessage[] = [];
    const sub = subscribeEstado({ redisUrl, namespace: 'teste_bus_a' }, (m) => got.push(m));
    const sub2 = subscribeEstado({ redisUrl, namespace: 'teste_bus_b' }, (m) => other.push(m));
    const pub = redisEstadoPublisher(redisUrl, 'teste_bus_a');
    try {
      await new Promise((r) => setTimeout(r, 500)); // subscribed
      pub.publish([{ empresaId: 5, serial: 'R1' }, { empresaId: 5, serial: 'R2' }, { empresaId: 6, serial: 'R3' }]);
      await expect.poll(() => got.length, { timeout: 5000 }).toBe(2);
      expect(got.sort((a, b) => a.empresaId - b.empresaId)).toEqual([{ empresaId: 5, serials: ['R1', 'R2'] }, { empresaId: 6, serials: ['R3'] }]);
      expect(other).toEqual([]);
    } finally { await Promise.all([sub.close(), sub2.close(), pub.close()]); }
  });
});
