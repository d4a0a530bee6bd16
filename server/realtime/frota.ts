// Fleet state push: LISTEN rastro_estado (a trigger on telemetria.ultimo_estado notifies the company of each write,
// migration estado_frota_notify) → `estado_frota` { empresaId } to that company's sockets, at most once per
// ESTADO_FROTA_MS per company. The push carries no numbers: the client reads them through the pipeline
// (GET /api/home/frota), so only holders of the key see them.
import pg from 'pg';
import type { Logger } from 'pino';

export const CHANNEL = 'rastro_estado';
export const ESTADO_FROTA = 'estado_frota';
const ESTADO_FROTA_MS = Number(process.env.ESTADO_FROTA_MS ?? 1000);

export function listenFrota(url: string | undefined, emit: (empresaId: number) => void, log?: Logger): { close: () => Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const pending = new Map<number, NodeJS.Timeout>();
  const notify = (empresaId: number) => {
    if (!Number.isSafeInteger(empresaId) || pending.has(empresaId)) return;
    const t = setTimeout(() => { pending.delete(empresaId); emit(empresaId); }, ESTADO_FROTA_MS);
    t.unref();
    pending.set(empresaId, t);
  };
  const connect = async () => {
    if (closed || !url) return;
    const c = new pg.Client({ connectionString: url, application_name: 'rastro-estado-listener' });
    client = c;
    c.on('notification', (m) => notify(Number(m.payload)));
    const retry = (err?: unknown) => {
      if (client !== c) return;
      client = undefined;
      c.end().catch(() => undefined);
      if (closed) return;
      if (err) log?.warn({ err }, 'estado da frota: conexão LISTEN perdida; reconectando');
      retryTimer = setTimeout(() => void connect(), 1000);
      retryTimer.unref();
    };
    c.on('error', retry);
    c.on('end', () => retry());
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
    } catch (err) { retry(err); }
  };
  void connect();
  return {
    close: async () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      for (const t of pending.values()) clearTimeout(t);
      pending.clear();
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
