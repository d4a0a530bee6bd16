// Whole chain from one YAML file (issue 2 §2): a test entity added to a copy of metadata/ gets its
// table (through the configurator's flow: migration:create into a temp copy of the migrations, then start),
// CRUD API, permission keys, /api/meta entry, and the runtime resource module, route table and menu entries.
// The app itself never improvises a migration.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/generate.ts';
import type { MenuNode, RouteEntry } from '../../shared/model.ts';
import { loadBundle } from '../app/bundle.ts';
import { createMigration, type CreateResult } from '../db/migration-tools.ts';
import { MIGRATIONS_DIR } from '../db/orm.ts';
import { ADMIN, json, migrationsCopy, startTestServer, type Api, type TestServer } from './harness.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const root = path.join(import.meta.dirname, '.tmp', `chain-${crypto.randomBytes(4).toString('hex')}`);
const outServer = path.join(root, 'server/generated');
const outRuntime = path.join(root, 'runtime/src/generated');

const YAML = `# Test entity of the whole-chain test.
key: teste_veiculo
table: teste_veiculo
label: { singular: Veículo de teste, plural: Veículos de teste }
route: /tlm/fro/teste_veiculo
permission: tlm.fro.teste_veiculo
scope: empresa
menu: { group: Frota, order: 99, icon: DirectionsCar }
recordRepresentation: apelido
fields:
  - { name: apelido, type: string, label: Apelido do veículo, required: true, maxLength: 60 }
  - { name: idAtivo, type: reference, reference: ativo, label: Ativo vinculado }
  - name: tipo
    type: enum
    label: Tipo de teste
    required: true
    default: leve
    options:
      - { value: leve, label: Leve }
      - { value: pesado, label: Pesado }
list:
  columns:
    - { source: apelido, default: true }
    - { source: idAtivo, default: true }
    - { source: tipo, default: true }
  sort: { field: apelido, order: ASC }
search: [apelido]
`;

let ts: TestServer;
let admin: Api;
let created: CreateResult;
let migrationsDir: string;
const committedMigrations = fs.readdirSync(MIGRATIONS_DIR).sort();

