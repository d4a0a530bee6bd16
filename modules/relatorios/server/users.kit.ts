// Users of the report tests: one of company A and one of company B with the same keys, and one of A holding only
// `semKeys` (the families' keys missing), signed in.
import { expect } from 'vitest';
import type { Api, TestServer } from '../../../server/test/harness.ts';

export async function reportUsers(ts: TestServer, o: { prefix: string; empresas: [number, number]; keys: string[]; semKeys: string[] }): Promise<{ userA: Api; userB: Api; semChave: Api }> {
  const [A, B] = o.empresas;
  const ambiente = Number((await ts.em().getConnection().execute('SELECT ambiente_id FROM empresa WHERE id = ?', [A]))[0].ambiente_id);
  await ts.createUser({ login: `${o.prefix}_a`, ambienteId: ambiente, empresas: [A], permissoes: o.keys });
  await ts.createUser({ login: `${o.prefix}_b`, ambienteId: ambiente, empresas: [B], permissoes: o.keys });
  await ts.createUser({ login: `${o.prefix}_sem`, ambienteId: ambiente, empresas: [A], permissoes: o.semKeys });
  return {
    userA: await ts.login(`${o.prefix}_a`, 'senha-teste-123'),
    userB: await ts.login(`${o.prefix}_b`, 'senha-teste-123'),
    semChave: await ts.login(`${o.prefix}_sem`, 'senha-teste-123'),
  };
}

/** Two trips of `serial` on the first asset of company `empresa` (10/03/2026 08:00, 50 km; 11/03/2026 10:00, 30 km;
 *  an hour each), as modules/viagens writes them: the spool tests' report rows. */
export async function twoTrips(q: (sql: string, params?: unknown[]) => Promise<any[]>, serial: string, empresa: number): Promise<void> {
  const [a1] = await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [empresa]);
  for (const [inicio, m] of [['2026-03-10T08:00:00-03:00', 50_000], ['2026-03-11T10:00:00-03:00', 30_000]] as const) {
    await q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
      VALUES ($1, $2, $2::timestamptz + interval '1 hour', $3, $4, -23.55, -46.63, -23.6, -46.7, $5, 3600, 80, 40, 0)`, [serial, inicio, empresa, a1.id, m]);
  }
}

export const enc = (o: unknown) => encodeURIComponent(JSON.stringify(o));
/** GET /api/relatorios/{fam}/{tipo} with its params, in São Paulo time. */
export const get = (api: Api, fam: string, tipo: string, params: unknown, extra = '') =>
  api.get(`/api/relatorios/${fam}/${tipo}?params=${enc(params)}&fuso=America/Sao_Paulo${extra}`);
/** The report's rows (200 expected), without their ids. */
export const rows = async (api: Api, fam: string, tipo: string, params: unknown, extra = '') => {
  const r = await get(api, fam, tipo, params, extra);
  expect(r.status, JSON.stringify(await r.clone().json())).toBe(200);
  return ((await r.json()) as Record<string, any>[]).map(({ id, ...x }) => x);
};
export const cols = (c: string[]) => `&colunas=${enc(c)}`;
