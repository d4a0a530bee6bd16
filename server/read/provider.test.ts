// Declared providers (server/read/provider.ts): the `sql:` block of painel_satelite's YAML, read by the engine, answers
// what its hand-written implementation answers — every sortable column both ways, the search, the boolean filter,
// pages, the total, and only the caller's company.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';
import { planDeclared, readDeclared, type ProviderSql } from './provider.ts';
import { rastreamento, teclado } from './testing/provider-oracles.ts';
import { isoTimestamp } from './values.ts';

/** The oracle's answer with its timestamps in ISO 8601, as the engine answers datetime columns. */
const iso = (meta: ProviderMeta, want: { rows: Record<string, unknown>[]; total: number }) => ({
  ...want, rows: want.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, meta.columns.find((c) => c.name === k)?.type === 'datetime' ? isoTimestamp(v) : v]))),
});
import type { ProviderQuery } from '../crud/provider.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
const YAML = path.resolve(import.meta.dirname, '../../modules/satelite/metadata/esp/painel_satelite.yaml');
const decl = (parse(fs.readFileSync(YAML, 'utf8')) as { sql: ProviderSql }).sql;
const declOf = (file: string) => (parse(fs.readFileSync(path.resolve(import.meta.dirname, '../..', file), 'utf8')) as { sql: ProviderSql }).sql;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => Number(r.id));
  const dirs = ['recebida', 'enviada'], sits = ['entregue', 'pendente', 'erro'];
  for (let i = 0; i < 60; i++) {
    await ts.insert('mensagem_satelite', {
      empresaId: i % 3 === 0 ? B : A, serial: `SAT${String(i % 13).padStart(3, '0')}`, direcao: dirs[i % 2], situacao: i % 13 >= 9 ? 'entregue' : sits[i % 3], // SAT009-SAT012: all delivered
      dataHora: new Date(Date.UTC(2026, 10, 1 + (i % 5), i % 24)), mensagem: `msg ${i % 7}`,
    });
  }
  // One terminal linked to an asset now (the ativo column), in company A.
  const [ativo] = await ts.em().getConnection().execute('SELECT id FROM ativo WHERE empresa_id = ? ORDER BY id LIMIT 1', [A]);
  await ts.em().getConnection().execute(`INSERT INTO equipamento_ativo (serial, ativo_id, empresa_id, data_inicio, created_at, updated_at) VALUES ('SAT001', ?, ?, now() - interval '1 day', now(), now())`, [ativo.id, A]);
});
afterAll(async () => { await ts?.stop(); });

