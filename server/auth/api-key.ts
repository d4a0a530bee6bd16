// API keys (chave_de_api): a call carrying `x-api-key` acts as the key's company with the key's permission keys,
// limited per minute and per hour (rate-limiter-flexible: with REDIS_URL set, one Redis count shared by every server
// process, a per-process memory limiter as insurance while Redis is unreachable; without it, memory per process) and
// in total (an atomic counter in the row, exact across processes). Only the key's SHA-256 is stored (metadata `secretToken`).
import crypto from 'node:crypto';
import type { Context } from 'hono';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { EntityMeta } from '../../shared/model.ts';
import type { AppEnv, Session } from '../app/env.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { ident } from '../db/sql.ts';
import { chave_de_api as k } from '../generated/columns.ts';
import { HttpError, unauthorized } from '../http/envelope.ts';
import { header } from '../http/headers.ts';
import { empresaUsable, findEmpresa, type Row } from './users.ts';
import { strings } from '../../shared/ids.ts';
import { sha256 } from './tokens.ts';

export const API_KEY_HEADER = 'x-api-key';
const PREFIX = 'rst_';

/** The secret of a new row of an entity with a `secretToken` field: the columns to store (hash, and the key's
 *  visible start in a read-only `prefixo` field when the entity has one) and the answer that shows it once. */
export function secretToken(e: EntityMeta): { columns: Row; answer: Row } | undefined {
  const f = e.fields.find((x) => x.secretToken);
  if (!f) return undefined;
  const token = PREFIX + crypto.randomBytes(32).toString('base64url');
  const columns: Row = { [f.name]: sha256(token) };
  if (e.fields.some((x) => x.name === 'prefixo' && x.readOnly)) columns.prefixo = token.slice(0, PREFIX.length + 6);
  return { columns, answer: { [f.name]: token } };
}

const limiters = new Map<string, RateLimiterAbstract>();
let redis: Redis | undefined;
function limiter(points: number, duration: number): RateLimiterAbstract {
  const url = process.env.REDIS_URL;
  const k = `${url ?? ''}|${points}/${duration}`;
  let l = limiters.get(k);
  if (!l) {
    const memory = new RateLimiterMemory({ points, duration });
    if (url) {
      // Commands fail at once while disconnected (no offline queue): the memory limiter answers then.
      if (!redis) {
        redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2000, connectionName: 'rastro-chave-api' });
        redis.on('error', () => {}); // reconnects by itself; the insurance limiter covers the gap
      }
      l = new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix: `rastro_chave_api:${points}/${duration}`, insuranceLimiter: memory });
    } else l = memory;
    limiters.set(k, l);
  }
  return l;
}

/** The first calls wait (at most 1 s) for the Redis connection being opened, instead of counting in memory only. */
async function connected(): Promise<void> {
  const r = redis;
  if (!r || (r.status !== 'connecting' && r.status !== 'wait')) return;
  await new Promise<void>((res) => { const t = setTimeout(res, 1000); r.once('ready', () => { clearTimeout(t); res(); }); });
}

const tooMany = (periodo: string, res: RateLimiterRes) => new HttpError(429,
  `Limite de chamadas por ${periodo} da chave de API atingido. Tente novamente em ${Math.max(1, Math.ceil(res.msBeforeNext / 1000))} s.`);

/** The session of the request's API key, or undefined when it carries none. 401 for an unknown or revoked key (or
 *  one of a company that may not work), 429 past a limit (the call is not counted then). */
export async function apiKeySession(c: Context<AppEnv>, em: EntityManager): Promise<Session | undefined> {
  const key = header(c, API_KEY_HEADER);
  if (key == null) return undefined;
  const e = entityByKey('chave_de_api');
  if (!e) return undefined;
  const row = key.startsWith(PREFIX) && key.length < 200
    ? await em.findOne(ormName(em, e), { chave: sha256(key) } as never) as Row | null
    : null;
  if (!row || row.ativa === false) throw unauthorized('Chave de API inválida ou revogada');
  const empresaId = Number(row.empresaId?.id ?? row.empresaId);
  const empresa = await findEmpresa(em, empresaId);
  if (!empresaUsable(empresa)) throw unauthorized('A empresa da chave de API não está ativa');
  const id = Number(row.id);
  const who = `${em.config.get('dbName')}:${id}`;
  for (const [points, duration, periodo] of [[row.limiteConexaoMinutos, 60, 'minuto'], [row.limiteConexaoHoras, 3600, 'hora']] as const) {
    try {
      const l = limiter(Number(points), duration);
      await connected();
      await l.consume(who);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany(periodo, err);
      throw err;
    }
  }
  const counted = await em.getConnection().execute(
    `update ${ident(k.table)} set ${k.usos} = ${k.usos} + 1, ${k.ultimoUso} = now() where ${k.id} = ? and ${k.ativa} and ${k.usos} < "${k.limite}" returning ${k.id}`, [id]) as Row[];
  if (!counted.length) throw new HttpError(429, 'Limite total de chamadas da chave de API atingido');
  return {
    id: 0, usuarioId: 0, login: `api:${row.prefixo ?? id}`,
    ambienteId: Number(empresa!.ambienteId?.id ?? empresa!.ambienteId),
    empresaAtiva: empresaId, empresas: [empresaId], roles: [], permissoes: new Set(strings(row.permissoes)), apiKey: id,
  };
}
