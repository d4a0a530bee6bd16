import { describe, expect, it } from 'vitest';
import { canEnter } from './authProvider';
import { errorMessage, fieldErrors } from './http';
import { normalizeUser } from './session';

describe('route guard rule', () => {
  it('home always, wiki/dev anything, others by name', () => {
    expect(canEnter('home', [], [])).toBe(true);
    expect(canEnter('tlm.fro.ativo.adicionar', ['tlm.fro.ativo.lista'], [])).toBe(false);
    expect(canEnter('tlm.fro.ativo.lista', ['tlm.fro.ativo.lista'], [])).toBe(true);
    expect(canEnter('tlm.fro.ativo.adicionar', [], ['dev'])).toBe(true);
    expect(canEnter('tlm.fro.ativo.adicionar', [], ['wiki'])).toBe(true);
  });
});

describe('server errors', () => {
  it('per-field errors from the payload list', () => {
    expect(fieldErrors([{ field: 'placa', label: 'Placa', message: 'O campo Placa é obrigatório' }])).toEqual({ placa: 'O campo Placa é obrigatório' });
    expect(fieldErrors({ errors: [{ instancePath: '/ano', message: 'inválido' }] })).toEqual({ ano: 'inválido' });
    expect(fieldErrors(null)).toEqual({});
    expect(fieldErrors({ field: 'placa' }, 'Já existe um registro com o valor informado em Placa')).toEqual({ placa: 'Já existe um registro com o valor informado em Placa' });
  });
  it('message with errorMsg and payload', () => {
    expect(errorMessage({ msg: 'Erro de validação' }, 400)).toBe('Erro de validação');
    expect(errorMessage({ errorMsg: 'Falha', payload: 'detalhe' }, 500)).toBe('Falha: detalhe');
    expect(errorMessage(undefined, 502)).toBe('Erro 502');
  });
});

describe('session user', () => {
  it('normalizes the get_session user', () => {
    const u = normalizeUser({ id: 7, login: 'admin', empresas: [{ id: 1, fantasia: 'Alfa' }, 2], empresaAtiva: 1, roles: ['dev'], ui: { '/x': [] } });
    expect(u).toEqual({ id: 7, login: 'admin', nome: undefined, empresaAtiva: 1, empresas: [{ id: 1, fantasia: 'Alfa' }, { id: 2, fantasia: 'Empresa 2' }], roles: ['dev'], ui: { '/x': [] } });
  });
});