describe('declared provider painel_satelite', () => {
  // Its rows changed in issue 20 (terminals of the command queue, no longer the register alone): the old hand-written
  // implementation is no oracle any more; modules/satelite/server/satelite.test.ts checks the panel's rows.
  it('names the company only through the scope module and binds every value', () => {
    const meta = ts.model.providers.find((p) => p.key === 'painel_satelite')! as ProviderMeta;
    const { sql, params } = planDeclared(meta, decl, { params: {}, filter: { q: "x' OR 1=1" }, sort: { field: 'serial', order: 'ASC' }, offset: 0, limit: 5 }, B);
    expect(sql).not.toContain('OR 1=1');
    expect(params).toEqual([B, "%x' OR 1=1%", 5, 0]);
    expect(sql).toContain('x.empresa_id = $1');
  });

  it('logs_teclado: the engine answers what the hand-written implementation answers', async () => {
    const serial = 'TCLD001';
    const dev = (await json(await admin.post('/api/dispositivo_teclado', { descricao: 'Teclado declarado', serial, deviceModel: 'TK-10', ativado: true }))).id;
    for (const [i, m] of ['Retorne à base', 'Pare no posto', 'Siga viagem'].entries()) {
      const c = await json(await admin.post(`/api/dispositivo_teclado/${serial}/comando_teclado`, { mensagem: m, direcao: 'enviada', situacao: 'pendente' }));
      if (i !== 1) expect((await admin.put(`/api/comando_teclado/${c.id}`, { ...c, situacao: 'entregue' })).status).toBe(200);
    }
    expect((await admin.put(`/api/dispositivo_teclado/${dev}`, { descricao: 'Teclado renomeado', serial, deviceModel: 'TK-10', ativado: true })).status).toBe(200);
    const meta = ts.model.providers.find((p) => p.key === 'logs_teclado')! as ProviderMeta;
    const d = declOf('modules/teclado/metadata/esp/logs_teclado.yaml');
    const ctx = { session: { empresaAtiva: A, usuarioId: admin.user.id } as unknown as Session, em: ts.em(), empresaId: A, meta };
    let compared = 0, rows = 0;
    for (const col of meta.columns.filter((c) => c.sortable)) {
      for (const order of ['ASC', 'DESC'] as const) {
        for (const filter of [{}, { q: 'retorne' }, { q: 'situacao' }, { q: 'nada assim' }]) {
          for (const [offset, limit] of [[0, 50], [1, 2]]) {
            const q: ProviderQuery = { params: { serial }, filter, sort: { field: col.name, order }, offset, limit };
            const want = await teclado.logs_teclado.list(q, ctx);
            const got = await readDeclared(ts.em(), meta, d, q, A);
            expect(JSON.stringify(got), JSON.stringify(q)).toBe(JSON.stringify(iso(meta, want)));
            compared++;
            rows += got.rows.length;
          }
        }
      }
    }
    expect(compared).toBe(32);
    expect(rows).toBeGreaterThan(20);
    // Another company sees nothing of this device's history.
    const other = await readDeclared(ts.em(), meta, d, { params: { serial }, filter: {}, sort: { field: 'data', order: 'DESC' }, offset: 0, limit: 50 }, B);
    expect(other).toEqual({ rows: [], total: 0 });
  });

  it('ultimo_estado (the live map): the engine answers what the hand-written implementation answered, plus id = serial', async () => {
    const conn = ts.em().getConnection();
    const ativos = (await conn.execute('SELECT id, placa FROM ativo WHERE empresa_id = ? ORDER BY id LIMIT 3', [A])) as { id: number; placa: string }[];
    const rows: [string, number, number | null, number, boolean | null][] = [
      ['861000000000101', A, ativos[0]!.id, 40, true], ['861000000000102', A, ativos[1]!.id, 80, false], ['861000000000103', A, null, 0, null],
      ['861000000000104', A, ativos[2]!.id, 12.5, true], ['861000000000105', A, ativos[0]!.id, 40, null], ['861000000000199', B, null, 99, true],
    ];
    for (const [i, [serial, empresa, ativo, speed, ign]] of rows.entries()) {
      await conn.execute(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, protocolo, modelo, fix_time, lat, lon, speed, ignition,
        ultimo_evento, ultima_comunicacao, attributes) VALUES (?, ?, ?, 'queclink', 'gv58cg', ?, -23.5, -46.6, ?, ?, ?, ?, ?)`,
        [serial, empresa, ativo, new Date(Date.UTC(2026, 10, 20, i)), speed, ign, i % 2 ? 'Ignição ligada' : null, new Date(Date.UTC(2026, 10, 20, 10 - i)), i % 2 ? JSON.stringify({ odometro: i }) : null]);
    }
    const meta = ts.model.providers.find((p) => p.key === 'ultimo_estado')! as ProviderMeta;
    const d = declOf('modules/rastreamento/metadata/tlm/ultimo_estado.yaml');
    const ctx = { session: { empresaAtiva: A, usuarioId: admin.user.id } as unknown as Session, em: ts.em(), empresaId: A, meta };
    let compared = 0, seen = 0;
    for (const col of meta.columns.filter((c) => c.sortable)) {
      for (const order of ['ASC', 'DESC'] as const) {
        for (const filter of [{}, { q: '10' }, { q: ativos[0]!.placa.slice(0, 5) }, { ativoId: ativos[0]!.id }, { q: 'nada assim' }]) {
          for (const [offset, limit] of [[0, 50], [1, 2]]) {
            const q: ProviderQuery = { params: {}, filter, sort: { field: col.name, order }, offset, limit };
            const want = await rastreamento.ultimo_estado.list(q, ctx);
            const got = await readDeclared(ts.em(), meta, d, q, A);
            for (const r of got.rows) expect(r.id).toBe(r.serial);
            // motoristaNome and garagem came after the hand-written implementation (issues 20 and 21: the map's popup
            // and its side list grouped by garage)
            const withoutId = { rows: got.rows.map(({ id: _id, motoristaNome: _m, garagem: _g, ...r }) => r), total: got.total };
            expect(JSON.stringify(withoutId), JSON.stringify(q)).toBe(JSON.stringify(iso(meta, want)));
            compared++;
            seen += got.rows.length;
          }
        }
      }
    }
    expect(compared).toBe(6 * 2 * 5 * 2);
    expect(seen).toBeGreaterThan(100);
    // The other company's device never shows.
    const all = await readDeclared(ts.em(), meta, d, { params: {}, filter: {}, sort: { field: 'serial', order: 'ASC' }, offset: 0, limit: 50 }, A);
    expect(all.rows.map((r) => r.serial)).not.toContain('861000000000199');
  });
});
