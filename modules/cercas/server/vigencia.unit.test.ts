// The fence schedule (vigencia.ts) with concrete dates: 2026-11-27 is a Friday; Brazil has no DST since 2019
// (America/Sao_Paulo is UTC−3 all year; in January 2019 it was UTC−2).
import { describe, expect, it } from 'vitest';
import { compile, dayOf, inForce, isHoliday, localClock, resumo, SEM_FERIADOS, vigenciaProblem, type Feriados, type VigenciaInput } from '../vigencia.ts';

const clock = localClock('America/Sao_Paulo');
/** Local time in São Paulo ('2026-11-27T17:59') → the schedule's Local. */
const L = (s: string) => clock(Date.parse(`${s}:00-03:00`));
const at = (v: VigenciaInput, s: string, fer: Feriados = SEM_FERIADOS) => inForce(compile(v), L(s), fer);

describe('local time', () => {
  it('São Paulo: UTC−3 today, UTC−2 under the DST of January 2019', () => {
    expect(clock(Date.parse('2026-11-27T14:00:00Z'))).toEqual({ day: dayOf('2026-11-27'), min: 11 * 60 });
    expect(clock(Date.parse('2026-11-28T02:30:00Z'))).toEqual({ day: dayOf('2026-11-27'), min: 23 * 60 + 30 });
    expect(clock(Date.parse('2026-01-15T12:00:00Z'))).toEqual({ day: dayOf('2026-01-15'), min: 9 * 60 });
    expect(clock(Date.parse('2019-01-15T12:00:00Z'))).toEqual({ day: dayOf('2019-01-15'), min: 10 * 60 });
    expect(dayOf('1970-01-02')).toBe(1);
    expect(dayOf(new Date(2026, 10, 27))).toBe(dayOf('2026-11-27'));
  });
});

describe('in force', () => {
  it('no schedule: always (compiled to null)', () => {
    expect(compile({})).toBeNull();
    expect(compile({ diasSemana: [], horaInicial: null, horaFinal: null, vigenteDe: null, vigenteAte: null, naoValeEmFeriados: false })).toBeNull();
    expect(compile({ diasSemana: '[]' })).toBeNull();
    expect(compile({ diasSemana: ['dom', 'seg', 'ter', 'qua', 'qui', 'sex', 'sab'] })).toBeNull();
    expect(at({}, '2026-11-28T03:00')).toBe(true);
  });

  it('weekdays and a daytime window: Seg–Sex 08:00–18:00 (the end is exclusive)', () => {
    const v = { diasSemana: ['seg', 'ter', 'qua', 'qui', 'sex'], horaInicial: '08:00', horaFinal: '18:00' };
    expect(['07:59', '08:00', '12:00', '17:59', '18:00'].map((h) => at(v, `2026-11-27T${h}`))).toEqual([false, true, true, true, false]);
    expect(at(v, '2026-11-28T10:00')).toBe(false); // Saturday
    expect(at(v, '2026-11-29T10:00')).toBe(false); // Sunday
    expect(at(v, '2026-11-30T08:00')).toBe(true);  // Monday
    // days only: the whole day
    expect(at({ diasSemana: ['sab'] }, '2026-11-28T00:00')).toBe(true);
    expect(at({ diasSemana: ['sab'] }, '2026-11-28T23:59')).toBe(true);
    expect(at({ diasSemana: ['sab'] }, '2026-11-29T00:00')).toBe(false);
  });

  it('a window crossing midnight belongs to the day it opens: Sex 22:00–06:00', () => {
    const v = { diasSemana: ['sex'], horaInicial: '22:00', horaFinal: '06:00' };
    expect(at(v, '2026-11-27T21:59')).toBe(false);
    expect(at(v, '2026-11-27T22:00')).toBe(true);
    expect(at(v, '2026-11-27T23:30')).toBe(true);
    expect(at(v, '2026-11-28T03:00')).toBe(true);  // Saturday morning: Friday's window
    expect(at(v, '2026-11-28T05:59')).toBe(true);
    expect(at(v, '2026-11-28T06:00')).toBe(false);
    expect(at(v, '2026-11-28T23:00')).toBe(false); // Saturday's own window: not a chosen day
    expect(at(v, '2026-11-27T03:00')).toBe(false); // Friday morning: Thursday's window
    // every day 22:00–06:00
    const n = { horaInicial: '22:00', horaFinal: '06:00' };
    expect(['2026-11-27T12:00', '2026-11-27T22:30', '2026-11-28T00:00', '2026-11-28T06:00'].map((s) => at(n, s))).toEqual([false, true, true, false]);
  });

  it('validity dates, inclusive, by the day the window opens', () => {
    const v = { vigenteDe: '2026-12-01', vigenteAte: '2026-12-31' };
    expect(at(v, '2026-11-30T23:59')).toBe(false);
    expect(at(v, '2026-12-01T00:00')).toBe(true);
    expect(at(v, '2026-12-31T23:59')).toBe(true);
    expect(at(v, '2027-01-01T00:00')).toBe(false);
    const night = { ...v, horaInicial: '22:00', horaFinal: '06:00' };
    expect(at(night, '2027-01-01T03:00')).toBe(true);  // the window of 31/12
    expect(at(night, '2026-12-01T03:00')).toBe(false); // the window of 30/11
    expect(at({ vigenteAte: '2026-11-27' }, '2026-11-27T23:59')).toBe(true);
    expect(at({ vigenteAte: '2026-11-27' }, '2026-11-28T00:00')).toBe(false);
  });

  it('not on holidays: a dated one and a recurring one (any year)', () => {
    // 20/11/2026 (Friday) dated; 25/12 every year
    const fer: Feriados = { dias: new Set([dayOf('2026-11-20')]), recorrentes: new Set([1225]) };
    const v = { diasSemana: ['seg', 'ter', 'qua', 'qui', 'sex'], horaInicial: '08:00', horaFinal: '18:00', naoValeEmFeriados: true };
    expect(at(v, '2026-11-20T10:00', fer)).toBe(false);
    expect(at(v, '2026-11-19T10:00', fer)).toBe(true);
    expect(at(v, '2026-12-25T10:00', fer)).toBe(false); // Friday
    expect(at(v, '2025-12-25T10:00', fer)).toBe(false); // Thursday, a year earlier
    expect(at(v, '2026-12-24T10:00', fer)).toBe(true);
    expect(at(v, '2025-11-20T10:00', fer)).toBe(true);  // the dated one does not repeat
    // without the option the holidays do not matter
    expect(at({ ...v, naoValeEmFeriados: false }, '2026-11-20T10:00', fer)).toBe(true);
    // a night window opening on the eve of a holiday runs into it
    const night = { horaInicial: '22:00', horaFinal: '06:00', naoValeEmFeriados: true };
    expect(at(night, '2026-12-25T03:00', fer)).toBe(true);
    expect(at(night, '2026-12-25T23:00', fer)).toBe(false);
    expect(isHoliday(fer, dayOf('2030-12-25'))).toBe(true);
    expect(isHoliday(fer, dayOf('2030-12-26'))).toBe(false);
  });
});

