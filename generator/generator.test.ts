import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parseDocument } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { MetadataError } from './errors.ts';
import { generate } from './generate.ts';
import { indexName } from './emit/entities.ts';
import { schemaKeywords } from './keywords.ts';
import type { Model } from '../shared/model.ts';
import { readTree, REPO, tempProject, writeFile, type TempProject } from './test-helpers.ts';

const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof import('ajv-formats').default;
const projects: TempProject[] = [];
const project = () => { const p = tempProject(); projects.push(p); return p; };
afterEach(() => { while (projects.length) projects.pop()!.cleanup(); });

const gen = (p: TempProject) => generate({ metadata: p.metadata, outServer: p.outServer, outRuntime: p.outRuntime });

// Edits a YAML file of the temp metadata in place.
function editYaml(p: TempProject, rel: string, edit: (doc: any) => void): void {
  const file = join(p.metadata, rel);
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const data = doc.toJS();
  edit(data);
  writeFileSync(file, JSON.stringify(data));
}

async function problems(p: TempProject): Promise<string[]> {
  try { await gen(p); } catch (e) { if (e instanceof MetadataError) return e.problems; throw e; }
  throw new Error('expected a MetadataError');
}

const TEST_ENTITY = `
key: veiculo_teste
table: veiculo_teste
label: { singular: Veículo de teste, plural: Veículos de teste }
route: /tlm/fro/veiculo_teste
permission: tlm.fro.veiculo_teste
scope: empresa
menu: { group: Frota, order: 99, icon: Science }
fields:
  - { name: descricao, type: string, label: Descrição, required: true, maxLength: 60 }
  - { name: codigo, type: string, label: Código, unique: true, upperCase: true, pattern: '^[A-Z]{2}[0-9]{2}$', patternMessage: 'Código inválido' }
  - { name: idGaragem, type: reference, reference: garagem, label: Garagem }
  - { name: garagens, type: referenceList, reference: garagem, label: Garagens }
  - { name: horaSaida, type: time, label: Hora de saída }
  - { name: rota, type: geometry, label: Rota }
  - { name: tipo, type: enum, label: Tipo, required: true, default: leve, options: [{ value: leve, label: Leve }, { value: pesado, label: Pesado }] }
  - { name: peso, type: number, label: Peso, min: 0 }
  - { name: ativo, type: boolean, label: Ativo, readOnly: true, default: true }
search: [descricao, codigo]
actions:
  - { name: inativa, label: Inativar, set: { ativo: false } }
permissions:
  - { key: especial, label: Especial }
`;

