// Keeps a gateway's device directory in step with the registers: LISTEN on `rastro_equipamento`, fed by database
// triggers on every committed change of equipamento, equipamento_ativo, ativo, motorista_temporario and empresa's
// allowed networks (migration equipamento_notify), whichever process or script wrote it. While listening the
// directory keeps entries for minutes; when the connection drops it falls back to its short TTL and reconnects.
import { listen } from '../db/listen.ts';
import type { DeviceDirectory } from './devices.ts';
import { log } from './log.ts';

export const DIRECTORY_CHANNEL = 'rastro_equipamento';

export interface DirectoryListener { ready: Promise<void>; close(): Promise<void> }

export function startDirectoryListener(url: string, directory: DeviceDirectory, retryMs = 1000): DirectoryListener {
  let firstUp!: () => void;
  const ready = new Promise<void>((r) => { firstUp = r; });
  const l = listen(url, DIRECTORY_CHANNEL, 'rastro-equipamentos-listener', {
    message: (payload) => directory.notification(payload),
    up: () => { directory.setNotified(true); firstUp(); },
    down: () => directory.setNotified(false),
    lost: (err) => log.warn({ err: (err as Error).message }, 'diretório de equipamentos: escuta de alterações perdida; cache curto até reconectar'),
  }, retryMs);
  return { ready, close: () => l.close() };
}
