// The handler registry and the payload check, without a server.
import { describe, expect, it } from 'vitest';
import type { ActionMeta, EntityMeta } from '../../shared/model.ts';
import { actionHandlers, handlerOf, readPayload, validatePayload } from './actions.ts';
import '../calls/index.ts'; // the modules' handlers (modules/*/server.ts)

const entity = { key: 'ativo', file: 'metadata/tlm/ativo.yaml', fields: [] } as unknown as EntityMeta;
const action = (extra: Partial<ActionMeta>): ActionMeta => ({ name: 'x', label: 'X', permission: 'tlm.fro.ativo.x', bulk: false, ...extra });

describe('handler actions', () => {
  it('an unknown handler is refused when the routes are built (start-up), naming the file and action', () => {
    expect(() => handlerOf(entity, action({ handler: 'nao_existe' }))).toThrow('metadata/tlm/ativo.yaml: ação x: handler desconhecido: nao_existe');
    expect(handlerOf(entity, action({ handler: 'bloqueia_motor' }))).toBe(actionHandlers.bloqueia_motor);
  });

  it('validates the payload with pt-BR messages; an empty body is {}', async () => {
    const a = action({ handler: 'bloqueia_motor', payload: { type: 'object', additionalProperties: false, required: ['saida'], properties: { saida: { type: 'integer', minimum: 1, maximum: 3, title: 'Saída' } } } });
    expect(validatePayload(entity, a, { saida: 2 })).toEqual({ saida: 2 });
    expect(() => validatePayload(entity, a, {})).toThrow('O campo Saída é obrigatório');
    expect(() => validatePayload(entity, a, { saida: 4 })).toThrow('O campo Saída deve ser no máximo 3');
    expect(() => validatePayload(entity, a, { saida: 1, outra: 1 })).toThrow('Campo desconhecido: outra');
    expect(() => validatePayload(entity, a, [1])).toThrow('Corpo da requisição inválido: esperado um objeto JSON');
    expect(await readPayload({ text: async () => '  ' })).toEqual({});
    await expect(readPayload({ text: async () => '{x' })).rejects.toThrow('Corpo da requisição inválido: JSON malformado');
  });
});
