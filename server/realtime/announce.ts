// Writes outside the gateway's writer (API actions, module jobs) that change what the live screens show tell the
// latest-state bus (./bus.ts) the way the gateway does: on Redis with REDIS_URL (one publisher per Redis and database,
// kept for the process), else NOTIFY on the caller's connection (inside its transaction: sent at COMMIT).
import type { EntityManager } from '@mikro-orm/postgresql';
import { ESTADO_CHANNEL, estadoPayloads, namespaceOf, redisEstadoPublisher, type EstadoPublisher } from './bus.ts';

const publishers = new Map<string, EstadoPublisher>();

export async function announceEstado(em: EntityManager, rows: { empresaId: number | null; serial: string }[]): Promise<void> {
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    const clientUrl = em.config.get('clientUrl') as string | undefined;
    const key = `${redisUrl}\n${clientUrl ? namespaceOf(clientUrl) : String(em.config.get('dbName'))}`;
    let pub = publishers.get(key);
    if (!pub) { pub = redisEstadoPublisher(redisUrl, key.slice(redisUrl.length + 1)); publishers.set(key, pub); }
    pub.publish(rows);
    return;
  }
  for (const payload of estadoPayloads(rows)) await em.getConnection().execute(`SELECT pg_notify('${ESTADO_CHANNEL}', ?)`, [payload]);
}
