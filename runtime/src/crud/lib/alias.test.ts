// Alias routes' back: the route a form returns to, parameters filled from the alias route.
import { describe, expect, it } from 'vitest';
import type { AliasMeta } from '../../../../shared/model';
import { aliasBack } from './alias';

describe('aliasBack', () => {
  it('fills the back route with the route parameters', () => {
    const a: AliasMeta = { path: '/adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos/:id', view: 'edit', back: '/adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos' };
    expect(aliasBack(a, { tecnology: 'legacy', model: 'legacy', id: '7' })).toBe('/adm/bib/biblioteca_de_eventos/legacy/legacy/eventos');
    expect(aliasBack(a, { tecnology: 'vdo', model: 'vdo compact' })).toBe('/adm/bib/biblioteca_de_eventos/vdo/vdo%20compact/eventos');
  });
  it('is undefined without back (the entity list stays the default)', () => {
    expect(aliasBack({ path: ':id', view: 'edit' }, { id: '1' })).toBeUndefined();
    expect(aliasBack(undefined, {})).toBeUndefined();
  });
});
