import { describe, expect, it } from 'vitest';
import { CommandValidationError } from '../types.ts';
import { compileConfigTemplate } from './config.ts';
import { encode } from './encoder.ts';
import { queclinkDecoder } from './index.ts';

const TEMPLATE = `# GTFRI: intervals; GTCFG: sleep (hours)
AT+GTFRI={senha},1,0,,,0000,0000,{intervaloIgnicaoLigada},{intervaloIgnicaoLigada},,,,,{anguloMudancaDirecao},{intervaloIgnicaoDesligada},{serial}$

  AT+GTCFG={senha},,,{periodoSono/60},{alarmeMudancaDirecao},{mensagemGateway},{serial}$
`;

const values = { intervaloIgnicaoLigada: 30, intervaloIgnicaoDesligada: 3600, anguloMudancaDirecao: 45, periodoSono: 90, alarmeMudancaDirecao: true, mensagemGateway: null };

describe('configuration templates (@Track)', () => {
  it('renders each line with the parameters, which the encoder turns into the AT commands', () => {
    const t = compileConfigTemplate(TEMPLATE);
    expect(t.fields).toEqual(['intervaloIgnicaoLigada', 'anguloMudancaDirecao', 'intervaloIgnicaoDesligada', 'periodoSono', 'alarmeMudancaDirecao', 'mensagemGateway']);
    const commands = t.render(values);
    expect(commands).toEqual([
      { group: 'GTFRI', values: ['1', '0', '', '', '0000', '0000', 30, 30, '', '', '', '', 45, 3600] },
      { group: 'GTCFG', values: ['', '', 2, 1, ''] },
    ]);
    const frames = commands.map((c, i) => encode({ type: 'writeConfig', model: 'gv300', serial: 0x20 + i, params: { ...c } }).toString('ascii'));
    expect(frames).toEqual([
      'AT+GTFRI=gv300,1,0,,,0000,0000,30,30,,,,,45,3600,0020$',
      'AT+GTCFG=gv300,,,2,1,,0021$',
    ]);
  });

  it('scales by * and rounds a division', () => {
    const t = compileConfigTemplate('AT+GTCFG={senha},{periodoSono*60},{periodoSono/7},{serial}$');
    expect(t.render({ periodoSono: 30 })[0]!.values).toEqual([1800, 4]);
  });

  it('is offered by the @Track decoder', () => {
    expect(queclinkDecoder.configTemplate!('AT+GTFRI={senha},{a},{serial}$').fields).toEqual(['a']);
  });

  it('empty text and comments: no commands', () => {
    expect(compileConfigTemplate('').render({})).toEqual([]);
    expect(compileConfigTemplate('# nada\n\n').render({})).toEqual([]);
  });

  it('refuses malformed lines, naming the line, in pt-BR', () => {
    const cases: [string, string][] = [
      ['GTFRI={senha},1,{serial}$', 'Linha 1: o comando deve ter a forma AT+GTXXX={senha},…,{serial}$'],
      ['AT+GTFRI=gv300,1,{serial}$', 'Linha 1: o primeiro campo deve ser {senha}'],
      ['# x\nAT+GTFRI={senha},1,FFFF$', 'Linha 2: o último campo deve ser {serial}'],
      ['AT+GTFRI={senha},{a b},{serial}$', "Linha 1: campo inválido '{a b}': use {campo}, {campo*N} ou {campo/N}"],
      ['AT+GTFRI={senha},{a*0},{serial}$', "Linha 1: campo inválido '{a*0}': use {campo}, {campo*N} ou {campo/N}"],
      ['AT+GTFRI={senha},{serial},{serial}$', 'Linha 1: {serial} só pode ser o último campo'],
      ['AT+GTFRI={senha},{senha},{serial}$', 'Linha 1: {senha} só pode ser o primeiro campo'],
      ['AT+GTFRI={senha},ção,{serial}$', "Linha 1: campo inválido 'ção': só caracteres ASCII visíveis, sem '$'"],
      ['AT+GTFRI={senha},a$b,{serial}$', "Linha 1: campo inválido 'a$b': só caracteres ASCII visíveis, sem '$'"],
      [Array(31).fill('AT+GTFRI={senha},{serial}$').join('\n'), 'São no máximo 30 comandos de configuração por modelo'],
    ];
    for (const [text, message] of cases) {
      let err: unknown;
      try { compileConfigTemplate(text); } catch (e) { err = e; }
      expect(err, text).toBeInstanceOf(CommandValidationError);
      expect((err as Error).message, text).toBe(message);
    }
  });

  it('refuses values that would break the command, naming the parameter', () => {
    const t = compileConfigTemplate('AT+GTCFG={senha},{mensagemGateway},{periodoSono*2},{serial}$');
    expect(() => t.render({ mensagemGateway: 'a,b' }, { mensagemGateway: 'Mensagem do gateway' }))
      .toThrow("O campo Mensagem do gateway não pode conter ',', '$' ou quebras de linha num comando de configuração");
    expect(() => t.render({ periodoSono: 'x' }, { periodoSono: 'Período de sono' })).toThrow('O campo Período de sono não é numérico: não pode ser escalado');
    expect(t.render({ mensagemGateway: 'Olá' })[0]!.values).toEqual(['Olá', '']);
    // the encoder still refuses what a device cannot take
    expect(() => encode({ type: 'writeConfig', params: { ...t.render({ mensagemGateway: 'Olá' })[0]! } })).toThrow('O campo values[0] contém caracteres inválidos');
  });
});