describe('summary (the list’s Vigência) and checks', () => {
  it('reads as the operator says it', () => {
    expect(resumo({})).toBe('Sempre');
    expect(resumo({ diasSemana: ['seg', 'ter', 'qua', 'qui', 'sex'], horaInicial: '08:00', horaFinal: '18:00' })).toBe('Seg–Sex 08:00–18:00');
    expect(resumo({ diasSemana: ['dom', 'sab'], horaInicial: '22:00', horaFinal: '06:00', naoValeEmFeriados: true })).toBe('Sáb, Dom 22:00–06:00, exceto feriados');
    expect(resumo({ diasSemana: ['seg', 'qua', 'qui', 'sex'] })).toBe('Seg, Qua–Sex');
    expect(resumo({ vigenteDe: '2026-12-01', vigenteAte: '2026-12-31' })).toBe('Todos os dias, de 01/12/2026 a 31/12/2026');
    expect(resumo({ vigenteAte: '2026-12-31' })).toBe('Todos os dias, até 31/12/2026');
    expect(resumo({ horaInicial: '06:30', horaFinal: '07:15', vigenteDe: '2027-01-10' })).toBe('06:30–07:15, a partir de 10/01/2027');
  });

  it('refuses one time without the other, equal times and an end before the start', () => {
    expect(vigenciaProblem({ horaInicial: '08:00' })?.message).toBe('Informe a hora inicial e a hora final, ou nenhuma das duas');
    expect(vigenciaProblem({ horaFinal: '08:00' })?.field).toBe('horaInicial');
    expect(vigenciaProblem({ horaInicial: '08:00', horaFinal: '08:00' })?.field).toBe('horaFinal');
    expect(vigenciaProblem({ vigenteDe: '2026-12-02', vigenteAte: '2026-12-01' })?.message).toBe('A data final da vigência deve ser igual ou posterior à inicial');
    expect(vigenciaProblem({ horaInicial: '22:00', horaFinal: '06:00', vigenteDe: '2026-12-01', vigenteAte: '2026-12-01' })).toBeNull();
  });
});
