import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../../runtime/src/crud/lib/format';
import { comPosicao, contagem, emExcesso, estadoDe, filtrar, linhasPopup, linksPopup, porGaragem, rumo, SEM_COMUNICACAO_MS, type UltimoEstado } from './estado';

const now = Date.parse('2026-11-23T15:00:00Z');
const row = (p: Partial<UltimoEstado>): UltimoEstado => ({
  serial: '864000000000001', ativoId: 1, ativoDescricao: 'Caminhão Baú', placa: 'ABC-1D23', fixTime: null,
  latitude: -23.5, longitude: -46.6, velocidade: 42.4, direcao: 93, ignicao: true,
  ultimaComunicacao: new Date(now - 60_000).toISOString(), ...p,
});

describe('live tracking state', () => {
  it('classifies em movimento / parado / desligado / sem comunicação as the home page does', () => {
    expect(estadoDe(row({}), now)).toBe('em_movimento');
    expect(estadoDe(row({ ignicao: null }), now)).toBe('em_movimento');
    expect(estadoDe(row({ velocidade: 0 }), now)).toBe('parado');
    expect(estadoDe(row({ velocidade: null }), now)).toBe('parado');
    expect(estadoDe(row({ ignicao: false }), now)).toBe('desligado');
    expect(estadoDe(row({ ignicao: null, velocidade: 0 }), now)).toBe('desligado');
    expect(estadoDe(row({ ultimaComunicacao: new Date(now - SEM_COMUNICACAO_MS - 1).toISOString() }), now)).toBe('sem_comunicacao');
    expect(estadoDe(row({ ultimaComunicacao: null }), now)).toBe('sem_comunicacao');
    expect(contagem([row({}), row({ velocidade: 0 }), row({ ignicao: false }), row({ ultimaComunicacao: null })], now))
      .toEqual({ em_movimento: 1, parado: 1, desligado: 1, sem_comunicacao: 1 });
  });

  it('takes the company\'s "sem comunicação" time when given', () => {
    const r = row({ ultimaComunicacao: new Date(now - 30 * 60_000).toISOString() });
    expect(estadoDe(r, now)).toBe('sem_comunicacao');
    expect(estadoDe(r, now, 60 * 60_000)).toBe('em_movimento');
    expect(contagem([r], now, 60 * 60_000)).toEqual({ em_movimento: 1, parado: 0, desligado: 0, sem_comunicacao: 0 });
  });

  it('speeding only above a limit the company set', () => {
    expect(emExcesso(row({ velocidade: 81 }), 80)).toBe(true);
    expect(emExcesso(row({ velocidade: 80 }), 80)).toBe(false);
    expect(emExcesso(row({ velocidade: 200 }), 0)).toBe(false);
    expect(emExcesso(row({ velocidade: 200 }), null)).toBe(false);
  });

  it('groups the side list by garage, by name, vehicles without one last', () => {
    const items = porGaragem([row({ serial: '1', garagem: 'Sul' }), row({ serial: '2', garagem: null }), row({ serial: '3', garagem: 'Norte' }), row({ serial: '4', garagem: 'Sul' })]);
    expect(items.map((i) => ('garagem' in i ? `${i.garagem} (${i.total})` : i.r.serial))).toEqual(['Norte (1)', '3', 'Sul (2)', '1', '4', 'Sem garagem (1)', '2']);
  });

  it('keeps only rows with a usable position', () => {
    const rows = [row({}), row({ latitude: null }), row({ latitude: 0, longitude: 0 }), row({ latitude: 95 })];
    expect(comPosicao(rows)).toHaveLength(1);
  });

  it('searches description, plate (with or without dash) and serial, ignoring case and accents', () => {
    const rows = [row({}), row({ serial: '2', ativoDescricao: 'Van', placa: 'XYZ9A99' })];
    expect(filtrar(rows, 'caminhao').map((r) => r.serial)).toEqual(['864000000000001']);
    expect(filtrar(rows, 'abc1d').map((r) => r.serial)).toEqual(['864000000000001']);
    expect(filtrar(rows, 'xyz-9a').map((r) => r.serial)).toEqual(['2']);
    expect(filtrar(rows, '0000001')).toHaveLength(1);
    expect(filtrar(rows, '  ')).toHaveLength(2);
  });

  it('popup lines and course buckets', () => {
    const lines = Object.fromEntries(linhasPopup(row({ ultimaComunicacao: null, velocidade: null, ignicao: null })));
    expect(lines).toEqual({ Placa: 'ABC-1D23', Motorista: 'Sem motorista identificado', Velocidade: 'Sem informação', Ignição: 'Sem informação', Garagem: 'Sem garagem', 'Data da posição': 'Sem informação', 'Última comunicação': 'Sem informação' });
    expect(Object.fromEntries(linhasPopup(row({ garagem: 'Matriz', fixTime: new Date(2026, 10, 23, 9, 5, 7).toISOString() })))).toMatchObject({ Garagem: 'Matriz', 'Data da posição': 'segunda-feira, 23 de novembro de 2026 às 09:05:07' });
    expect(Object.fromEntries(linhasPopup(row({ motoristaNome: 'Ana Lima' }))).Motorista).toBe('Ana Lima');
    expect(Object.fromEntries(linhasPopup(row({ ignicao: false })))).toMatchObject({ Velocidade: '42 km/h', Ignição: 'Desligada' });
    expect([rumo(93), rumo(356), rumo(null)]).toEqual([90, 0, null]);
  });

  it('formats timestamps as weekday, day month year at HH:mm:ss in Portuguese', () => {
    expect(formatTimestamp(new Date(2026, 10, 23, 9, 5, 7))).toBe('segunda-feira, 23 de novembro de 2026 às 09:05:07');
    expect(formatTimestamp(new Date(2024, 2, 2, 23, 59, 0))).toBe('sábado, 2 de março de 2024 às 23:59:00');
    expect(formatTimestamp(null)).toBe('Sem informação');
    expect(formatTimestamp('')).toBe('Sem informação');
    expect(formatTimestamp('não é data')).toBe('Sem informação');
  });

  it('popup links: record, today\'s replay and engine block, as the keys allow; none without a vehicle', () => {
    const all = { cadastro: true, historico: true, bloqueio: true };
    expect(linksPopup(row({ ativoId: 12 }), all, new Date(2026, 10, 3, 9))).toEqual([
      ['Abrir cadastro', '/tlm/fro/ativo/12'],
      ['Histórico de rastreamento', '/tlm/ras/historico_rastreamento?ativoId=12&inicio=2026-11-03&fim=2026-11-03'],
      ['Bloquear motor', '/tlm/fro/ativo/12/bloqueia_motor'],
    ]);
    expect(linksPopup(row({ ativoId: 12 }), { cadastro: false, historico: true, bloqueio: false }).map(([k]) => k)).toEqual(['Histórico de rastreamento']);
    expect(linksPopup(row({ ativoId: null }), all)).toEqual([]);
  });
});

describe('pushed rows', () => {
  it('replace the rows of their serials, add new serials at the end, or replace all when complete', async () => {
    const { aplicar } = await import('./estado');
    const a = row({ serial: 'A' }), b = row({ serial: 'B' });
    const b2 = row({ serial: 'B', latitude: -22, velocidade: 80 }), c = row({ serial: 'C' });
    expect(aplicar([a, b], { rows: [b2, c], completo: false })).toEqual([a, b2, c]);
    const same = [a, b];
    expect(aplicar(same, { rows: [], completo: false })).toBe(same);
    expect(aplicar([a, b], { rows: [c], completo: true })).toEqual([c]);
  });
});

describe('one "sem comunicação" window', () => {
  it('is the vehicle list Conexão column\'s (ativo.yaml onlineMinutes)', async () => {
    const { readFileSync } = await import('node:fs');
    const ativo = readFileSync(new URL('../../../metadata/tlm/ativo.yaml', import.meta.url), 'utf8');
    const minutes = Number(/onlineMinutes:\s*(\d+)/.exec(ativo)![1]);
    expect(SEM_COMUNICACAO_MS).toBe(minutes * 60_000);
  });
});
