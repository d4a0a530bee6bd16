import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activeRoute } from './activeRoute';
import { iconNames } from './icons';

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

  it('knows the icon of every menu entry of the metadata', () => {
    const generated = new URL('../../../server/generated/model.json', import.meta.url);
    const file = existsSync(generated) ? generated : new URL('../fixtures/model.json', import.meta.url);
    const model = JSON.parse(readFileSync(file, 'utf8'));
    const used = new Set<string>();
    const walk = (nodes: { icon?: string; children?: unknown[] }[]) => nodes.forEach((n) => { if (n.icon) used.add(n.icon); if (n.children) walk(n.children as never); });
    walk(model.menu);
    expect([...used].filter((i) => !iconNames().includes(i))).toEqual([]);
  });
});
