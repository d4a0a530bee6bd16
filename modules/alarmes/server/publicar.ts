// Tells every API process that a serial's rows changed, on the same latest-state bus the gateway uses
// (server/realtime/bus.ts): NOTIFY rastro_estado by default, Redis when REDIS_URL is set. The live push of the
// provider `alarme` then reads that serial's alarms again and emits them to the company's consoles.
import type { Context } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { ESTADO_CHANNEL, estadoPayloads, namespaceOf, redisEstadoPublisher, type EstadoPublisher } from '../../../server/realtime/bus.ts';
import { requestEm } from '../../../server/db/context.ts';

const redis = new Map<string, EstadoPublisher>();

export async function publicarSerial(c: Context<AppEnv>, empresaId: number, serial: string): Promise<void> {
  const em = requestEm(c);
  const url = process.env.REDIS_URL;
  if (url) {
    const clientUrl = em.config.get('clientUrl') as string | undefined;
    const ns = clientUrl ? namespaceOf(clientUrl) : String(em.config.get('dbName'));
    let pub = redis.get(ns);
    if (!pub) { pub = redisEstadoPublisher(url, ns); redis.set(ns, pub); }
    pub.publish([{ empresaId, serial }]);
    return;
  }
  for (const payload of estadoPayloads([{ empresaId, serial }])) {
    await em.getConnection().execute(`SELECT pg_notify('${ESTADO_CHANNEL}', ?)`, [payload]);
  }
}
