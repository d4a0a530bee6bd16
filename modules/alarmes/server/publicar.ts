// Tells every API process that a serial's alarms changed (server/realtime/announce.ts): the live push of the provider
// `alarme` then reads that serial's alarms again and emits them to the company's consoles.
import type { Context } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { requestEm } from '../../../server/db/context.ts';
import { announceEstado } from '../../../server/realtime/announce.ts';

export const publicarSerial = (c: Context<AppEnv>, empresaId: number, serial: string): Promise<void> =>
  announceEstado(requestEm(c), [{ empresaId, serial }]);
