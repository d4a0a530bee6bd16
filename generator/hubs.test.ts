// Hubs (kind: hub): members from the route table, route entry, permission key and menu entry; no component.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitPermissionKeys } from './emit/index.ts';
import { buildModel } from './generate.ts';
import { metadataProblems, tempProjects, writeFile, type TempProject } from './test-helpers.ts';

const project = tempProjects();
// The model only (emitting every file of 40+ entities is slow on a loaded machine).
const model = (p: TempProject) => buildModel(p.metadata);

const HUB = `
kind: hub
key: painel_hub
label: Painel de cadastros
route: /adm/sis/teste_hub
permission: adm.sis.teste_hub
menu: { group: Cadastros, order: 99 }
`;
const entity = (key: string, plural: string, route: string) => `
key: ${key}
table: ${key}
label: { singular: ${plural}, plural: ${plural} }
route: ${route}
permission: adm.sis.teste_hub.${key}
scope: empresa
fields:
  - { name: descricao, type: string, label: Descrição, required: true }
`;

describe('hubs (kind: hub)', () => {
  it('lists the entities one segment below its route, sorted by label; route, key and menu generated', async () => {
    const p = project();
    writeFile(join(p.metadata, 'adm/painel_hub.yaml'), HUB);
    writeFile(join(p.metadata, 'adm/hub_b.yaml'), entity('hub_b', 'Bananas', '/adm/sis/teste_hub/hub_b'));
    writeFile(join(p.metadata, 'adm/hub_a.yaml'), entity('hub_a', 'Abacates', '/adm/sis/teste_hub/hub_a'));
    writeFile(join(p.metadata, 'adm/hub_fora.yaml'), entity('hub_fora', 'Fora', '/adm/sis/teste_hub/outro/hub_fora'));
    const m = model(p);
    const hub = m.hubs!.find((h) => h.key === 'painel_hub')!;
    expect(hub.members).toEqual([
      { key: 'hub_a', label: 'Abacates', route: '/adm/sis/teste_hub/hub_a', permission: 'adm.sis.teste_hub.hub_a.lista' },
      { key: 'hub_b', label: 'Bananas', route: '/adm/sis/teste_hub/hub_b', permission: 'adm.sis.teste_hub.hub_b.lista' },
    ]);
    expect(m.routes).toContainEqual({ path: '/adm/sis/teste_hub', name: 'adm.sis.teste_hub', hub: 'painel_hub', view: 'hub' });
    expect(m.permissions).toContainEqual({ key: 'adm.sis.teste_hub', label: 'Painel de cadastros: Acessar' });
    expect(emitPermissionKeys(m)).toContain('"adm.sis.teste_hub",');
    const sis = m.menu.find((g) => g.key === 'adm')!.children!.find((g) => g.key === 'adm/sis')!;
    expect(sis.children!.find((n) => n.route === '/adm/sis/teste_hub')).toEqual({ label: 'Painel de cadastros', route: '/adm/sis/teste_hub', permission: 'adm.sis.teste_hub' });
  });

  it('refuses a hub with no member, a taken route or key, and a wrong file name', async () => {
    const p = project();
    writeFile(join(p.metadata, 'adm/painel_hub.yaml'), HUB.replace('key: painel_hub', 'key: outro_nome'));
    writeFile(join(p.metadata, 'adm/rota_hub.yaml'), HUB.replace('key: painel_hub', 'key: rota_hub').replace('/adm/sis/teste_hub', '/tlm/fro/ativo').replace('permission: adm.sis.teste_hub', 'permission: tlm.fro.ativo.lista'));
    const problems = await metadataProblems(() => model(p));
    expect(problems).toEqual(expect.arrayContaining([
      'metadata/adm/painel_hub.yaml: /key: deve ser igual ao nome do arquivo (painel_hub)',
      'metadata/adm/painel_hub.yaml: /route: nenhuma entidade ou tela abaixo de /adm/sis/teste_hub',
      'metadata/adm/rota_hub.yaml: /route: route "/tlm/fro/ativo" já usado em metadata/tlm/ativo.yaml',
      'metadata/adm/rota_hub.yaml: /permission: permissão "tlm.fro.ativo.lista" já usado em metadata/tlm/ativo.yaml',
    ]));
  });

  it('the system registers hub lists every register under /adm/sis/cadastro', async () => {
    const m = buildModel(join(import.meta.dirname, '..', 'metadata'));
    const cad = m.hubs!.find((h) => h.key === 'cadastro')!;
    const under = m.entities.filter((e) => /^\/adm\/sis\/cadastro\/[a-z_]+$/.test(e.route)).map((e) => e.key).sort();
    expect(cad.members.map((x) => x.key).sort()).toEqual(under);
    expect(under).toEqual(expect.arrayContaining(['contato', 'celular', 'fornecedor', 'pais', 'estado', 'municipio', 'categoria_de_ativo']));
  });
});
