// Fleet state push: a write to telemetria.ultimo_estado (heard on the latest-state bus, ./bus.ts) → `estado_frota`
// { empresaId } to that company's sockets, at most once per ESTADO_FROTA_MS per company. The push carries no numbers:
// the client reads them through the pipeline (GET /api/home/frota), so only holders of the key see them.
export const ESTADO_FROTA = 'estado_frota';
const ESTADO_FROTA_MS = Number(process.env.ESTADO_FROTA_MS ?? 1000);

export function frotaThrottle(emit: (empresaId: number) => void): { notify: (empresaId: number) => void; close: () => void } {
  const pending = new Map<number, NodeJS.Timeout>();
  return {
    notify: (empresaId) => {
      if (!Number.isSafeInteger(empresaId) || pending.has(empresaId)) return;
      const t = setTimeout(() => { pending.delete(empresaId); emit(empresaId); }, ESTADO_FROTA_MS);
      t.unref();
      pending.set(empresaId, t);
    },
    close: () => {
      for (const t of pending.values()) clearTimeout(t);
      pending.clear();
    },
  };
}
