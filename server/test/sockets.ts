// Integration tests' sockets: a user's socket.io connection to the app, joined to a company room, collecting one push
// event — what a screen of that user would receive. Each test file closes its sockets after all.
import { expect } from 'vitest';
import { io as connectIo, type Socket } from 'socket.io-client';
import { SOCKET_PATH } from '../realtime/index.ts';

export interface Joined<T> { s: Socket; got: T[] }

export function socketsOf(url: () => string) {
  const open: Socket[] = [];
  return {
    /** Connects with `token`, records every `event` (through `record`, default the message) and joins `empresa`'s room
     *  (the join must answer 200). */
    async join<T = any>(token: string, empresa: number, event: string, record: (m: any) => T = (m) => m): Promise<Joined<T>> {
      const s = connectIo(url().replace('localhost', '127.0.0.1'), { path: SOCKET_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
      open.push(s);
      const got: T[] = [];
      s.on(event, (m) => got.push(record(m)));
      await new Promise<void>((res, rej) => { s.once('connect', () => res()); s.once('connect_error', rej); });
      expect(await s.timeout(30_000).emitWithAck('join_room', empresa)).toEqual({ status: 200, msg: 'ok' });
      return { s, got };
    },
    closeAll() { for (const s of open.splice(0)) s.disconnect(); },
  };
}
