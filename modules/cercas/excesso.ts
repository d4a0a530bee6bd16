// Speeding in fences (Wialon's "speeding in geofence"), pure: while a device is inside an in-force fence with a speed
// limit (velocidadeMaxima > 0), a fix over the limit opens an excursion; it lasts until a fix at or under the limit,
// or the device is no longer inside the fence (left it, or the fence went out of force or away). One event per
// excursion, at its first fix (modules/cercas/server/processor.ts).

/**
 * Moves the open excursions (`over`: fence id → ms of the fix that opened it) to a fix at `t` with `speed` (km/h),
 * the device being inside the fences `inside` (in force at t). Answers the fences whose excursion opens at this fix,
 * in id order.
 */
export function excursions(over: Map<number, number>, inside: Iterable<number>, limits: ReadonlyMap<number, number>, speed: number | null, t: number): number[] {
  const still = new Set<number>();
  const opened: number[] = [];
  for (const id of inside) {
    const lim = limits.get(id);
    if (!lim || lim <= 0 || speed === null || !(speed > lim)) continue;
    still.add(id);
    if (!over.has(id)) { over.set(id, t); opened.push(id); }
  }
  for (const id of [...over.keys()]) if (!still.has(id)) over.delete(id);
  return opened.sort((a, b) => a - b);
}

/** km/h as pt-BR text: whole numbers plain, else one decimal with a comma (80, 80,4). */
export const kmh = (v: number) => new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 }).format(v);

/** The event's pt-BR description. */
export const excessoDescricao = (cerca: string, speed: number, limite: number) =>
  `Velocidade excedida na cerca ${cerca} (${kmh(speed)} km/h, limite ${kmh(limite)} km/h)`;

/** What a row of the fence map's latest events says after its time: fence · vehicle (plate), and for speeding the
 *  speed against the fence's limit. */
export function eventoLinha(e: { tipo: string; cercaDescricao: string; ativoDescricao: string | null; placa: string | null; velocidade?: number | null; limite?: number | null }): string {
  const base = `${e.cercaDescricao} · ${e.ativoDescricao ?? 'Sem ativo'}${e.placa ? ` (${e.placa})` : ''}`;
  if (e.tipo !== 'Velocidade excedida' || e.velocidade == null) return base;
  return `${base} · ${kmh(e.velocidade)} km/h${e.limite != null ? ` (limite ${kmh(e.limite)} km/h)` : ''}`;
}
