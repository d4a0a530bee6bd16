// The caller's OpenAPI copy (openapiFor): an operation any of whose keys the caller holds stays, named by that key.
import { describe, expect, it } from 'vitest';
import { openapiFor } from './docs.ts';

const doc = {
  paths: {
    '/api/estados': { get: { 'x-permission': 'a.lista', 'x-permissions': ['a.lista', 'b.lista'], summary: 'provider' } },
    '/api/ativo': { get: { 'x-permission': 'b.lista' }, post: { 'x-permission': 'b.adicionar' } },
    '/api/sem_chave': { get: { summary: 'sem permissão' } },
  },
};

describe('openapiFor', () => {
  it('keeps an operation any of whose keys (x-permissions) the caller holds, naming the key held', () => {
    const mine = openapiFor(doc, (k) => k === 'b.lista');
    expect(mine.paths).toEqual({
      '/api/estados': { get: { 'x-permission': 'b.lista', 'x-permissions': ['a.lista', 'b.lista'], summary: 'provider' } },
      '/api/ativo': { get: { 'x-permission': 'b.lista' } },
    });
    expect(openapiFor(doc, (k) => k === 'a.lista').paths['/api/estados'].get['x-permission']).toBe('a.lista');
    expect(Object.keys(openapiFor(doc, () => false).paths)).toEqual([]);
  });
});
