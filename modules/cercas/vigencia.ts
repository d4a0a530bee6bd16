// A fence's schedule (vigência), as Wialon's geofence schedule and Traccar's calendars: days of the week, a daily
// window (hora inicial/final, crossing midnight when the end is earlier: 22:00–06:00), validity dates and "não vale
// em feriados" (the company's calendar register; recorrente = the same day every year). Empty = always in force.
// Times are the company's local time (FUSO_HORARIO, server/core/fuso-horario.ts). A window belongs to the day it
// opens: the weekday, the validity dates and the holidays are those of that day (Friday 22:00–06:00 holds Saturday
// 03:00; a holiday on Saturday does not cancel it). The end time is exclusive (08:00–18:00: 18:00 is out).
// Compiled once per fence (compile), checked per candidate fence and fix in O(1) (inForce, with one Local per fix).
import { fusoHorario } from '../../server/core/fuso-horario.ts';

export const DIAS = ['dom', 'seg', 'ter', 'qua', 'qui', 'sex', 'sab'] as const;
const ROTULOS = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb'];
const DAY = 86_400_000;
const ALL_DAYS = 0b1111111;

/** The schedule fields of a fence (API names or the table's columns, as read). */
export interface VigenciaInput {
  diasSemana?: unknown; horaInicial?: string | null; horaFinal?: string | null;
  vigenteDe?: unknown; vigenteAte?: unknown; naoValeEmFeriados?: boolean | null;
}

/** A compiled schedule; null = always in force. Days are local day numbers (days since 1970-01-01 local). */
export interface Vigencia {
  dias: number;        // bit d = weekday d (0 Sunday) is in force
  ini: number; fim: number;   // minutes of the day; ini === fim: the whole day
  de: number; ate: number;    // validity, inclusive (−∞/+∞ when open)
  feriados: boolean;   // not in force on the company's holidays
}

/** One fix's local time, computed once per fix. */
export interface Local { day: number; min: number }

/** The holidays of a company: exact days and recurring month-days (month × 100 + day). */
export interface Feriados { dias: Set<number>; recorrentes: Set<number> }
export const SEM_FERIADOS: Feriados = { dias: new Set(), recorrentes: new Set() };

const minutes = (h: string | null | undefined): number | null => {
  const m = /^(\d{2}):(\d{2})/.exec(h ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};
/** A date ('YYYY-MM-DD', or a Date as node-postgres parses a date: local midnight) → 'YYYY-MM-DD'. */
const isoDate = (d: unknown): string => d instanceof Date
  ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}` : String(d).slice(0, 10);
/** 'YYYY-MM-DD' → day number. */
export const dayOf = (d: unknown): number => { const s = isoDate(d); return Math.floor(Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10))) / DAY); };
const weekday = (day: number) => ((day % 7) + 11) % 7; // 1970-01-01 was a Thursday (4)
const monthDay = (day: number) => { const d = new Date(day * DAY); return (d.getUTCMonth() + 1) * 100 + d.getUTCDate(); };

function diasList(v: unknown): string[] {
  const a = typeof v === 'string' ? (() => { try { return JSON.parse(v); } catch { return []; } })() : v;
  return Array.isArray(a) ? a.filter((x): x is string => typeof x === 'string') : [];
}

/** The schedule of a fence, or null when it has none (always in force). */
export function compile(v: VigenciaInput): Vigencia | null {
  const dl = diasList(v.diasSemana);
  let dias = 0;
  for (const d of dl) { const i = DIAS.indexOf(d as (typeof DIAS)[number]); if (i >= 0) dias |= 1 << i; }
  if (!dias) dias = ALL_DAYS;
  const ini = minutes(v.horaInicial), fim = minutes(v.horaFinal);
  const hasWindow = ini !== null && fim !== null && ini !== fim;
  const de = v.vigenteDe ? dayOf(v.vigenteDe) : -Infinity;
  const ate = v.vigenteAte ? dayOf(v.vigenteAte) : Infinity;
  const feriados = !!v.naoValeEmFeriados;
  if (dias === ALL_DAYS && !hasWindow && de === -Infinity && ate === Infinity && !feriados) return null;
  return { dias, ini: hasWindow ? ini : 0, fim: hasWindow ? fim : 0, de, ate, feriados };
}

export const isHoliday = (f: Feriados, day: number) => f.dias.has(day) || (f.recorrentes.size > 0 && f.recorrentes.has(monthDay(day)));

/** Whether the schedule holds at that local time (null schedule: always). */
export function inForce(v: Vigencia | null, t: Local, fer: Feriados): boolean {
  if (!v) return true;
  let open = t.day;
  if (v.ini < v.fim) { if (t.min < v.ini || t.min >= v.fim) return false; }
  else if (v.ini > v.fim) {
    if (t.min < v.fim) open = t.day - 1;
    else if (t.min < v.ini) return false;
  }
  if (!(v.dias & (1 << weekday(open)))) return false;
  if (open < v.de || open > v.ate) return false;
  return !(v.feriados && isHoliday(fer, open));
}

/** Local time of instants in a time zone; the offset cached per quarter hour (every offset is a multiple of 15 min). */
export function localClock(tz = fusoHorario()): (ms: number) => Local {
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number) => {
    const q = Math.floor(ms / 900_000);
    let o = offsets.get(q);
    if (o === undefined) {
      const base = q * 900_000;
      const p: Record<string, number> = {};
      for (const x of fmt.formatToParts(base)) if (x.type !== 'literal') p[x.type] = Number(x.value);
      o = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!) - base;
      if (offsets.size > 50_000) offsets.clear();
      offsets.set(q, o);
    }
    return o;
  };
  return (ms) => {
    const l = ms + offsetAt(ms);
    const day = Math.floor(l / DAY);
    return { day, min: Math.floor((l - day * DAY) / 60_000) };
  };
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const ddmmyyyy = (day: number) => { const d = new Date(day * DAY); return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`; };

