import { describe, expect, it } from 'vitest';
import type { RJSFValidationError } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import type { EntityMeta } from '../../../../shared/model';
import { buildUiSchema, makeTransformErrors, payloadFields, payloadShadows, pickErrors, schemaDefaults, serverErrorSchema, toFormData } from '../lib/schemaUi';
import { initialChoices, toggleChoice } from '../lib/useColumnChoices';
import { rangeFilter, rangeFromFilter, rangeLabel, shortcuts } from './DateRangeFilter';
import { historyRows } from './HistoryDialog';
import { formatDate } from '../lib/format';

const f = (name: string, type: string, label: string, extra: Record<string, unknown> = {}) => ({
  name, column: name, type, label, required: false, unique: false, upperCase: false, readOnly: false, hidden: false, writeOnly: false, system: false, ...extra,
});

const entity = {
  key: 'ativo',
  route: '/tlm/fro/ativo',
  permission: 'tlm.fro.ativo',
  fields: [
    f('id', 'integer', 'ID', { system: true, readOnly: true }),
    f('descricao', 'string', 'Descrição', { required: true }),
    f('placa', 'string', 'Placa', { required: true, upperCase: true, patternMessage: 'Placa inválida: use o formato AAA-1234 ou AAA1A23' }),
    f('idGaragem', 'reference', 'Garagem', { reference: 'garagem' }),
    f('ano', 'integer', 'Ano'),
    f('roles', 'json', 'Perfis especiais'),
  ],
  columns: [
    { source: 'descricao', label: 'Descrição', sortable: true, default: true },
    { source: 'placa', label: 'Placa', sortable: true, default: true },
    { source: 'ano', label: 'Ano', sortable: true, default: false },
  ],
  form: { sections: [{ title: 'Identificação', fields: ['descricao', 'placa', 'idGaragem'] }] },
} as unknown as EntityMeta;

const schema: JSONSchema7 = {
  type: 'object',
  required: ['descricao', 'placa'],
  properties: {
    descricao: { type: 'string', title: 'Descrição', maxLength: 120 },
    placa: { type: 'string', title: 'Placa', pattern: '^[A-Z]{3}' },
    idGaragem: { type: ['integer', 'null'], title: 'Garagem' },
    ano: { type: 'integer', title: 'Ano', minimum: 1950 },
    roles: { type: ['array', 'null'], title: 'Perfis especiais', items: { type: 'string', enum: ['wiki', 'dev'], 'x-enumNames': ['Wiki', 'Desenvolvedor'] } as JSONSchema7 },
  },
};

const err = (name: string, property: string, params: Record<string, unknown>): RJSFValidationError => ({ name, property, params, message: 'x', stack: 'x' });

describe('action payload fields', () => {
  it('describe the payload properties the entity lacks: reference picker, enum select, required', () => {
    const payload = {
      type: 'object', required: ['macro'],
      properties: {
        macro: { type: 'integer', minimum: 1, title: 'Macro', 'x-reference': 'macro_teclado' },
        status: { type: 'string', title: 'Status', enum: ['ativo', 'inativo'], 'x-enumNames': ['Ativo', 'Inativo'] },
        observacao: { type: ['string', 'null'], title: 'Observação' },
        idGaragem: { type: 'integer', title: 'Outra garagem' },
      },
    } as unknown as JSONSchema7;
    expect(payloadFields(entity, payload).map((x) => [x.name, x.type, x.label, x.required, x.reference ?? null, x.options ?? null])).toEqual([
      ['macro', 'reference', 'Macro', true, 'macro_teclado', null],
      ['status', 'enum', 'Status', false, null, [{ value: 'ativo', label: 'Ativo' }, { value: 'inativo', label: 'Inativo' }]],
      ['observacao', 'string', 'Observação', false, null, null],
    ]);
  });

  it("a property named like an entity field of another kind gets its own field (the transfer's motivo text vs the interrupt's reason code)", () => {
    const payload = {
      type: 'object',
      properties: {
        descricao: { type: 'integer', title: 'Motivo', enum: [0, 2], 'x-enumNames': ['Sem erro', 'VDR interrompido'] },
        placa: { type: 'string', title: 'Placa' },
        ano: { type: 'boolean', title: 'Ano novo' },
        idGaragem: { type: 'integer', title: 'Outra garagem' },
      },
    } as unknown as JSONSchema7;
    expect([...payloadShadows(entity, payload)]).toEqual(['descricao', 'ano']);
    expect(payloadFields(entity, payload).map((x) => [x.name, x.type, x.label, x.options ?? null])).toEqual([
      ['descricao', 'enum', 'Motivo', [{ value: '0', label: 'Sem erro' }, { value: '2', label: 'VDR interrompido' }]],
      ['ano', 'boolean', 'Ano novo', null],
    ]);
  });
});

