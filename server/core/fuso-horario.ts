// The server's time zone for local days ("today", daily totals): FUSO_HORARIO, default America/Sao_Paulo (the company
// register has no time zone of its own yet). One function for every module that cuts time into local days.
export const fusoHorario = (): string => process.env.FUSO_HORARIO || 'America/Sao_Paulo';

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The local date ('YYYY-MM-DD') of an instant (ms) in the time zone (default fusoHorario()). */
export function dataLocal(ms: number, tz = fusoHorario()): string {
  let f = formatters.get(tz);
  if (!f) formatters.set(tz, (f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return f.format(ms);
}

const QUARTER = 15 * 60_000;
/** dataLocal() cached per quarter of an hour (every time zone offset is a multiple of 15 minutes): for hot paths. */
export function dataLocalCache(tz = fusoHorario()): (ms: number) => string {
  const cache = new Map<number, string>();
  return (ms) => {
    const q = Math.floor(ms / QUARTER);
    let d = cache.get(q);
    if (d === undefined) {
      if (cache.size > 50_000) cache.clear();
      cache.set(q, (d = dataLocal(q * QUARTER, tz)));
    }
    return d;
  };
}
