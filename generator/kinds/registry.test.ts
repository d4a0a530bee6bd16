// Adding a metadata kind is one module: a fake kind registered here (only in this test) is loaded, validated
// (a bad file refused with a pt-BR message naming file and path), normalised into the model, linked against the
// other kinds (permission catalogue, routes, menu) and emitted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generate.ts';
import { loadMetadata } from '../load.ts';
import { metadataProblems, tempProjects, writeFile, type TempProject } from '../test-helpers.ts';
import { TAB_KINDS } from '../../shared/tabs.ts';
import { kindOf, registerKind } from './registry.ts';
import { tabKinds, withTabKinds } from './entity/tabs.ts';
import type { KindModule } from './types.ts';

interface Painel { key: string; file: string; label: string; route: string; permission: string; menu?: { group: string; order: number } }

const painelKind: KindModule<Painel> = {
  kind: 'painel_teste',
  schema: {
    type: 'object', additionalProperties: false, required: ['kind', 'key', 'label', 'route', 'permission'],
    properties: {
      kind: { const: 'painel_teste' }, key: { type: 'string', pattern: '^[a-z_]+$' }, label: { type: 'string', minLength: 1 },
      route: { type: 'string', pattern: '^(/[a-z0-9_]+)+$' }, permission: { type: 'string' },
      menu: { type: 'object', additionalProperties: false, required: ['group', 'order'], properties: { group: { type: 'string' }, order: { type: 'integer' } } },
    },
  },
  modelKey: 'paineisTeste',
  normalize(raw, src, err) {
    if (!src.file.endsWith(`/${raw.key}.yaml`)) err('/key', `deve ser igual ao nome do arquivo`);
    return { key: raw.key, file: src.file, label: raw.label, route: raw.route, permission: raw.permission, ...(raw.menu ? { menu: raw.menu } : {}) };
  },
  link(items, ctx) {
    for (const p of items) {
      ctx.claim(`route:${p.route}`, p.file, '/route', 'route', p.route);
      if (!ctx.model.entities.length) ctx.problems.push(`${p.file}: /: sem entidades`);
    }
  },
  permissions: (items) => items.map((p) => ({ key: p.permission, label: `${p.label}: Acessar` })),
  routes: (items) => items.map((p) => ({ path: p.route, name: p.permission, screen: p.key, view: 'screen' as const })),
  menu: (items) => items.map((p) => ({ key: p.key, menu: p.menu, node: { label: p.label, route: p.route, permission: p.permission } })),
  emit: (items) => ({ server: { 'paineis-teste.json': `${JSON.stringify(items.map((p) => p.key))}\n` } }),
};

const PAINEL = `kind: painel_teste
key: painel_frota
label: Painel da frota
route: /tlm/fro/painel_frota
permission: tlm.fro.painel_frota
menu: { group: Frota, order: 98 }
`;

const project = tempProjects();
let unregister: () => void;
beforeAll(() => { unregister = registerKind(painelKind); });
afterAll(() => unregister());
const gen = (p: TempProject) => generate({ metadata: p.metadata, outServer: p.outServer, outRuntime: p.outRuntime });

describe('kind registry: a kind added by one module', () => {
  it('is loaded apart from the entities, validated, normalised into the model, linked and emitted', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/painel_frota.yaml'), PAINEL);
    const meta = loadMetadata(p.metadata);
    expect(meta.kinds?.painel_teste?.map((f) => f.file)).toEqual(['metadata/tlm/painel_frota.yaml']);
    expect(meta.entities.some((f) => f.file.endsWith('painel_frota.yaml'))).toBe(false);
    expect(kindOf({ kind: 'painel_teste' }).kind).toBe('painel_teste');
    expect(kindOf({ key: 'x' }).kind).toBe('entidade');

    const { model } = await gen(p);
    expect((model as unknown as Record<string, unknown>).paineisTeste).toEqual([
      { key: 'painel_frota', file: 'metadata/tlm/painel_frota.yaml', label: 'Painel da frota', route: '/tlm/fro/painel_frota', permission: 'tlm.fro.painel_frota', menu: { group: 'Frota', order: 98 } },
    ]);
    expect(model.permissions).toContainEqual({ key: 'tlm.fro.painel_frota', label: 'Painel da frota: Acessar' });
    expect(model.routes).toContainEqual({ path: '/tlm/fro/painel_frota', name: 'tlm.fro.painel_frota', screen: 'painel_frota', view: 'screen' });
    // the menu tree follows the route: area tlm, section tlm/fro
    const frota = model.menu.find((g) => g.key === 'tlm')!.children!.find((g) => g.key === 'tlm/fro')!;
    expect(frota.children).toContainEqual({ label: 'Painel da frota', route: '/tlm/fro/painel_frota', permission: 'tlm.fro.painel_frota' });
    expect(readFileSync(join(p.outServer, 'paineis-teste.json'), 'utf8')).toBe('["painel_frota"]\n');
    expect(readFileSync(join(p.outServer, 'permissions.ts'), 'utf8')).toContain('"tlm.fro.painel_frota"');
    // The model file carries it too (the server and the runtime read it).
    expect(JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')).paineisTeste).toHaveLength(1);
  });

  it('refuses a bad file with its schema (pt-BR, file and path) and its own checks', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/painel_frota.yaml'), PAINEL.replace('label: Painel da frota\n', 'cor: azul\n'));
    expect(await metadataProblems(() => gen(p))).toEqual([
      'metadata/tlm/painel_frota.yaml: /: propriedade obrigatória ausente: label',
      'metadata/tlm/painel_frota.yaml: /: propriedade não permitida: cor',
    ]);
    const q = project();
    writeFile(join(q.metadata, 'tlm/outro.yaml'), PAINEL.replace('route: /tlm/fro/painel_frota', 'route: /tlm/fro/ativo'));
    expect(await metadataProblems(() => gen(q))).toEqual([
      'metadata/tlm/outro.yaml: /key: deve ser igual ao nome do arquivo',
      'metadata/tlm/outro.yaml: /route: route "/tlm/fro/ativo" já usado em metadata/tlm/ativo.yaml',
    ]);
  });

  it('is unknown once removed: the file is an entity again (its schema names the problem)', async () => {
    unregister();
    try {
      const p = project();
      writeFile(join(p.metadata, 'tlm/painel_frota.yaml'), PAINEL);
      expect(await metadataProblems(() => gen(p))).toContain('metadata/tlm/painel_frota.yaml: /kind: deve ser igual a "entidade"');
    } finally {
      unregister = registerKind(painelKind);
    }
  });
});

describe('record-tab kinds', () => {
  it('are registered once, one per TabMeta kind, and each adds its property to the tab schema', () => {
    expect(Object.keys(tabKinds)).toEqual([...TAB_KINDS]);
    const tab = withTabKinds({ definitions: { tab: { properties: { name: {} } } } }).definitions.tab;
    expect(Object.keys(tab.properties)).toEqual(['name', ...TAB_KINDS]);
    expect(tab.oneOf).toEqual(TAB_KINDS.map((k) => ({ required: [k] })));
  });
});
