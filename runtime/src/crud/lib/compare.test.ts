// The form's validator checks the schema's cross-field comparisons (x-compare) like the server: the declared pt-BR
// message under the compared field before submit; null on either side is no check.
import { describe, expect, it } from 'vitest';
import type { JSONSchema7 } from 'json-schema';
import type { EntityMeta } from '../../../../shared/model';
import { makeTransformErrors, pickErrors } from './schemaUi';
import { validator } from './validator';

const f = (name: string, type: string, label: string) => ({
  name, column: name, type, label, required: false, unique: false, upperCase: false, readOnly: false, hidden: false, writeOnly: false, system: false,
});
const entity = {
  key: 'motorista_temporario', fields: [f('dataInicio', 'datetime', 'Início'), f('dataFim', 'datetime', 'Fim'), f('observacao', 'text', 'Observação')],
  form: { sections: [{ title: 'Motorista temporário', fields: ['dataInicio', 'dataFim', 'observacao'] }] },
} as unknown as EntityMeta;
const schema = {
  type: 'object',
  required: ['dataInicio', 'dataFim'],
  properties: {
    dataInicio: { type: 'string', format: 'date-time', title: 'Início' },
    dataFim: { type: 'string', format: 'date-time', title: 'Fim' },
    observacao: { type: ['string', 'null'], title: 'Observação' },
  },
  'x-compare': [{ field: 'dataFim', op: 'gt', other: 'dataInicio', message: 'O fim deve ser posterior ao início' }],
} as unknown as JSONSchema7;

const check = (data: Record<string, unknown>) => validator.validateFormData(data, schema as any, undefined, makeTransformErrors(entity, schema) as any);

describe('x-compare in the form', () => {
  it('shows the declared message under the field when the end is not after the start', () => {
    const bad = check({ dataInicio: '2026-05-01T10:00:00.000Z', dataFim: '2026-05-01T09:59:00.000Z' });
    expect(bad.errors.map((e) => [e.property, e.message])).toEqual([['.dataFim', 'O fim deve ser posterior ao início']]);
    expect(pickErrors(bad.errorSchema, new Set(['dataFim']))).toEqual({ dataFim: { __errors: ['O fim deve ser posterior ao início'] } });
    expect(check({ dataInicio: '2026-05-01T10:00:00.000Z', dataFim: '2026-05-01T10:00:00.000Z' }).errors.map((e) => e.message)).toEqual(['O fim deve ser posterior ao início']);
  });

  it('accepts a later end, and no check while either side is empty', () => {
    expect(check({ dataInicio: '2026-05-01T10:00:00.000Z', dataFim: '2026-05-01T10:00:01.000Z' }).errors).toEqual([]);
    expect(check({ dataFim: '2026-05-01T10:00:00.000Z' }).errors.map((e) => e.message)).toEqual(['O campo Início é obrigatório']);
  });
});