describe('form helpers', () => {
  it('derive the uiSchema from the entity', () => {
    const ui = buildUiSchema(entity, schema);
    expect(ui['ui:order']).toEqual(['descricao', 'placa', 'idGaragem', '*']);
    expect(ui.placa['ui:widget']).toBe('upperCase');
    expect(ui.idGaragem['ui:widget']).toBe('reference');
    expect(ui.roles['ui:widget']).toBe('enumMulti');
    expect(ui.roles['ui:options'].options).toEqual([{ value: 'wiki', label: 'Wiki' }, { value: 'dev', label: 'Desenvolvedor' }]);
  });

  it('localize ajv errors with the spec wording', () => {
    const t = makeTransformErrors(entity, schema);
    const out = t([
      err('required', '.placa', { missingProperty: 'placa' }),
      err('pattern', '.placa', { pattern: '^[A-Z]{3}' }),
      err('minimum', '.ano', { limit: 1950 }),
      err('maxLength', '.descricao', { limit: 120 }),
    ]);
    expect(out.map((e) => e.message)).toEqual([
      'O campo Placa é obrigatório',
      'Placa inválida: use o formato AAA-1234 ou AAA1A23',
      'O campo Ano deve ser maior ou igual a 1950',
      'O campo Descrição deve ter no máximo 120 caracteres',
    ]);
    expect(out[0].property).toBe('.placa');
  });

  it('show only touched fields before submit, server errors on fields', () => {
    const es = { placa: { __errors: ['O campo Placa é obrigatório'] }, descricao: { __errors: ['O campo Descrição é obrigatório'] } } as any;
    expect(pickErrors(es, new Set(['placa']))).toEqual({ placa: { __errors: ['O campo Placa é obrigatório'] } });
    expect(pickErrors(es, new Set())).toBeUndefined();
    expect(pickErrors(es, 'all')).toBe(es);
    expect(serverErrorSchema({ placa: 'Já existe' })).toEqual({ placa: { __errors: ['Já existe'] } });
  });

  it('keep only writable properties of a record', () => {
    expect(toFormData({ id: 3, descricao: 'A', placa: 'ABC1234', createdAt: 'x' }, schema)).toEqual({ descricao: 'A', placa: 'ABC1234' });
    // a new row starts with the schema's defaults (useSchemaForm), as rjsf shows them
    expect(schemaDefaults({ properties: { a: { type: 'string', default: 'queclink' }, b: { type: 'boolean', default: false }, c: { type: 'string' } } })).toEqual({ a: 'queclink', b: false });
  });
});

describe('column chooser', () => {
  it('start from defaults or the saved choice, never with zero columns', () => {
    expect(initialChoices(entity).filter((c) => c.selected).map((c) => c.key)).toEqual(['descricao', 'placa']);
    const saved = [{ key: 'descricao', label: 'Descrição', selected: false }, { key: 'ano', label: 'Ano', selected: true }];
    // saved order first (the user's column order); columns missing from the saved list come after
    expect(initialChoices(entity, saved).filter((c) => c.selected).map((c) => c.key)).toEqual(['ano', 'placa']);
    const one = toggleChoice(initialChoices(entity), 'placa');
    expect(toggleChoice(one, 'descricao')).toBe(one); // the last column stays
  });
});

describe('date range', () => {
  const now = new Date(2024, 4, 15, 10, 0, 0);
  it('shortcuts follow the spec', () => {
    const r = Object.fromEntries(shortcuts.map((s) => [s.label, s.range(now)]));
    expect(Object.keys(r)).toEqual(['Hoje', 'Ontem', 'Ontem e hoje', 'Últimos 7 dias', 'Últimos 30 dias', 'Último trimestre', 'Último semestre']);
    expect(r.Hoje).toEqual({ from: '2024-05-15', to: '2024-05-15' });
    expect(r['Ontem e hoje']).toEqual({ from: '2024-05-14', to: '2024-05-15' });
    expect(r['Último trimestre'].from).toBe('2024-02-15');
  });
  it('label and filter round trip', () => {
    expect(rangeLabel(null)).toBe('Ultimos Registros');
    expect(rangeLabel({ from: '2024-05-01', to: '2024-05-15' })).toBe('01-05-2024 até 15-05-2024');
    const fv = rangeFilter('dataLogin', { from: '2024-05-01', to: '2024-05-15' });
    expect(Object.keys(fv)).toEqual(['dataLogin_gte', 'dataLogin_lte']);
    expect(rangeFromFilter('dataLogin', fv)).toEqual({ from: '2024-05-01', to: '2024-05-15' });
    expect(formatDate('2024-05-01')).toBe('01-05-2024');
  });
});

describe('history', () => {
  it('one row per changed field with before/after', () => {
    const rows = historyRows(
      [{ id: 1, data: '2024-05-15T10:00:00Z', login: 'admin', operacao: 'update', alteracoes: { placa: { antes: 'AAA1111', depois: 'BBB2222' } } } as any],
      entity,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ quem: 'admin', operacao: 'Alteração', campo: 'Placa', antes: 'AAA1111', depois: 'BBB2222' });
  });
});

describe('server errors on fields', async () => {
  const { fieldErrorsOf } = await import('../lib/errors');
  it('maps a unique-conflict 409 to its field', () => {
    const ent = { ...entity, fields: entity.fields.map((x) => (x.name === 'placa' ? { ...x, unique: true } : x)) } as EntityMeta;
    expect(fieldErrorsOf({ status: 409, message: 'Já existe um registro com o valor informado em Placa', body: { errors: {} } }, ent)).toEqual({ placa: 'Já existe um registro com o valor informado em Placa' });
    expect(fieldErrorsOf({ status: 400, message: 'x', body: { errors: { ano: 'O campo Ano é inválido' } } }, ent)).toEqual({ ano: 'O campo Ano é inválido' });
  });
});
