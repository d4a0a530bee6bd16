// The latest-state bus (issue 21): a write to telemetria.ultimo_estado is published ONCE, naming its company and the
// serials written; each API process hears it and pushes to its own sockets (fleet counters, latest states) and wakes
// its background work (addresses). Two transports, same message `<empresa>:<serial>,<serial>…`:
//  - PostgreSQL (default): the trigger on ultimo_estado NOTIFYs channel `rastro_estado` (migrations estado_frota_notify,
//    estado_seriais), split below NOTIFY's 8 KB; any writer is heard.
//  - Redis (REDIS_URL): the gateway's writer publishes on `rastro_estado:<database>` after COMMIT and tells the
//    trigger to stay quiet (`SET LOCAL rastro.estado_bus = 'redis'`); writes outside the gateway are not heard.
// A message without serials (`<empresa>`) means "anything of that company may have changed".
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export const ESTADO_CHANNEL = 'rastro_estado';
/** NOTIFY payloads stay below 8000 bytes; Redis messages are split the same way. */
const MAX_PAYLOAD = 7800;

export interface EstadoMessage { empresaId: number; serials: string[] | null }

export function parseEstado(payload: string): EstadoMessage | null {
  const i = payload.indexOf(':');
  const empresaId = Number(i < 0 ? payload : payload.slice(0, i));
  if (!Number.isSafeInteger(empresaId)) return null;
  const rest = i < 0 ? '' : payload.slice(i + 1);
  return { empresaId, serials: rest ? rest.split(',') : null };
}

/** The messages of one write: per company, its serials in payloads below MAX_PAYLOAD. */
export function estadoPayloads(rows: Iterable<{ empresaId: number | null; serial: string }>): string[] {
  const by = new Map<number, string[]>();
  for (const r of rows) {
    if (r.empresaId == null) continue;
    const l = by.get(r.empresaId);
    if (l) l.push(r.serial); else by.set(r.empresaId, [r.serial]);
  }
  const out: string[] = [];
  for (const [e, serials] of by) {
    let cur = '';
    for (const s of serials.sort()) {
      if (cur && cur.length + s.length + 1 > MAX_PAYLOAD) { out.push(`${e}:${cur}`); cur = ''; }
      cur = cur ? `${cur},${s}` : s;
    }
    out.push(`${e}:${cur}`);
  }
  return out;
}

export const redisChannel = (namespace: string) => `${ESTADO_CHANNEL}:${namespace}`;
/** The namespace of a database (its name), so databases sharing a Redis never mix. */
export const namespaceOf = (databaseUrl: string) => decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';

export interface EstadoSubscription { readonly kind: 'pg' | 'redis'; close(): Promise<void> }

/** Hears the bus: Redis when `redisUrl` is given, else LISTEN on the database. Reconnects by itself. */
export function subscribeEstado(o: { databaseUrl?: string; redisUrl?: string; namespace: string; log?: Logger }, on: (m: EstadoMessage) => void): EstadoSubscription {
  const deliver = (payload: string) => {
    const m = parseEstado(payload);
    if (m) on(m);
  };
  if (o.redisUrl) {
    const channel = redisChannel(o.namespace);
    const sub = new Redis(o.redisUrl, { connectionName: 'rastro-estado', maxRetriesPerRequest: null });
    let warned = false;
    sub.on('message', (ch: string, payload: string) => { if (ch === channel) deliver(payload); });
    sub.on('ready', () => { sub.subscribe(channel).then(() => { warned = false; }, () => undefined); });
    sub.on('error', (err) => { if (!warned) { warned = true; o.log?.warn({ err }, 'estado ao vivo: Redis indisponível; reconectando'); } });
    return { kind: 'redis', close: async () => { await Promise.race([sub.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]); sub.disconnect(); } };
  }
  let client: pg.Client | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (closed || !o.databaseUrl) return;
    const c = new pg.Client({ connectionString: o.databaseUrl, application_name: 'rastro-estado-listener' });
    client = c;
    c.on('notification', (m) => { if (m.payload) deliver(m.payload); });
    const retry = (err?: unknown) => {
      if (client !== c) return;
      client = undefined;
      c.end().catch(() => undefined);
      if (closed) return;
      if (err) o.log?.warn({ err }, 'estado ao vivo: conexão LISTEN perdida; reconectando');
      retryTimer = setTimeout(() => void connect(), 1000);
      retryTimer.unref();
    };
    c.on('error', retry);
    c.on('end', () => retry());
    try {
      await c.connect();
      await c.query(`LISTEN ${ESTADO_CHANNEL}`);
    } catch (err) { retry(err); }
  };
  void connect();
  return {
    kind: 'pg',
    close: async () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}

/** The gateway's side with REDIS_URL: publishes a committed write's messages (the trigger stays quiet). */
export interface EstadoPublisher { publish(rows: Iterable<{ empresaId: number | null; serial: string }>): void; close(): Promise<void> }

export function redisEstadoPublisher(redisUrl: string, namespace: string, log?: Logger): EstadoPublisher {
  const channel = redisChannel(namespace);
  const cmd = new Redis(redisUrl, { connectionName: 'rastro-estado-pub', enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let warned = false;
  cmd.on('error', (err) => { if (!warned) { warned = true; log?.warn({ err }, 'estado ao vivo: Redis indisponível'); } });
  cmd.on('ready', () => { warned = false; });
  return {
    publish(rows) {
      for (const p of estadoPayloads(rows)) {
        // Lost while Redis is down: the screens re-load on reconnect; the positions themselves are stored.
        cmd.publish(channel, p).catch((err) => { if (!warned) { warned = true; log?.warn({ err }, 'estado ao vivo: publicação no Redis falhou'); } });
      }
    },
    close: async () => { await Promise.race([cmd.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]); cmd.disconnect(); },
  };
}
