import { describe, expect, it } from 'vitest';
import type { ActionMeta } from '../../../../shared/model';
import { actionOutcome, confirmText, guardState, hasPayload, recordName, typedForm } from './actions';
import { bulkOutcome } from './bulk';

const block = {
  name: 'bloqueia_motor', label: 'Bloquear motor', permission: 'tlm.fro.ativo.bloqueia_motor', bulk: true,
  payload: { type: 'object', properties: { confirmacao: { type: 'string' } } },
  guard: { provider: 'ultimo_estado', by: 'ativoId', typed: 'placa', speedAbove: 5 },
} as ActionMeta;

describe('guarded actions (engine block)', () => {
  it('takes the highest speed of the devices and asks for the plate only above the limit', () => {
    const s = guardState([
      { serial: '1', velocidade: 3, ignicao: false, ultimaComunicacao: '2026-11-27T06:00:00Z' },
      { serial: '2', velocidade: 62.4, ignicao: true, ultimaComunicacao: '2026-11-27T06:05:00Z', motoristaNome: 'Ana' },
    ], block.guard!);
    expect(s).toEqual({ speed: 62.4, moving: true, mustType: true, ultimaComunicacao: '2026-11-27T06:05:00Z', ignicao: true, motorista: 'Ana' });
    expect(guardState([{ velocidade: 5 }], block.guard!)).toMatchObject({ speed: 5, moving: false, mustType: false });
    expect(guardState([], block.guard!)).toMatchObject({ speed: null, moving: false, mustType: false, ignicao: null });
    // the unblock shows the state but never asks
    expect(guardState([{ velocidade: 40 }], { provider: 'ultimo_estado', by: 'ativoId' })).toMatchObject({ moving: true, mustType: false });
  });

  it('compares the typed plate as the server does, and asks no payload form for the typed confirmation', () => {
    expect(typedForm('mov-1a23 ')).toBe('MOV1A23');
    expect(hasPayload(block)).toBe(false);
    expect(hasPayload({ ...block, guard: undefined })).toBe(true);
  });

  it('names the vehicle and the devices that got the command', () => {
    const name = recordName({ recordRepresentation: 'descricao' }, block, { id: 7, descricao: 'Carreta', placa: 'MOV1A23' });
    expect(name).toBe('Carreta (MOV1A23)');
    const cmd = (serial: string) => ({ serial, event: 'engineBlock' });
    expect(actionOutcome(block, name, [cmd('861'), cmd('862')])).toBe('Bloquear motor — Carreta (MOV1A23): comando enfileirado para os equipamentos 861, 862');
    expect(actionOutcome(block, name, [cmd('861')])).toBe('Bloquear motor — Carreta (MOV1A23): comando enfileirado para o equipamento 861');
    // rows with a serial that are no command (links ended by Remover equipamento) are no command
    expect(actionOutcome({ label: 'Remover equipamento' }, '861', [{ serial: '861', dataFim: 'x' }])).toBe('Ação executada');
    expect(actionOutcome({ label: 'Alterar' }, 'X', { id: 1 })).toBe('Ação executada');
    expect(bulkOutcome(block, [{ id: 1, status: 201, payload: [{ serial: '861', event: 'engineBlock' }] }, { id: 2, status: 409, msg: 'em movimento' }], (id) => `V${id}`))
      .toBe('Bloquear motor: 1 executado (V1: equipamento 861), 1 recusado: V2: em movimento');
  });
});

describe('an action that says what it will do to which record and what it did (tachograph Enviar comando)', () => {
  const entity = { fields: [
    { name: 'serial', type: 'string' }, { name: 'ativo', type: 'reference' }, { name: 'dataReferencia', type: 'date' },
    { name: 'tipoArquivo', type: 'enum', options: [{ value: '7d', label: '7 dias' }] },
  ] } as never;
  it('confirm: {field} becomes the record value as the list shows it', () => {
    const record = { id: 3, serial: 'VDO1', ativo: 7, _labels: { ativo: 'Ônibus 12 — ABC1D23' }, dataReferencia: '2026-11-20', tipoArquivo: '7d' };
    expect(confirmText(entity, { confirm: 'Veículo {ativo} ({serial}): arquivo {tipoArquivo} de {dataReferencia}; {desconhecido}' }, record))
      .toBe('Veículo Ônibus 12 — ABC1D23 (VDO1): arquivo 7 dias de 20/11/2026; {desconhecido}');
    expect(confirmText(entity, { confirm: 'Veículo {ativo}' }, { id: 1, ativo: null })).toBe('Veículo —');
    expect(confirmText(entity, {}, { id: 1 })).toBe('Deseja continuar a requisição?');
  });
  it('outcome: the handler\'s resumo when it gives one', () => {
    expect(actionOutcome({ label: 'Enviar comando' }, '80', [{ serial: 'VDO1', event: 'tacografoInterrupt', resumo: 'Interromper transferência: enfileirado para o veículo X' }]))
      .toBe('Enviar comando — 80: Interromper transferência: enfileirado para o veículo X');
  });
});
