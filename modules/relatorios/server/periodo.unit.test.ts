import { describe, expect, it } from 'vitest';
import { periodoRelativo, proximoEnvio } from './periodo.ts';

const SP = 'America/Sao_Paulo';
// Wednesday 2026-03-11 01:30 in São Paulo (04:30 UTC): still "yesterday" is the 10th locally
const now = new Date('2026-03-11T04:30:00Z');

describe('periodoRelativo (America/Sao_Paulo)', () => {
  it('ontem is the whole previous local day, even shortly after midnight', () => {
    expect(periodoRelativo('ontem', now, SP)).toEqual({ inicio: '2026-03-10T03:00:00.000Z', fim: '2026-03-11T02:59:59.999Z' });
    // 02:30 UTC on the 11th is still the 10th in São Paulo
    expect(periodoRelativo('ontem', new Date('2026-03-11T02:30:00Z'), SP).inicio).toBe('2026-03-09T03:00:00.000Z');
  });
  it('hoje, últimos 7 dias', () => {
    expect(periodoRelativo('hoje', now, SP)).toEqual({ inicio: '2026-03-11T03:00:00.000Z', fim: '2026-03-12T02:59:59.999Z' });
    expect(periodoRelativo('ultimos_7_dias', now, SP)).toEqual({ inicio: '2026-03-04T03:00:00.000Z', fim: '2026-03-11T02:59:59.999Z' });
  });
  it('semana passada runs Sunday to Saturday', () => {
    expect(periodoRelativo('semana_passada', now, SP)).toEqual({ inicio: '2026-03-01T03:00:00.000Z', fim: '2026-03-08T02:59:59.999Z' });
    // on a Sunday, last week is the one that ended yesterday
    expect(periodoRelativo('semana_passada', new Date('2026-03-08T15:00:00Z'), SP).inicio).toBe('2026-03-01T03:00:00.000Z');
  });
  it('mês passado crosses the year and knows February', () => {
    expect(periodoRelativo('mes_passado', now, SP)).toEqual({ inicio: '2026-02-01T03:00:00.000Z', fim: '2026-03-01T02:59:59.999Z' });
    expect(periodoRelativo('mes_passado', new Date('2026-01-15T12:00:00Z'), SP)).toEqual({ inicio: '2025-12-01T03:00:00.000Z', fim: '2026-01-01T02:59:59.999Z' });
  });
  it('another zone gives other instants', () => {
    expect(periodoRelativo('ontem', new Date('2026-03-11T12:00:00Z'), 'UTC').inicio).toBe('2026-03-10T00:00:00.000Z');
  });
});

describe('proximoEnvio', () => {
  it('daily: today at the hour if still ahead, else tomorrow', () => {
    expect(proximoEnvio({ frequencia: 'diario', horaEnvio: '07:00' }, now, SP).toISOString()).toBe('2026-03-11T10:00:00.000Z');
    expect(proximoEnvio({ frequencia: 'diario', horaEnvio: '07:00' }, new Date('2026-03-11T10:00:00Z'), SP).toISOString()).toBe('2026-03-12T10:00:00.000Z');
  });
  it('weekly on the given weekday (1 = Monday)', () => {
    expect(proximoEnvio({ frequencia: 'semanal', horaEnvio: '08:30', diaSemana: 1 }, now, SP).toISOString()).toBe('2026-03-16T11:30:00.000Z');
  });
  it('monthly on the given day, next month when passed', () => {
    expect(proximoEnvio({ frequencia: 'mensal', horaEnvio: '06:00', diaMes: 1 }, now, SP).toISOString()).toBe('2026-04-01T09:00:00.000Z');
    expect(proximoEnvio({ frequencia: 'mensal', horaEnvio: '06:00', diaMes: 28 }, new Date('2026-12-29T00:00:00Z'), SP).toISOString()).toBe('2027-01-28T09:00:00.000Z');
  });
});