describe('generator', () => {
  it('is deterministic and writes only what changed', async () => {
    const a = project();
    const b = project();
    const r1 = await gen(a);
    await gen(b);
    expect(readTree(a.outServer)).toEqual(readTree(b.outServer));
    expect(readTree(a.outRuntime)).toEqual(readTree(b.outRuntime));
    expect(r1.server.written.length).toBeGreaterThan(10);
    const again = await gen(a);
    expect(again.server.written).toEqual([]);
    expect(again.runtime.written).toEqual([]);
    // no timestamps, no absolute paths
    const model = readFileSync(join(a.outServer, 'model.json'), 'utf8');
    expect(model).not.toContain(a.root);
    expect(model).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('removes stale generated files', async () => {
    const p = project();
    await gen(p);
    writeFile(join(p.outServer, 'schemas/velho.json'), '{}');
    const r = await gen(p);
    expect(r.server.removed).toEqual(['schemas/velho.json']);
  });

  it('reports schema errors with file, JSON path and message', async () => {
    const p = project();
    editYaml(p, 'tlm/ativo.yaml', (d) => { d.fields[2].type = 'referencia'; d.fields[0].foo = 1; });
    const out = await problems(p);
    expect(out).toContain('metadata/tlm/ativo.yaml: /fields/2/type: deve ser um de: string, text, integer, number, boolean, date, datetime, time, enum, reference, referenceList, json, geometry, file, image, password');
    expect(out).toContain('metadata/tlm/ativo.yaml: /fields/0: propriedade não permitida: foo');
  });

  it('reports unknown references and unknown fields', async () => {
    const p = project();
    editYaml(p, 'tlm/ativo.yaml', (d) => {
      d.fields[2].reference = 'inexistente';
      d.search.push('nada');
      d.list.sort.field = 'semCampo';
      d.form.sections[0].fields.push('fantasma');
      d.menu.group = 'Outro';
    });
    const out = await problems(p);
    expect(out).toContain('metadata/tlm/ativo.yaml: /fields/2/reference: entidade referenciada desconhecida: inexistente');
    expect(out).toContain('metadata/tlm/ativo.yaml: /search/3: campo desconhecido: nada');
    expect(out).toContain('metadata/tlm/ativo.yaml: /list/sort/field: campo desconhecido: semCampo');
    expect(out).toContain('metadata/tlm/ativo.yaml: /form/sections/0/fields/5: campo desconhecido: fantasma');
    expect(out.some((l) => l.startsWith('metadata/tlm/ativo.yaml: /menu/group: grupo de menu desconhecido: Outro'))).toBe(true);
  });

  it('carries a new YAML entity through the whole chain', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/veiculo_teste.yaml'), TEST_ENTITY);
    await gen(p);
    const s = (f: string) => readFileSync(join(p.outServer, f), 'utf8');
    const r = (f: string) => readFileSync(join(p.outRuntime, f), 'utf8');
    const model = JSON.parse(s('model.json')) as Model;
    const e = model.entities.find((x) => x.key === 'veiculo_teste')!;
    expect(e.fields.map((f) => f.name)).toEqual(['id', 'empresaId', 'descricao', 'codigo', 'idGaragem', 'garagens', 'horaSaida', 'rota', 'tipo', 'peso', 'ativo', 'createdAt', 'updatedAt']);
    expect(e.fields.find((f) => f.name === 'idGaragem')!.column).toBe('id_garagem');
    expect(e.columns.map((c) => c.source)).toContain('codigo');
    expect(e.recordRepresentation).toBe('descricao');
    expect(e.form.sections[0].fields).not.toContain('ativo');
    expect(e.permissions.map((x) => x.key)).toEqual(['lista', 'visualizar', 'adicionar', 'editar', 'excluir', 'especial', 'inativa'].map((k) => `tlm.fro.veiculo_teste.${k}`));
    // the browser's copy: the same model without the server's SQL
    const browser = JSON.parse(r('model.json')) as Model;
    expect(browser).toEqual(JSON.parse(JSON.stringify(model, (k, v) => (k === 'sql' ? undefined : v))));
    expect(s('model.json')).toContain('"sql":');
    expect(r('model.json')).not.toContain('"sql":');
    expect(browser.entities.find((x) => x.key === 'veiculo_teste')!.columns.map((c) => c.source)).toEqual(e.columns.map((c) => c.source));

    const schema = JSON.parse(s('schemas/veiculo_teste.json'));
    expect(schema.required).toEqual(['descricao', 'tipo']);
    expect(Object.keys(schema.properties)).not.toContain('ativo');
    expect(schema.properties.codigo).toMatchObject({ title: 'Código', 'x-upperCase': true, 'x-patternMessage': 'Código inválido' });
    expect(r('schemas/veiculo_teste.json')).toBe(s('schemas/veiculo_teste.json'));

    expect(s('types/veiculo_teste.ts')).toMatch(/export interface VeiculoTeste \{/);
    expect(s('types/index.ts')).toContain("from './veiculo_teste.ts'");
    const entity = s('entities/veiculo_teste.ts');
    expect(entity).toContain('tableName: "veiculo_teste"');
    expect(entity).toContain('{ name: "veiculo_teste_empresa_id_codigo_unique", properties: ["empresaId", "codigo"] }');
    // No ORM tenant filter: reads name their scope (server/tenancy/scope.ts), RLS is the backstop.
    expect(entity).not.toContain('filters:');
    expect(s('entities/index.ts')).toContain('VeiculoTeste');
    // Described once: model.json; no per-entity route or resource module (the server and the runtime build them).
    expect(Object.keys(readTree(p.outServer)).filter((f) => f.startsWith('routes/'))).toEqual([]);
    expect(Object.keys(readTree(p.outRuntime)).filter((f) => f.startsWith('resources/'))).toEqual([]);
    expect(r('index.ts')).toContain(`"veiculo_teste": () => import('./schemas/veiculo_teste.json').then(schema),`);
    expect(r('index.ts')).not.toContain('"fields"');
    expect(r('icons.tsx')).toContain("import ScienceIcon from '@mui/icons-material/Science';");
    expect(r('icons.tsx')).toContain('  Science: <ScienceIcon />,');

    const permissions = JSON.parse(s('permissions.json')) as { key: string }[];
    expect(permissions.map((x) => x.key)).toContain('tlm.fro.veiculo_teste.inativa');
    expect(permissions.map((x) => x.key)).toEqual([...permissions.map((x) => x.key)].sort());
    const menu = JSON.parse(s('menu.json'));
    // The tree follows the routes: Telemetria › Frota (metadata/_menu.yaml areas).
    const frota = menu.find((g: any) => g.key === 'tlm').children.find((g: any) => g.key === 'tlm/fro');
    expect(frota.label).toBe('Frota');
    expect(frota.children.find((n: any) => n.route === '/tlm/fro/veiculo_teste')).toEqual({ label: 'Veículos de teste', route: '/tlm/fro/veiculo_teste', permission: 'tlm.fro.veiculo_teste.lista', icon: 'Science' });
    const routes = JSON.parse(s('routes.json'));
    expect(routes.filter((x: any) => x.entity === 'veiculo_teste')).toEqual([
      { path: '/tlm/fro/veiculo_teste', name: 'tlm.fro.veiculo_teste.lista', entity: 'veiculo_teste', view: 'list' },
      { path: '/tlm/fro/veiculo_teste/adicionar', name: 'tlm.fro.veiculo_teste.adicionar', entity: 'veiculo_teste', view: 'create' },
      { path: '/tlm/fro/veiculo_teste/:id/editar', name: 'tlm.fro.veiculo_teste.editar', entity: 'veiculo_teste', view: 'edit' },
      { path: '/tlm/fro/veiculo_teste/:id/visualizar', name: 'tlm.fro.veiculo_teste.visualizar', entity: 'veiculo_teste', view: 'show' },
    ]);
    const openapi = JSON.parse(s('openapi.json'));
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/veiculo_teste', '/api/veiculo_teste/{id}', '/api/veiculo_teste/{id}/inativa']));
    expect(openapi.paths['/api/veiculo_teste'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/VeiculoTeste' });
    expect(openapi.components.schemas.VeiculoTeste.properties.codigo.title).toBe('Código');

    // The MikroORM entity loads and produces the table.
    const { entities } = await import(join(p.outServer, 'entities/index.ts'));
    const { MikroORM } = await import('@mikro-orm/postgresql');
    const orm = new MikroORM({ entities, dbName: 'x', connect: false } as any);
    const sql = await orm.schema.getCreateSchemaSQL();
    expect(sql).toContain('create table "veiculo_teste"');
    expect(sql).toContain('"garagens" integer[] null');
    expect(sql).toContain('alter table "veiculo_teste" add constraint "veiculo_teste_id_garagem_foreign" foreign key ("id_garagem") references "garagem" ("id") on delete no action;');
    await orm.close();
  });

  it('emits JSON Schemas that ajv uses to accept and reject bodies', async () => {
    const p = project();
    await gen(p);
    const ajv = new Ajv({ allErrors: true, strict: true, verbose: true, useDefaults: true, keywords: [...schemaKeywords] });
    addFormats(ajv);
    const ativo = ajv.compile(JSON.parse(readFileSync(join(p.outServer, 'schemas/ativo.json'), 'utf8')));
    expect(ativo({ descricao: 'Caminhão 1', placa: 'ABC1D23', ano: 2020, idGaragem: null })).toBe(true);
    expect(ativo({ descricao: 'Caminhão 1' })).toBe(false);
    expect(ativo.errors).toContainEqual(expect.objectContaining({ keyword: 'required', params: { missingProperty: 'placa' } }));
    expect(ativo({ descricao: 'X', placa: 'AB-12' })).toBe(false);
    expect(ativo.errors![0]).toMatchObject({ instancePath: '/placa', keyword: 'pattern', parentSchema: { 'x-patternMessage': 'Placa inválida: use o formato AAA-1234 ou AAA1A23' } });
    expect(ativo({ descricao: 'X', placa: 'ABC1234', ano: 1800 })).toBe(false);
    expect(ativo({ descricao: 'X', placa: 'ABC1234', empresaId: 2 })).toBe(false); // system field never writable
    const motorista = ajv.compile(JSON.parse(readFileSync(join(p.outServer, 'schemas/motorista.json'), 'utf8')));
    const body: Record<string, unknown> = { nome: 'Ana', documento: '123.456.789-09' };
    expect(motorista(body)).toBe(true);
    expect(body.situacao).toBe('ativo'); // default filled
    expect(motorista({ ...body, categoriaCnh: 'Z' })).toBe(false);
    expect(motorista({ ...body, email: 'não-é-email' })).toBe(false);
    const cargo = ajv.compile(JSON.parse(readFileSync(join(p.outServer, 'schemas/cargo.json'), 'utf8')));
    expect(cargo({ descricao: 'Leitura', permissoes: ['tlm.fro.ativo.lista'] })).toBe(true);
    expect(cargo({ descricao: 'Leitura', permissoes: ['tlm.fro.ativo.voar'] })).toBe(false);
    const usuario = JSON.parse(readFileSync(join(p.outServer, 'schemas/usuario.json'), 'utf8'));
    expect(usuario.properties.senha).toMatchObject({ writeOnly: true, 'x-type': 'password' });
    expect(usuario.properties).not.toHaveProperty('ui');
  });

  it('emits TypeScript that compiles', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/veiculo_teste.yaml'), TEST_ENTITY);
    await gen(p);
    cpSync(join(REPO, 'shared/model.ts'), join(p.root, 'shared/model.ts'));
    writeFile(join(p.root, 'server/app/env.ts'), 'export type AppEnv = { Variables: Record<string, unknown> };\n');
    writeFile(join(p.root, 'runtime/src/crud/index.ts'), [
      "import type { JSONSchema7 } from 'json-schema';",
      "import type { EntityMeta } from '../../../shared/model.ts';",
      'type Props = { entity: EntityMeta; schema: JSONSchema7 };',
      'export const GenericList = (_: Props) => null;',
      'export const GenericCreate = (_: Props) => null;',
      'export const GenericEdit = (_: Props) => null;',
      'export const GenericShow = (_: Props) => null;',
    ].join('\n'));
    writeFile(join(p.root, 'tsconfig.json'), JSON.stringify({
      extends: join(REPO, 'tsconfig.json'),
      compilerOptions: { types: ['node'], typeRoots: [join(REPO, 'node_modules/@types')] },
      include: ['server', 'runtime/src', 'generator'],
    }));
    const tsc = join(REPO, 'node_modules/.bin/tsc');
    let out = '';
    try { execFileSync(tsc, ['--noEmit', '-p', join(p.root, 'tsconfig.json')], { cwd: p.root, encoding: 'utf8' }); }
    catch (e: any) { out = `${e.stdout}${e.stderr}`; }
    expect(out).toBe('');
  }, 120_000);

  it('declares trigram indexes on search fields and the default-order index; relocates imports', async () => {
    const p = project();
    await generate({ metadata: p.metadata, outServer: p.outServer, outRuntime: p.outRuntime, runtimeSrc: join(REPO, 'runtime/src') });
    const ativo = readFileSync(join(p.outServer, 'entities/ativo.ts'), 'utf8');
    for (const col of ['descricao', 'placa', 'numero_frota']) {
      expect(ativo).toContain(`create index \\"ativo_${col}_trgm_index\\" on \\"ativo\\" using gin (\\"${col}\\" gin_trgm_ops)`);
    }
    expect(ativo).toContain('{ name: "ativo_empresa_id_descricao_id_sort_index", properties: ["empresaId", "descricao", "id"] }');
    const index = readFileSync(join(p.outRuntime, 'index.ts'), 'utf8');
    const screen = /import\("([^"]+\/screens\/[^"]+)"\)/.exec(index)![1];
    expect(existsSync(resolve(p.outRuntime, screen))).toBe(true);
    expect(indexName('x'.repeat(63))).toBe('x'.repeat(63));
    const long = indexName(`${'tabela_'.repeat(8)}coluna_trgm_index`);
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toBe(indexName(`${'tabela_'.repeat(8)}coluna_trgm_index`));
  });
});
