// Relative periods and schedule times in a time zone (FUSO_HORARIO, default America/Sao_Paulo): pure functions.
// A relative period ('ontem', 'semana passada' …) is made of whole local days: start 00:00:00.000, end 23:59:59.999.
// Weeks run Sunday to Saturday (the Brazilian calendar).

export type PeriodoRelativo = 'hoje' | 'ontem' | 'semana_passada' | 'ultimos_7_dias' | 'mes_passado';
export type Frequencia = 'diario' | 'semanal' | 'mensal';
export const PERIODOS: Record<PeriodoRelativo, string> = {
  hoje: 'Hoje', ontem: 'Ontem', semana_passada: 'Semana passada', ultimos_7_dias: 'Últimos 7 dias', mes_passado: 'Mês passado',
};

export const fusoHorario = () => process.env.FUSO_HORARIO || 'America/Sao_Paulo';

interface Civil { y: number; m: number; d: number; h: number; mi: number }

/** The wall-clock date and time of an instant in `tz`. */
export function civilOf(at: Date, tz: string): Civil & { dow: number } {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short' });
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  const dow = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday);
  return { y: +p.year, m: +p.month, d: +p.day, h: +p.hour, mi: +p.minute, dow };
}

/** The instant whose wall clock in `tz` is the given one (days/months overflow like Date.UTC). */
export function instantOf(c: Civil, tz: string, ms = 0): Date {
  const want = Date.UTC(c.y, c.m - 1, c.d, c.h, c.mi, 0, ms);
  let t = want;
  for (let i = 0; i < 3; i++) {
    const got = civilOf(new Date(t), tz);
    const seen = Date.UTC(got.y, got.m - 1, got.d, got.h, got.mi, 0, ms);
    if (seen === want) break;
    t += want - seen;
  }
  return new Date(t);
}

const day = (y: number, m: number, d: number) => { const x = new Date(Date.UTC(y, m - 1, d)); return { y: x.getUTCFullYear(), m: x.getUTCMonth() + 1, d: x.getUTCDate() }; };
const startOf = (y: number, m: number, d: number, tz: string) => instantOf({ ...day(y, m, d), h: 0, mi: 0 }, tz);
const endOf = (y: number, m: number, d: number, tz: string) => new Date(startOf(y, m, d + 1, tz).getTime() - 1);

/** The period as ISO instants, relative to `now` in `tz`. */
export function periodoRelativo(p: PeriodoRelativo, now: Date, tz = fusoHorario()): { inicio: string; fim: string } {
  const c = civilOf(now, tz);
  const span = (a: [number, number, number], b: [number, number, number]) => ({ inicio: startOf(...a, tz).toISOString(), fim: endOf(...b, tz).toISOString() });
  switch (p) {
    case 'hoje': return span([c.y, c.m, c.d], [c.y, c.m, c.d]);
    case 'ontem': return span([c.y, c.m, c.d - 1], [c.y, c.m, c.d - 1]);
    case 'ultimos_7_dias': return span([c.y, c.m, c.d - 7], [c.y, c.m, c.d - 1]);
    case 'semana_passada': return span([c.y, c.m, c.d - c.dow - 7], [c.y, c.m, c.d - c.dow - 1]);
    case 'mes_passado': return span([c.y, c.m - 1, 1], [c.y, c.m, 0]);
    default: throw new Error(`período desconhecido: ${String(p)}`);
  }
}

export interface Agenda { frequencia: Frequencia; horaEnvio: string; diaSemana?: number | null; diaMes?: number | null }

/** The first send strictly after `after`: daily at horaEnvio, weekly on diaSemana (0 = Sunday), monthly on diaMes. */
export function proximoEnvio(a: Agenda, after: Date, tz = fusoHorario()): Date {
  const [h, mi] = a.horaEnvio.split(':').map(Number);
  const c = civilOf(after, tz);
  for (let i = 0; i <= 62; i++) {
    const d = day(c.y, c.m, c.d + i);
    const dow = new Date(Date.UTC(d.y, d.m - 1, d.d)).getUTCDay();
    if (a.frequencia === 'semanal' && dow !== (a.diaSemana ?? 1)) continue;
    if (a.frequencia === 'mensal' && d.d !== (a.diaMes ?? 1)) continue;
    const t = instantOf({ ...d, h, mi }, tz);
    if (t > after) return t;
  }
  throw new Error('sem próximo envio');
}
