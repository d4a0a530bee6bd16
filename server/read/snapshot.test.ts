// The kept whole list (server/read/snapshot.ts) over real HTTP: after any sequence of writes — vehicles reporting,
// devices added, removed or linked to another vehicle, drivers, vehicles, garages renamed or moved, another company's
// states — the live map's call answers byte for byte what a full read of the same rows answers (the paged provider
// route, read by the engine with no kept rows), in both shapes, while an operator's socket receives the pushes that
// refresh the kept rows.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketsOf } from '../test/sockets.ts';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { COLUNAS_AO_VIVO, URL_AO_VIVO } from '../../modules/rastreamento/screens/estado.ts';
import { getModel } from '../core/registry.ts';
import { declaredNames, readDeclaredColumns } from './provider.ts';
import { feedSnapshots, feedToken, withIdFilter } from './snapshot.ts';
import { withCompany } from '../db/rls.ts';
import { tabelaDe } from '../../shared/tabela.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
let A: number, B: number;
const garagens: number[] = [], motoristas: number[] = [], ativos: number[] = [];
const sockets = socketsOf(() => ts.url);
const q = (sql: string, params: unknown[] = []) => pool.query(sql, params);

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  A = admin.empresaAtiva;
  B = admin.user.empresas.map((e: { id: number }) => e.id).find((id: number) => id !== A);
  for (let i = 0; i < 3; i++) garagens.push((await q(`INSERT INTO garagem (empresa_id, nome, created_at, updated_at) VALUES ($1, $2, now(), now()) RETURNING id`, [A, `Garagem ${i}`])).rows[0].id);
  for (let i = 0; i < 4; i++) {
    motoristas.push((await q(`INSERT INTO motorista (empresa_id, nome, documento, situacao, created_at, updated_at) VALUES ($1, $2, $3, 'ativo', now(), now()) RETURNING id`,
      [A, `Motorista ${i}`, `0000000000${i}`])).rows[0].id);
  }
  for (let i = 0; i < 10; i++) {
    ativos.push((await q(`INSERT INTO ativo (empresa_id, descricao, placa, id_garagem, created_at, updated_at) VALUES ($1, $2, $3, $4, now(), now()) RETURNING id`,
      [A, `Veículo ${String(i).padStart(2, '0')}`, `SNP${i}A0${i}`, i % 4 === 3 ? null : garagens[i % 3]])).rows[0].id);
  }
  for (let i = 0; i < 12; i++) await state(`SNAP${i}`, A, i < 10 ? ativos[i]! : null, i % 2 ? motoristas[i % 4]! : null);
  await state('SNAP-B1', B, null, null);
});
afterAll(async () => { sockets.closeAll(); await pool?.end(); await ts?.stop(); });