beforeAll(async () => {
  fs.mkdirSync(root, { recursive: true });
  fs.cpSync(path.join(REPO, 'metadata'), path.join(root, 'metadata'), { recursive: true });
  // The modules' metadata too: the generator reads {root}/modules/<name>/metadata beside {root}/metadata.
  for (const name of fs.readdirSync(path.join(REPO, 'modules'))) {
    const dir = path.join(REPO, 'modules', name, 'metadata');
    if (fs.existsSync(dir)) fs.cpSync(dir, path.join(root, 'modules', name, 'metadata'), { recursive: true });
  }
  fs.writeFileSync(path.join(root, 'metadata/tlm/teste_veiculo.yaml'), YAML);
  await generate({
    metadata: path.join(root, 'metadata'), outServer, outRuntime,
    runtimeSrc: path.join(REPO, 'runtime/src'),
  });
  migrationsDir = migrationsCopy();
  created = await createMigration({ entities: (await loadBundle(outServer)).entities, migrationsPath: migrationsDir, name: 'teste_veiculo' });
  ts = await startTestServer({ generatedDir: outServer, migrationsPath: migrationsDir });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => {
  await ts?.stop();
  fs.rmSync(root, { recursive: true, force: true });
  if (migrationsDir) fs.rmSync(migrationsDir, { recursive: true, force: true });
});

const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

describe('a new YAML file', () => {
  it('gets its table through the migration created for it (temp copy only), applied at start', async () => {
    expect(created.fileName).toMatch(/^Migration\d{14}_teste_veiculo\.ts$/);
    const code = fs.readFileSync(created.path!, 'utf8');
    expect(code).toContain('create table "teste_veiculo"');
    expect(created.sql.filter((s) => !s.includes('teste_veiculo'))).toEqual([]);
    const names = (fs: string[]) => fs.filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''));
    expect(ts.migrations.applied).toEqual([...names(committedMigrations), ...names([created.fileName!])]);
    expect(fs.readdirSync(MIGRATIONS_DIR).sort()).toEqual(committedMigrations);
    const cols = await ts.orm.em.getConnection().execute(
      `select column_name, is_nullable from information_schema.columns where table_schema = 'public' and table_name = 'teste_veiculo' order by column_name`);
    expect(Object.fromEntries(cols.map((c: any) => [c.column_name, c.is_nullable]))).toEqual({
      id: 'NO', empresa_id: 'NO', apelido: 'NO', id_ativo: 'YES', tipo: 'NO', created_at: 'NO', updated_at: 'NO',
    });
  });

  it('answers the CRUD API with Content-Range, validation and a reference to ativo', async () => {
    const [ativo] = await (await admin.get('/api/ativo?range=[0,0]')).json();
    const missing = await admin.post('/api/teste_veiculo', { idAtivo: ativo.id });
    expect(missing.status).toBe(400);
    expect((await json(missing)).msg).toContain('O campo Apelido do veículo é obrigatório');
    const badEnum = await admin.post('/api/teste_veiculo', { apelido: 'X', tipo: 'voador' });
    expect(badEnum.status).toBe(400);

    const res = await admin.post('/api/teste_veiculo', { apelido: 'Carreta azul', idAtivo: ativo.id });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    const row = await res.json();
    expect(row).toMatchObject({ apelido: 'Carreta azul', idAtivo: ativo.id, tipo: 'leve', empresaId: admin.empresaAtiva });

    const list = await admin.get(`/api/teste_veiculo?sort=${enc(['apelido', 'ASC'])}&range=[0,24]&filter=${enc({ q: 'azul' })}`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-range')).toBe('teste_veiculo 0-0/1');
    expect((await list.json()).map((r: any) => r.id)).toEqual([row.id]);

    expect(await (await admin.get(`/api/teste_veiculo/${row.id}`)).json()).toMatchObject({ id: row.id, apelido: 'Carreta azul' });
    const put = await admin.put(`/api/teste_veiculo/${row.id}`, { ...row, apelido: 'Carreta verde', tipo: 'pesado' });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ apelido: 'Carreta verde', tipo: 'pesado' });
    const hist = await (await admin.get(`/api/teste_veiculo/${row.id}/historico`)).json();
    expect(hist.map((h: any) => h.operacao)).toEqual(['update', 'create']);

    expect((await admin.del(`/api/teste_veiculo/${row.id}`)).status).toBe(200);
    expect((await admin.get(`/api/teste_veiculo/${row.id}`)).status).toBe(404);
    expect((await admin.get('/api/teste_veiculo')).headers.get('content-range')).toBe('teste_veiculo 0-0/0');
  });

  it('adds its permission keys, /api/meta entry and OpenAPI paths', async () => {
    const keys = ['lista', 'visualizar', 'adicionar', 'editar', 'excluir'].map((k) => `tlm.fro.teste_veiculo.${k}`);
    const perms = (await json(await admin.get('/api/usuario/permissoes'))).payload;
    expect(perms).toEqual(expect.arrayContaining(keys));
    const meta = await json(await admin.get('/api/meta'));
    const e = meta.entities.find((x: any) => x.key === 'teste_veiculo');
    expect(e).toMatchObject({ label: { singular: 'Veículo de teste' }, route: '/tlm/fro/teste_veiculo', scope: 'empresa' });
    expect(e.fields.map((f: any) => f.name)).toEqual(expect.arrayContaining(['apelido', 'idAtivo', 'tipo']));
    expect(meta.routes.map((r: RouteEntry) => r.name)).toEqual(expect.arrayContaining(keys.filter((k) => !k.endsWith('.excluir'))));
    const doc = await json(await admin.get('/api/openapi.json'));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/teste_veiculo', '/api/teste_veiculo/{id}']));
  });

  it('refuses a user without the keys (403) and hides it from their /api/meta', async () => {
    const own = (await admin.get('/api/auth/get_session').then(json)).payload.user;
    await ts.createUser({ login: 'sem.teste', senha: 'sem-teste-123', ambienteId: own.ambienteId, empresas: [admin.empresaAtiva], permissoes: ['tlm.fro.ativo.lista'] });
    const u = await ts.login('sem.teste', 'sem-teste-123');
    expect((await u.get('/api/teste_veiculo')).status).toBe(403);
    expect((await u.post('/api/teste_veiculo', { apelido: 'X' })).status).toBe(403);
    expect((await u.get('/api/ativo')).status).toBe(200);
    const meta = await json(await u.get('/api/meta'));
    expect(meta.entities.map((x: any) => x.key)).toEqual(['ativo']);
  });

  it('gets its screen: described once in the runtime model, its schema loaded lazily, route table and menu entries', () => {
    const model = JSON.parse(fs.readFileSync(path.join(outRuntime, 'model.json'), 'utf8')) as { entities: { key: string }[] };
    expect(model.entities.map((e) => e.key)).toContain('teste_veiculo');
    expect(fs.existsSync(path.join(outRuntime, 'resources'))).toBe(false);
    expect(fs.readFileSync(path.join(outRuntime, 'index.ts'), 'utf8')).toContain(`"teste_veiculo": () => import('./schemas/teste_veiculo.json').then(schema),`);
    const routes = JSON.parse(fs.readFileSync(path.join(outServer, 'routes.json'), 'utf8')) as RouteEntry[];
    expect(routes.filter((r) => r.entity === 'teste_veiculo').map((r) => [r.view, r.path, r.name])).toEqual(expect.arrayContaining([
      ['list', '/tlm/fro/teste_veiculo', 'tlm.fro.teste_veiculo.lista'],
      ['create', '/tlm/fro/teste_veiculo/adicionar', 'tlm.fro.teste_veiculo.adicionar'],
    ]));
    const flat = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
    const menu = JSON.parse(fs.readFileSync(path.join(outServer, 'menu.json'), 'utf8')) as MenuNode[];
    // the menu tree follows the route (area tlm, section tlm/fro)
    const group = flat(menu).find((n) => n.key === 'tlm/fro')!;
    expect(flat(group.children ?? []).find((n) => n.route === '/tlm/fro/teste_veiculo')).toMatchObject({ label: 'Veículos de teste', permission: 'tlm.fro.teste_veiculo.lista' });
  });
});
