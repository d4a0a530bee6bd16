// One LISTEN connection that stays up: a dedicated client on `channel`, reconnected every `retryMs` after it drops.
// up() once listening (what was cached before may have missed messages), down() when lost, message() per
// notification. Used by the session cache's bus and the gateway's device directory.
import pg from 'pg';

export interface ListenHandlers {
  message(payload: string): void;
  up(): void;
  down(): void;
  /** The connection dropped or could not be opened (a retry follows). */
  lost?(err: unknown): void;
}

export interface Listener {
  /** The listening client while up (e.g. to read a counter on the same connection), else undefined. */
  ready(): pg.Client | undefined;
  close(): Promise<void>;
}

/** Bounded wait: a shutdown never waits on a server that stopped answering. */
export const bounded = (p: Promise<unknown> | undefined) => Promise.race([p?.catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);

export function listen(url: string | undefined, channel: string, applicationName: string, h: ListenHandlers, retryMs = 1000): Listener {
  let client: pg.Client | undefined;
  let ready: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (closed || !url) return;
    const c = new pg.Client({ connectionString: url, application_name: applicationName });
    client = c;
    c.on('notification', (m) => h.message(String(m.payload ?? '')));
    const retry = (err?: unknown) => {
      if (client !== c) return;
      client = ready = undefined;
      h.down();
      c.end().catch(() => undefined);
      if (closed) return;
      if (err) h.lost?.(err);
      timer = setTimeout(() => void connect(), retryMs);
      timer.unref();
    };
    c.on('error', retry);
    c.on('end', () => retry());
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      if (client !== c) return;
      ready = c;
      h.up();
    } catch (err) { retry(err); }
  };
  void connect();
  return {
    ready: () => ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = ready = undefined;
      h.down();
      await bounded(c?.end());
    },
  };
}
