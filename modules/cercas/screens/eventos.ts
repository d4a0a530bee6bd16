// The fences map's card of the latest events (pure: the screen's state and its unit test).

export interface Evento { id: string; fixTime: string; tipo: string; cercaId: number; cercaDescricao: string; ativoDescricao: string | null; placa: string | null; velocidade: number | null; limite: number | null }

/** Events the card shows. */
export const CARD = 20;

/** The card's events with the pushed ones: each once (by id), newest first, the CARD latest. */
export function mergeEventos(cur: Evento[], pushed: Evento[]): Evento[] {
  const by = new Map(cur.map((e) => [e.id, e]));
  for (const e of pushed) by.set(e.id, e);
  return [...by.values()].sort((a, b) => Date.parse(b.fixTime) - Date.parse(a.fixTime) || a.id.localeCompare(b.id)).slice(0, CARD);
}

