// The SQL form of the company scope (no database): the condition and its parameters for each kind of entity.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { GENERATED_DIR, entityByKey, setRuntime } from '../core/registry.ts';
import { companySql, expandScope, pgParams, qParams, sameCompany, scopeSql, snippetProblems, snippetSql, tenantSql } from './scope.ts';

const s: Session = { id: 1, usuarioId: 7, login: 'x', ambienteId: 3, empresaAtiva: 11, empresas: [11, 12], roles: [], permissoes: new Set() };
const e = (k: string) => entityByKey(k)!;

beforeAll(() => {
  setRuntime({ model: JSON.parse(fs.readFileSync(path.join(GENERATED_DIR, 'model.json'), 'utf8')) as Model, schemas: {} });
});

describe('scopeSql', () => {
  it('empresa scope: the alias company as a parameter, in either placeholder style', () => {
    const q = qParams();
    expect(scopeSql(e('ativo'), s, 'a', q)).toBe('a.empresa_id = ?');
    expect(q.values).toEqual([11]);
    const p = pgParams([5]);
    expect(scopeSql(e('ativo'), s, 'a', p)).toBe('a.empresa_id = $2');
    expect(p.values).toEqual([5, 11]);
  });
  it('owner: the caller own rows too', () => {
    const q = qParams();
    expect(scopeSql(e('notificacao'), s, 'n', q)).toMatch(/^n\.empresa_id = \? AND n\."[a-z_]+" = \?$/);
    expect(q.values).toEqual([11, 7]);
  });
  it('ambiente with companies: all of the row companies among the caller', () => {
    const q = qParams();
    expect(scopeSql(e('usuario'), s, 'u', q)).toBe('u.ambiente_id = ? AND u."empresas" <@ ?::int[] AND u."empresas" && ?::int[]');
    expect(q.values).toEqual([3, '{11,12}', '{11,12}']);
    const r = qParams();
    expect(scopeSql(e('empresa'), s, 'x', r)).toBe('x.ambiente_id = ? AND x.id = ANY(?::int[])');
    const t = qParams();
    expect(scopeSql(e('sessao'), s, 'x', t)).toBe('x.ambiente_id = ? AND EXISTS (SELECT 1 FROM "usuario" s0 WHERE s0.id = x."usuario" AND s0."empresas" <@ ?::int[] AND s0."empresas" && ?::int[])');
    // wiki/dev administer every company of their ambiente.
    expect(scopeSql(e('usuario'), { ...s, roles: ['wiki'] }, 'u', qParams())).toBe('u.ambiente_id = ?');
  });
  it('tenant alone, a company by value, same company as another alias', () => {
    expect(tenantSql(e('notificacao'), s, 'n', qParams())).toBe('n.empresa_id = ?');
    const p = pgParams();
    expect(companySql('u', 11, p)).toBe('u.empresa_id = $1');
    expect(sameCompany('m', 'u')).toBe('m.empresa_id = u.empresa_id');
    expect(sameCompany('m', 'u', 'ambiente_id')).toBe('m.ambiente_id = u.ambiente_id');
  });
  it('refuses an alias that is not an identifier', () => {
    expect(() => scopeSql(e('ativo'), s, 'a; drop', qParams())).toThrow(/invalid table alias/);
    expect(() => sameCompany('a', '1=1 OR b')).toThrow(/invalid table alias/);
  });
});

describe('snippetSql', () => {
  it('expands {this} and {scope:x}', () => {
    expect(snippetSql(e('linha'), '(SELECT count(*) FROM itinerario i WHERE i.linha = {this}.id AND {scope:i})', 't'))
      .toBe('(SELECT count(*) FROM itinerario i WHERE i.linha = t.id AND i.empresa_id = t.empresa_id)');
  });
});

describe('YAML snippets ({scope:alias})', () => {
  it('expands per register scope and reports hand conditions and unknown aliases', () => {
    expect(expandScope('(SELECT 1 FROM lote l WHERE l.armazem = {this}.id AND {scope:l})', 'empresa'))
      .toBe('(SELECT 1 FROM lote l WHERE l.armazem = {this}.id AND l.empresa_id = {this}.empresa_id)');
    expect(expandScope('(SELECT 1 FROM sessao x WHERE {scope:x})', 'ambiente')).toBe('(SELECT 1 FROM sessao x WHERE x.ambiente_id = {this}.ambiente_id)');
    expect(snippetProblems('(SELECT 1 FROM lote l WHERE l.armazem = {this}.id AND {scope:l})', 'empresa')).toEqual([]);
    expect(snippetProblems('(SELECT 1 FROM lote l WHERE l.empresa_id = {this}.empresa_id)', 'empresa'))
      .toEqual(['a condição de empresa se escreve {scope:alias}, não empresa_id/ambiente_id', 'a tabela lote (l) sem {scope:l}']);
    expect(snippetProblems('(SELECT 1 FROM lote l WHERE {scope:z})', 'empresa')).toEqual(['{scope:z}: apelido z não declarado na expressão', 'a tabela lote (l) sem {scope:l}']);
    expect(snippetProblems('(SELECT m.nome FROM telemetria.ultimo_estado u JOIN motorista AS m ON m.id = u.motorista_id WHERE {scope:u})', 'empresa'))
      .toEqual(['a tabela motorista (m) sem {scope:m}']);
    expect(snippetProblems('(SELECT count(*) FROM lote WHERE lote.armazem = {this}.id)', 'empresa')).toEqual(['a tabela lote precisa de um apelido e de {scope:apelido}']);
    expect(snippetProblems("(SELECT string_agg(x.v, ', ') FROM jsonb_array_elements_text({this}.value) AS x(v))", 'empresa')).toEqual([]);
    expect(snippetProblems('(SELECT 1 FROM lote l WHERE {scope:l})', 'global')).toEqual(['{scope:l} num cadastro sem empresa']);
  });
});
