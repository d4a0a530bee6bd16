import { describe, expect, it } from 'vitest';
import { formatDuration, formatKm, isOnline, relativeTime, timeOf } from './ColumnFormat';

const NOW = Date.parse('2026-11-27T12:00:00Z');
describe('column formats', () => {
  it('reads PostgreSQL timestamptz text and ISO alike', () => {
    expect(timeOf('2026-11-27 06:49:36.616+00')).toBe(Date.parse('2026-11-27T06:49:36.616Z'));
    expect(timeOf('2026-11-27 03:49:36-03')).toBe(Date.parse('2026-11-27T06:49:36Z'));
    expect(timeOf('2026-11-27T06:49:36.000Z')).toBe(Date.parse('2026-11-27T06:49:36Z'));
    expect(Number.isNaN(timeOf('ontem'))).toBe(true);
  });
  it('says how long ago in Portuguese', () => {
    expect(relativeTime('2026-11-27 11:59:30+00', NOW)).toBe('agora');
    expect(relativeTime('2026-11-27 11:58:00+00', NOW)).toBe('há 2 min');
    expect(relativeTime('2026-11-27T09:00:00Z', NOW)).toBe('há 3 h');
    expect(relativeTime('2026-11-26T11:00:00Z', NOW)).toBe('há 1 dia');
    expect(relativeTime('2026-11-20T12:00:00Z', NOW)).toBe('há 7 dias');
    expect(relativeTime('2026-12-01T12:00:00Z', NOW)).toBe('agora');
  });
  it('is online within the window only', () => {
    expect(isOnline('2026-11-27 11:50:00+00', 10, NOW)).toBe(true);
    expect(isOnline('2026-11-27 11:49:59+00', 10, NOW)).toBe(false);
    expect(isOnline(null, 10, NOW)).toBe(false);
  });
  it('durations as HH:MM:SS and kilometres with one pt-BR decimal', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(630)).toBe('00:10:30');
    expect(formatDuration(3 * 3600 + 5 * 60 + 9.4)).toBe('03:05:09');
    expect(formatDuration(30 * 3600)).toBe('30:00:00');
    expect(formatKm(12.345)).toBe('12,3');
    expect(formatKm(1234.5)).toBe('1.234,5');
    expect(formatKm(0)).toBe('0,0');
  });
});

describe('arquivo cells', () => {
  it('reads the JSON text a format: arquivo column answers; anything else is no file', async () => {
    const { parseArquivo } = await import('./ArquivoCell');
    expect(parseArquivo('{"url": "/api/spool/get/7/pdf"}')).toEqual({ url: '/api/spool/get/7/pdf' });
    expect(parseArquivo('{"gerar": "/api/spool/gera/7/pdf", "erro": null}')).toEqual({ gerar: '/api/spool/gera/7/pdf', erro: null });
    expect(parseArquivo('{"gerando": true, "tarefa": 12}')).toEqual({ gerando: true, tarefa: 12 });
    expect(parseArquivo('/api/spool/get/7/pdf')).toBeNull();
    expect(parseArquivo('{quebrado')).toBeNull();
    expect(parseArquivo(null)).toBeNull();
  });
});
