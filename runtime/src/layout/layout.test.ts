import { describe, expect, it } from 'vitest';
import { activeRoute } from './activeRoute';

describe('menu', () => {
  const routes = ['/home', '/adm/sis/empresa', '/adm/sis/empresa/usuario', '/adm/sis/empresa/permissoes', '/adm/cfg/equipamentos'];
  it('marks only the best matching entry', () => {
    expect(activeRoute('/adm/sis/empresa/usuario', routes)).toBe('/adm/sis/empresa/usuario');
    expect(activeRoute('/adm/sis/empresa/usuario/3/editar', routes)).toBe('/adm/sis/empresa/usuario');
    expect(activeRoute('/adm/sis/empresa/2/editar', routes)).toBe('/adm/sis/empresa');
    expect(activeRoute('/adm/sis/empresas', routes)).toBeUndefined();
    expect(activeRoute('/adm/cfg/equipamentos/fila_processamento', routes)).toBe('/adm/cfg/equipamentos');
    expect(activeRoute('/home', routes)).toBe('/home');
  });
});
