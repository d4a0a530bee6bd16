// Metadata `compare` (cross-field comparisons): normalization, the emitted x-compare and the ajv keyword the server
// and the form share (compareKeyword), with the declared pt-BR message on the compared field.
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { entitySchema } from './emit/schemas.ts';
import { compareFailures, compareKeyword, declaredMessage } from '../shared/messages.ts';
import { schemaKeywords } from './keywords.ts';
import { editYaml, metadataProblems, tempProjects } from './test-helpers.ts';

const project = tempProjects();
const addFormats = (addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport;

describe('compare', () => {
  it('emits x-compare and the keyword refuses the row with the declared message on the field', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const e = m.entities.find((x) => x.key === 'motorista_temporario')!;
    expect(e.compare).toEqual([{ field: 'dataFim', op: 'gt', other: 'dataInicio', message: 'O fim deve ser posterior ao início' }]);
    const schema = entitySchema(e, m) as Record<string, unknown>;
    expect(schema['x-compare']).toEqual([{ field: 'dataFim', op: 'gt', other: 'dataInicio', message: 'O fim deve ser posterior ao início' }]);
    const ajv = new Ajv({ allErrors: true, strict: true, keywords: [...schemaKeywords.filter((k) => k !== 'x-compare'), compareKeyword as any] });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const body = { motoristaId: 1, ativoId: 2 };
    expect(validate({ ...body, dataInicio: '2026-01-01T10:00:00.000Z', dataFim: '2026-01-01T10:00:01.000Z' })).toBe(true);
    // the same instant written with another offset is not after it
    expect(validate({ ...body, dataInicio: '2026-01-01T10:00:00.000Z', dataFim: '2026-01-01T07:00:00-03:00' })).toBe(false);
    expect(validate.errors!.map((x) => [x.instancePath, x.keyword, declaredMessage(schema, 'dataFim', x.keyword, x.schemaPath, x.params)]))
      .toEqual([['/dataFim', 'x-compare', 'O fim deve ser posterior ao início']]);
    const servico = m.entities.find((x) => x.key === 'servico')!;
    expect(servico.compare).toEqual([{ field: 'maximo', op: 'gte', other: 'minimo', message: 'O máximo deve ser maior ou igual ao mínimo' }]);
  });

  it('compares numbers, dates and times; null or absent on either side is no check', () => {
    const rules = [
      { field: 'b', op: 'gte' as const, other: 'a', message: 'B' },
      { field: 'd', op: 'lt' as const, other: 'c', message: 'D' },
    ];
    expect(compareFailures(rules, { a: 5, b: 5, c: '10:00', d: '09:59' })).toEqual([]);
    expect(compareFailures(rules, { a: 5, b: 4.9, c: '10:00', d: '10:00:00' }).map(([i]) => i)).toEqual([0, 1]);
    expect(compareFailures(rules, { a: null, b: 1, d: '23:00' })).toEqual([]);
    expect(compareFailures(rules, { a: '2026-02-01', b: '2026-01-31' }).map(([i]) => i)).toEqual([0]);
    expect(compareFailures(rules, { a: '2026-02-01', b: '2026-02-01T00:00:00Z' })).toEqual([]);
  });

  it('refuses unknown, read-only and non-comparable fields and a missing or doubled operator', async () => {
    const p = project();
    editYaml(p, 'tlm/servico.yaml', (d) => {
      d.compare = [{ field: 'maximo', gt: 'naoExiste', message: 'X' }, { field: 'descricao', gt: 'minimo', message: 'X' }];
    });
    expect(await metadataProblems(() => buildModel(p.metadata))).toEqual([
      'metadata/tlm/servico.yaml: /compare/0/gt: campo desconhecido: naoExiste',
      'metadata/tlm/servico.yaml: /compare/1/field: deve ser um campo integer, number, date, datetime ou time: descricao',
    ]);
    const q = project();
    editYaml(q, 'tlm/servico.yaml', (d) => {
      d.compare = [{ field: 'maximo', message: 'X' }, { field: 'maximo', gt: 'minimo', lt: 'quilometragem', message: 'X' }];
    });
    expect(await metadataProblems(() => buildModel(q.metadata))).toEqual([
      'metadata/tlm/servico.yaml: /compare/0: não deve ter menos que 3 propriedades',
      'metadata/tlm/servico.yaml: /compare/1: não deve ter mais que 3 propriedades',
    ]);
  });

  it('contains: the list must hold the other field\'s value; checked only when both are present', () => {
    const rules = [{ field: 'empresas', op: 'contains' as const, other: 'empresaAtiva', message: 'E' }];
    expect(compareFailures(rules, { empresas: [1, 2], empresaAtiva: 2 })).toEqual([]);
    expect(compareFailures(rules, { empresas: ['1', '2'], empresaAtiva: 2 })).toEqual([]);
    expect(compareFailures(rules, { empresas: [1], empresaAtiva: 2 }).map(([i, c]) => [i, c.message])).toEqual([[0, 'E']]);
    expect(compareFailures(rules, { empresas: [1], empresaAtiva: null })).toEqual([]);
    expect(compareFailures(rules, { empresaAtiva: 2 })).toEqual([]);
  });

  it('contains needs a referenceList and a reference to the same register; pick names a field of that register', async () => {
    const p = project();
    editYaml(p, 'adm/usuario.yaml', (d) => {
      d.compare = [{ field: 'nome', contains: 'empresaAtiva', message: 'X' }, { field: 'cargos', contains: 'empresaAtiva', message: 'X' }];
      const f = d.fields.find((x: any) => x.name === 'empresas');
      f.pick = { secondLabel: 'naoExiste', colorSecond: '#000' };
      d.fields.find((x: any) => x.name === 'nome').pick = { secondLabel: 'status' };
    });
    expect(await metadataProblems(() => buildModel(p.metadata))).toEqual([
      'metadata/adm/usuario.yaml: /fields/0/pick: pick vale só para campos referenceList',
      'metadata/adm/usuario.yaml: /compare/0/field: contains exige um campo referenceList: nome',
      'metadata/adm/usuario.yaml: /compare/1/contains: contains exige uma referência ao mesmo cadastro de cargos: empresaAtiva',
      'metadata/adm/usuario.yaml: /fields/4/pick/secondLabel: campo desconhecido em empresa: naoExiste',
    ]);
  });
});

