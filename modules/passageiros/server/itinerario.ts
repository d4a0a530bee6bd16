// The itinerary a vehicle is on at a moment: among the company's itineraries listing the asset (itinerario.ativos),
// those run on that week day (diasSemana; none listed = every day), the one whose outbound (ida) or return (volta)
// window holds the local time (FUSO_HORARIO, default America/Sao_Paulo), with TOLERANCIA_MIN of slack on each side;
// else the one whose window starts nearest; else none. Pure (modules/passageiros/server/itinerario.unit.test.ts).
export interface Itinerario {
  id: number; ativos: number[]; diasSemana: string[];
  inicioIda: string | null; fimIda: string | null; inicioVolta: string | null; fimVolta: string | null;
}

export const TOLERANCIA_MIN = 30;
const DIAS = ['dom', 'seg', 'ter', 'qua', 'qui', 'sex', 'sab'];
const minutos = (hhmm: string | null) => (hhmm ? Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5)) : null);

/** Week day key and minutes since midnight of time t in the zone. */
export function localAt(t: number, fuso = process.env.FUSO_HORARIO || 'America/Sao_Paulo'): { dia: string; min: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: fuso, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(t));
  const get = (k: string) => parts.find((p) => p.type === k)?.value ?? '';
  const dia = DIAS[['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'))] ?? 'dom';
  return { dia, min: Number(get('hour')) * 60 + Number(get('minute')) };
}

export function itinerarioEm(its: Itinerario[], ativoId: number | null, t: number, fuso?: string): { id: number; direcao: 'ida' | 'volta' | null } | null {
  if (ativoId === null) return null;
  const mine = its.filter((i) => i.ativos?.includes(ativoId));
  if (!mine.length) return null;
  const { dia, min } = localAt(t, fuso);
  const hoje = mine.filter((i) => !i.diasSemana?.length || i.diasSemana.includes(dia));
  const pool = hoje.length ? hoje : mine;
  let best: { id: number; direcao: 'ida' | 'volta' | null; d: number } | null = null;
  for (const i of pool) {
    for (const [direcao, a, b] of [['ida', i.inicioIda, i.fimIda], ['volta', i.inicioVolta, i.fimVolta]] as const) {
      const ini = minutos(a), fim = minutos(b) ?? ini;
      if (ini === null) continue;
      // inside the window: 0; within the slack: a little more; else the distance to it (minutes)
      const fora = Math.min(Math.abs(min - ini), Math.abs(min - fim!));
      const d = min >= ini && min <= fim! ? 0 : fora <= TOLERANCIA_MIN ? fora / 1000 : fora;
      if (!best || d < best.d) best = { id: i.id, direcao, d };
    }
  }
  return best ? { id: best.id, direcao: best.direcao } : { id: pool[0]!.id, direcao: null };
}
