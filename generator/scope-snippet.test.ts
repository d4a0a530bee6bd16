// Computed-column snippets state their company with {scope:alias}: the generator expands it through the scope
// module's text rules (shared/scope-sql.ts) and refuses a hand-written company condition or a table without it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from './test-helpers.ts';

const project = tempProjects();
const problems = (p: TempProject) => metadataProblems(() => buildModel(p.metadata));
const equipamentos = (d: any) => d.list.columns.find((c: any) => c.source === 'equipamentosList');

describe('{scope:alias} in computed columns', () => {
  it('expands to the same-company condition of the row in the model', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const ativo = m.entities.find((e) => e.key === 'ativo')!;
    const sql = ativo.columns.find((c) => c.source === 'equipamentosList')!.sql!;
    expect(sql).toContain('WHERE ea.ativo_id = {this}.id AND ea.empresa_id = {this}.empresa_id');
    expect(JSON.stringify(m.entities.map((e) => e.columns))).not.toContain('{scope:');
  });

  it('refuses empresa_id by hand, an unknown alias and a table read without {scope}', async () => {
    const p = project();
    let i = -1, j = -1;
    editYaml(p, 'tlm/ativo.yaml', (d) => {
      const c = equipamentos(d);
      i = d.list.columns.indexOf(c);
      c.sql = '(SELECT string_agg(ea.serial, \', \') FROM equipamento_ativo ea WHERE ea.ativo_id = {this}.id AND ea.empresa_id = {this}.empresa_id)';
      j = d.list.columns.push({ ...c, source: 'outra', label: 'Outra', sql: '(SELECT count(*) FROM equipamento_ativo ea WHERE ea.ativo_id = {this}.id AND {scope:x})' }) - 1;
    });
    expect(await problems(p)).toEqual([
      `metadata/tlm/ativo.yaml: /list/columns/${i}/sql: a condição de empresa se escreve {scope:alias}, não empresa_id/ambiente_id`,
      `metadata/tlm/ativo.yaml: /list/columns/${i}/sql: a tabela equipamento_ativo (ea) sem {scope:ea}`,
      `metadata/tlm/ativo.yaml: /list/columns/${j}/sql: {scope:x}: apelido x não declarado na expressão`,
      `metadata/tlm/ativo.yaml: /list/columns/${j}/sql: a tabela equipamento_ativo (ea) sem {scope:ea}`,
    ]);
  });

  it('refuses a table aliased t, the name of the row the engine reads (it would shadow {this} silently)', async () => {
    const p = project();
    let i = -1;
    editYaml(p, 'tlm/ativo.yaml', (d) => {
      const c = equipamentos(d);
      i = d.list.columns.indexOf(c);
      c.sql = '(SELECT string_agg(t.serial, \', \') FROM equipamento_ativo t WHERE t.ativo_id = {this}.id AND {scope:t})';
    });
    expect(await problems(p)).toEqual([`metadata/tlm/ativo.yaml: /list/columns/${i}/sql: o apelido t é o da linha ({this}): use outro apelido`]);
  });
});

describe('virtual columns from: reference.field', () => {
  it('read the referenced row in the row\'s company', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const col = (key: string, source: string) => m.entities.find((e) => e.key === key)!.columns.find((c) => c.source === source)!;
    expect(col('arquivo_tacografo', 'placa')).toMatchObject({ from: 'ativo.placa', virtual: true, sortable: false,
      sql: '(SELECT r.placa FROM ativo r WHERE r.id = {this}.ativo AND r.empresa_id = {this}.empresa_id)' });
    expect(col('itinerario_passageiro', 'matricula').sql).toBe('(SELECT r.matricula FROM passageiro r WHERE r.id = {this}.passageiro AND r.empresa_id = {this}.empresa_id)');
  });

  it('refuses a field that is no reference, an unknown field of the referenced register and from with sql', async () => {
    const p = project();
    const at: number[] = [];
    editYaml(p, 'tlm/itinerario_passageiro.yaml', (d) => {
      const add = (c: object) => at.push(d.list.columns.push({ virtual: true, label: 'X', ...c }) - 1);
      add({ source: 'x1', from: 'horario.placa' });
      add({ source: 'x2', from: 'passageiro.naoExiste' });
      add({ source: 'x3', from: 'passageiro.matricula', sql: '(SELECT 1 WHERE {this}.id > 0)' });
    });
    expect(await problems(p)).toEqual([
      `metadata/tlm/itinerario_passageiro.yaml: /list/columns/${at[0]}/from: horario não é um campo reference desta entidade`,
      `metadata/tlm/itinerario_passageiro.yaml: /list/columns/${at[2]}/from: from ou sql, não os dois`,
      `metadata/tlm/itinerario_passageiro.yaml: /list/columns/${at[1]}/from: campo desconhecido em passageiro: naoExiste`,
    ]);
  });
});
