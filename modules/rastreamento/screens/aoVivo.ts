// The latest states of the active company, live (runtime/src/layout/useLiveRows.ts): loaded once through the provider
// (GET url), then kept by the socket's `ultimo_estado` pushes (server/realtime/live.ts) — no polling.
import { useLiveRows } from '../../../runtime/src/layout/useLiveRows';
import { aplicar, PUSH_EVENT, type UltimoEstado } from './estado';

export { PUSH_EVENT };

/** `aceita`: the pushed rows this screen keeps (e.g. one vehicle's trackers). */
export function useUltimoEstadoAoVivo(url: string | null, empresa: number | null, aceita?: (r: UltimoEstado) => boolean) {
  const { rows, erro, atualizado, aoVivo } = useLiveRows<UltimoEstado, UltimoEstado[]>({
    url, event: PUSH_EVENT, empresa, erro: 'Erro ao carregar as posições',
    read: (list) => list,
    apply: (cur, push) => aplicar(cur, { completo: push.completo === true, rows: aceita ? push.rows.filter(aceita) : push.rows }),
  });
  return { rows, erro, atualizado, aoVivo };
}
