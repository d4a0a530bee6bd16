import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitColumns } from './emit/columns.ts';
import { MetadataError } from './errors.ts';
import { buildModel } from './generate.ts';
import type { Model } from '../shared/model.ts';
import { REPO } from './test-helpers.ts';

describe('columns.ts emitter', () => {
  const model = buildModel(join(REPO, 'metadata'));

  it('emits table and every column (system fields included) per entity, deterministically', () => {
    const out = emitColumns(model);
    const ativo = out.slice(out.indexOf('export const ativo = {'));
    expect(ativo.slice(0, ativo.indexOf('} as const;'))).toContain(`  table: "ativo",\n  id: "id",\n  empresaId: "empresa_id",`);
    expect(ativo).toContain(`  idGaragem: "id_garagem",`);
    expect(out).toContain(`export const fila_processamento = {\n  table: "fila_processamento",`);
    expect(out).toMatch(/createdAt: "created_at",\n  updatedAt: "updated_at",\n\} as const;/);
    expect(out.match(/^export const \w+ = \{$/gm)).toHaveLength(model.entities.length);
    expect(emitColumns(model)).toBe(out);
  });

  it('refuses a field named table (it would shadow the table name)', () => {
    const e = model.entities.find((x) => x.key === 'ativo')!;
    const bad = { ...model, entities: [{ ...e, fields: [...e.fields, { ...e.fields[1], name: 'table', column: 'table' }] }] } as Model;
    expect(() => emitColumns(bad)).toThrow(MetadataError);
    expect(() => emitColumns(bad)).toThrow('campo não pode se chamar "table"');
  });
});

describe('list column display', () => {
  const model = buildModel(join(REPO, 'metadata'));
  it('keeps width and wrap as declared (the tachograph log: short values fixed, description and message wrap), nothing when absent', () => {
    const cols = model.entities.find((x) => x.key === 'log_tacografo')!.columns;
    expect(cols.filter((c) => c.default).map((c) => [c.source, c.width ?? null, c.wrap ?? null])).toEqual([
      ['time', 195, null], ['ativo', 140, null], ['placa', 130, null], ['evento', 235, null], ['descricao', null, true], ['arquivoVDR', 330, null], ['mensagem', null, true],
    ]);
    expect(cols.every((c) => !('wrap' in c) || c.wrap === true)).toBe(true);
  });
});