let tick = 0;
/** A device's latest state, as the gateway writes it. */
function state(serial: string, empresa: number, ativo: number | null, motorista: number | null) {
  tick++;
  return q(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, motorista_id, protocolo, modelo, fix_time, lat, lon, speed, course, valid, ignition, ultima_comunicacao, attributes)
    VALUES ($1, $2, $3, $4, 'queclink', 'GV350CEU', now(), $5, -46.6, $6, 90, true, true, now(), '{"odometer": 1}')
    ON CONFLICT (serial) DO UPDATE SET lat = excluded.lat, speed = excluded.speed, fix_time = now(), ultima_comunicacao = now()`,
  [serial, empresa, ativo, motorista, -23.5 - tick / 1000, tick % 90]);
}

type Op =
  | { k: 'reporta'; i: number } | { k: 'novo'; n: number; ativo: number } | { k: 'remove'; i: number } | { k: 'vincula'; i: number; ativo: number | null }
  | { k: 'motorista'; i: number; m: number | null } | { k: 'renomeia'; a: number; nome: string } | { k: 'placa'; a: number }
  | { k: 'garagem'; a: number; g: number | null } | { k: 'renomeiaGaragem'; g: number } | { k: 'renomeiaMotorista'; m: number } | { k: 'outra' }
  | { k: 'novoAtivo' };

const serialOf = (i: number) => `SNAP${i % 14}`;
async function apply(op: Op): Promise<void> {
  tick++;
  switch (op.k) {
    case 'reporta': await q(`UPDATE telemetria.ultimo_estado SET lat = lat - 0.001, speed = $2, fix_time = now(), ultima_comunicacao = now() WHERE serial = $1`, [serialOf(op.i), tick % 90]); break;
    case 'novo': await state(`SNAP-N${op.n}`, A, ativos[op.ativo % ativos.length]!, null); break;
    case 'remove': await q('DELETE FROM telemetria.ultimo_estado WHERE serial = $1', [serialOf(op.i)]); break;
    case 'vincula': await q('UPDATE telemetria.ultimo_estado SET ativo_id = $2 WHERE serial = $1', [serialOf(op.i), op.ativo === null ? null : ativos[op.ativo % ativos.length]]); break;
    case 'motorista': await q('UPDATE telemetria.ultimo_estado SET motorista_id = $2 WHERE serial = $1', [serialOf(op.i), op.m === null ? null : motoristas[op.m % motoristas.length]]); break;
    case 'renomeia': await q('UPDATE ativo SET descricao = $2 WHERE id = $1', [ativos[op.a % ativos.length], op.nome]); break;
    case 'placa': await q('UPDATE ativo SET placa = $2 WHERE id = $1', [ativos[op.a % ativos.length], `Q${String(tick).padStart(6, '0')}`]); break;
    case 'garagem': await q('UPDATE ativo SET id_garagem = $2 WHERE id = $1', [ativos[op.a % ativos.length], op.g === null ? null : garagens[op.g % garagens.length]]); break;
    case 'renomeiaGaragem': await q('UPDATE garagem SET nome = $2 WHERE id = $1', [garagens[op.g % garagens.length], `Garagem ${tick}`]); break;
    case 'renomeiaMotorista': await q('UPDATE motorista SET nome = $2 WHERE id = $1', [motoristas[op.m % motoristas.length], `Motorista ${tick}`]); break;
    case 'outra': await state('SNAP-B1', B, null, null); break;
    case 'novoAtivo': ativos.push((await q(`INSERT INTO ativo (empresa_id, descricao, placa, created_at, updated_at) VALUES ($1, $2, $3, now(), now()) RETURNING id`, [A, `Novo ${tick}`, `N${String(tick).padStart(6, '0')}`])).rows[0].id); break;
  }
}

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant('reporta' as const), i: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('novo' as const), n: fc.nat(3), ativo: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('remove' as const), i: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('vincula' as const), i: fc.nat(20), ativo: fc.option(fc.nat(20)) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('motorista' as const), i: fc.nat(20), m: fc.option(fc.nat(8)) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('renomeia' as const), a: fc.nat(20), nome: fc.constantFrom('Alfa', 'Zeta', 'Veículo 05', 'ônibus 3', '') }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('placa' as const), a: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('garagem' as const), a: fc.nat(20), g: fc.option(fc.nat(5)) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('renomeiaGaragem' as const), g: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('renomeiaMotorista' as const), m: fc.nat(8) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('outra' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('novoAtivo' as const) }) },
);

const full = `/api/rastreamento/estados?${new URLSearchParams({ range: '[0,9999]' })}`;
/** The call's payload text, and what a full read of the same rows gives in the same shape. */
async function both(url: string, columns: string[], table: boolean): Promise<[string, string]> {
  const res = await admin.get(url);
  expect(res.status).toBe(200);
  const text = await res.text();
  const payload = text.slice('{"status":200,"msg":"OK","payload":'.length, -',"errorMsg":null}'.length);
  const rows = (await (await admin.get(full)).json()) as Record<string, unknown>[];
  const picked = rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])));
  return [payload, JSON.stringify(table ? tabelaDe(picked, columns) : picked)];
}

describe('the kept whole list (ultimo_estado)', () => {
  it('answers what a full read answers after any writes, in both shapes, with the pushes refreshing it', async () => {
    // an operator with the live map open: the pushes feed the kept rows meanwhile
    const operador = await sockets.join(admin.token, A, 'ultimo_estado');
    const meta = getModel().providers.find((p) => p.key === 'ultimo_estado')!;
    const todas = declaredNames(meta);
    const mapa = [...COLUNAS_AO_VIVO];
    let checks = 0;
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 4 }), fc.nat(40), async (ops, espera) => {
      for (const o of ops) await apply(o);
      // sometimes a push has time to arrive before the load
      if (espera > 20) await new Promise((r) => setTimeout(r, espera * 15));
      const [got, want] = await both(URL_AO_VIVO, mapa, true);
      expect(got).toBe(want);
      const [gotAll, wantAll] = await both('/api/rastreamento/ultimo_estado', todas, false);
      expect(gotAll).toBe(wantAll);
      checks++;
    }), { numRuns: 60 });
    expect(checks).toBe(60);
    expect(operador.got.length).toBeGreaterThan(0);
    // never another company's state
    const res = await json(await admin.get(URL_AO_VIVO));
    expect(res.payload.rows.map((r: unknown[]) => r[0])).not.toContain('SNAP-B1');
  }, 180_000);

  it('loads at the same time answer the same list', async () => {
    await apply({ k: 'reporta', i: 1 });
    const texts = await Promise.all(Array.from({ length: 6 }, async (_, i) => {
      if (i % 2) await apply({ k: 'reporta', i });
      return (await admin.get(URL_AO_VIVO)).text();
    }));
    const last = await (await admin.get(URL_AO_VIVO)).text();
    const [, want] = await both(URL_AO_VIVO, [...COLUNAS_AO_VIVO], true);
    expect(last).toBe(`{"status":200,"msg":"OK","payload":${want},"errorMsg":null}`);
    for (const t of texts) expect(JSON.parse(t).payload.rows.length).toBe(JSON.parse(want).rows.length);
  });

  it("a push's rows feed the kept list: a device linked to another vehicle moves in the list at the next load", async () => {
    const operador = await sockets.join(admin.token, A, 'ultimo_estado');
    // two vehicles of their own: one sorted after the others ('zzz…'), one before them (' …': only '' comes first)
    const [fim, inicio] = await Promise.all([['zzz último', 'FIM1A00'], [' primeiro', 'INI1A00']].map(async ([nome, placa]) =>
      (await q(`INSERT INTO ativo (empresa_id, descricao, placa, created_at, updated_at) VALUES ($1, $2, $3, now(), now()) RETURNING id`, [A, nome, placa])).rows[0].id as number));
    await state('SNAP-FEED', A, fim, null);
    const [first, want0] = await both(URL_AO_VIVO, [...COLUNAS_AO_VIVO], true);
    expect(first).toBe(want0);
    await q('UPDATE telemetria.ultimo_estado SET ativo_id = $2 WHERE serial = $1', ['SNAP-FEED', inicio]);
    // the push that carries it has fed the kept rows before it was emitted
    await expect.poll(() => operador.got.some((m: { rows: { serial: string; ativoId: number }[] }) => m.rows.some((r) => r.serial === 'SNAP-FEED' && r.ativoId === inicio)), { timeout: 15_000 }).toBe(true);
    const [got, want] = await both(URL_AO_VIVO, [...COLUNAS_AO_VIVO], true);
    expect(got).toBe(want);
    const at = (t: string) => JSON.parse(t).rows.findIndex((r: unknown[]) => r[0] === 'SNAP-FEED');
    expect(at(got)).toBeGreaterThanOrEqual(0);
    expect(at(got)).toBeLessThan(at(first));
  });

  it("rows a push read before a load's check are not kept after it (they may be older than what the check kept)", async () => {
    const meta = getModel().providers.find((p) => p.key === 'ultimo_estado')!;
    await state('SNAP-TOKEN', A, ativos[1]!, null);
    await admin.get(URL_AO_VIVO);
    const token = feedToken(ts.em(), 'ultimo_estado', A);
    const old = await withCompany(A, () => readDeclaredColumns(ts.em().fork(), withIdFilter(meta, 'serial'), meta.sql!,
      { params: {}, filter: { serial: ['SNAP-TOKEN'] }, sort: meta.sort }, A, undefined, 10, { version: true }));
    expect(old.length).toBe(1);
    await q('UPDATE telemetria.ultimo_estado SET speed = 77.5 WHERE serial = $1', ['SNAP-TOKEN']);
    await admin.get(URL_AO_VIVO); // a check ran: it read the new state
    feedSnapshots(ts.em(), meta, meta.sql!, A, old, token);
    const [got, want] = await both(URL_AO_VIVO, [...COLUNAS_AO_VIVO], true);
    expect(got).toBe(want);
    const at = COLUNAS_AO_VIVO.indexOf('velocidade');
    expect(JSON.parse(got).rows.find((r: unknown[]) => r[0] === 'SNAP-TOKEN')[at]).toBe(77.5);
  });

  it('a register written in a subtransaction before a load and committed after it is seen at the next load', async () => {
    const g = (await q(`INSERT INTO garagem (empresa_id, nome, created_at, updated_at) VALUES ($1, 'Garagem Sub', now(), now()) RETURNING id`, [A])).rows[0].id;
    const a = (await q(`INSERT INTO ativo (empresa_id, descricao, placa, id_garagem, created_at, updated_at) VALUES ($1, 'Veículo Sub', 'SUB1A00', $2, now(), now()) RETURNING id`, [A, g])).rows[0].id;
    await state('SNAP-SUB', A, a, null);
    await admin.get(URL_AO_VIVO);
    const tx = await pool.connect();
    try {
      // the transaction gets its xid, then the register's row is written by a subtransaction (a savepoint)
      await tx.query('BEGIN');
      await tx.query('SELECT pg_current_xact_id()');
      await tx.query('SAVEPOINT s');
      await tx.query(`UPDATE garagem SET nome = 'Garagem Renomeada' WHERE id = $1`, [g]);
      await tx.query('RELEASE SAVEPOINT s');
      // a later transaction ends meanwhile (the gateway writes all the time): the next snapshot's xmax passes the
      // subtransaction's xid
      await apply({ k: 'outra' });
      // a load while it runs: its snapshot lists the transaction running, not the subtransaction
      const [during, wantDuring] = await both(URL_AO_VIVO, [...COLUNAS_AO_VIVO], true);
      expect(during).toBe(wantDuring);
      await tx.query('COMMIT');
    } finally { tx.release(); }
    const [got, want] = await both(URL_AO_VIVO, [...COLUNAS_AO_VIVO], true);
    expect(got).toBe(want);
    const at = COLUNAS_AO_VIVO.indexOf('garagem');
    expect(JSON.parse(got).rows.find((r: unknown[]) => r[0] === 'SNAP-SUB')[at]).toBe('Garagem Renomeada');
  });

  it('columns and format are checked (pt-BR); a filtered call answers the table by a full read', async () => {
    const col = await admin.get(`/api/rastreamento/ultimo_estado?${new URLSearchParams({ columns: '["serial","senha"]' })}`);
    expect(col.status).toBe(400);
    expect((await json(col)).msg).toBe('Coluna desconhecida: senha');
    const vazio = await admin.get(`/api/rastreamento/ultimo_estado?${new URLSearchParams({ columns: '[]' })}`);
    expect((await json(vazio)).msg).toBe('Parâmetro columns inválido');
    const fmt = await admin.get('/api/rastreamento/ultimo_estado?format=csv');
    expect(fmt.status).toBe(400);
    expect((await json(fmt)).msg).toBe('Formato inválido: use table');
    const ativo = (await q(`SELECT ativo_id FROM telemetria.ultimo_estado WHERE serial LIKE 'SNAP%' AND ativo_id IS NOT NULL ORDER BY serial LIMIT 1`)).rows[0].ativo_id;
    const one = await json(await admin.get(`/api/rastreamento/ultimo_estado?${new URLSearchParams({ ativoId: String(ativo), columns: '["serial","ativoId"]', format: 'table' })}`));
    const serials = (await q(`SELECT serial FROM telemetria.ultimo_estado WHERE ativo_id = $1 ORDER BY serial`, [ativo])).rows.map((r) => r.serial);
    expect(one.payload).toEqual({ columns: ['serial', 'ativoId'], rows: serials.map((s) => [s, ativo]) });
    expect((await ts.fetch(URL_AO_VIVO)).status).toBe(401);
  });
});