/** The list's Vigência column: "Sempre", "Seg–Sex 08:00–18:00", "Sáb, Dom 22:00–06:00, exceto feriados". */
export function resumo(input: VigenciaInput): string {
  const v = compile(input);
  if (!v) return 'Sempre';
  const core: string[] = [];
  if (v.dias !== ALL_DAYS) {
    // runs of consecutive days, Monday first (a week of work reads Seg–Sex, a weekend Sáb, Dom)
    const order = [1, 2, 3, 4, 5, 6, 0];
    const runs: number[][] = [];
    for (const d of order) {
      if (!(v.dias & (1 << d))) continue;
      const last = runs[runs.length - 1];
      if (last && order.indexOf(last[last.length - 1]!) === order.indexOf(d) - 1) last.push(d); else runs.push([d]);
    }
    core.push(runs.map((r) => r.length >= 3 ? `${ROTULOS[r[0]!]}–${ROTULOS[r[r.length - 1]!]}` : r.map((d) => ROTULOS[d]).join(', ')).join(', '));
  }
  if (v.ini !== v.fim) core.push(`${hhmm(v.ini)}–${hhmm(v.fim)}`);
  const parts = [core.length ? core.join(' ') : 'Todos os dias'];
  if (v.de !== -Infinity && v.ate !== Infinity) parts.push(`de ${ddmmyyyy(v.de)} a ${ddmmyyyy(v.ate)}`);
  else if (v.de !== -Infinity) parts.push(`a partir de ${ddmmyyyy(v.de)}`);
  else if (v.ate !== Infinity) parts.push(`até ${ddmmyyyy(v.ate)}`);
  if (v.feriados) parts.push('exceto feriados');
  return parts.join(', ');
}

/** The form's checks: both times or none, different; the validity's end not before its start. */
export function vigenciaProblem(v: VigenciaInput): { field: string; label: string; message: string } | null {
  const ini = minutes(v.horaInicial), fim = minutes(v.horaFinal);
  if ((ini === null) !== (fim === null)) return { field: ini === null ? 'horaInicial' : 'horaFinal', label: ini === null ? 'Hora inicial' : 'Hora final', message: 'Informe a hora inicial e a hora final, ou nenhuma das duas' };
  if (ini !== null && ini === fim) return { field: 'horaFinal', label: 'Hora final', message: 'A hora final deve ser diferente da hora inicial (uma janela que passa da meia-noite termina mais cedo: 22:00–06:00)' };
  if (v.vigenteDe && v.vigenteAte && dayOf(v.vigenteAte) < dayOf(v.vigenteDe)) return { field: 'vigenteAte', label: 'Vigente até', message: 'A data final da vigência deve ser igual ou posterior à inicial' };
  return null;
}
