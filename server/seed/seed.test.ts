// First-start seed: production gets the ambiente, the first company, its roles and the admin only; the demo data
// (demo mode or npm run seed:demo) adds the rest. Passwords (ADMIN_PASSWORD, LEITOR_PASSWORD, or generated and
// printed once), company-scoped roles without the platform key, leitor in the first company only.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { verify } from '@node-rs/argon2';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadBundle, type Bundle } from '../app/bundle.ts';
import { createOrm, MIGRATIONS_DIR } from '../db/orm.ts';
import { migrate } from '../db/migration-tools.ts';
import { setRuntime } from '../core/registry.ts';
import { createDatabase } from '../test/harness.ts';
import { demoMode, seedIfEmpty } from './index.ts';

let bundle: Bundle;
let orm: MikroORM | undefined;
let url: string;
const saved = { a: process.env.ADMIN_PASSWORD, l: process.env.LEITOR_PASSWORD };
let printed: string[];

beforeEach(async () => {
  bundle ??= await loadBundle();
  setRuntime({ model: bundle.model, schemas: bundle.schemas, dir: bundle.dir });
  url = await createDatabase();
  orm = await createOrm({ url, entities: bundle.entities, migrationsPath: MIGRATIONS_DIR });
  await migrate(orm);
  printed = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => { printed.push(a.join(' ')); });
  delete process.env.ADMIN_PASSWORD;
  delete process.env.LEITOR_PASSWORD;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await orm?.close(true);
  for (const [k, v] of [['ADMIN_PASSWORD', saved.a], ['LEITOR_PASSWORD', saved.l]] as const) {
    if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
});

const rows = async (sql: string) => (await orm!.em.getConnection().execute(sql)) as Record<string, any>[];
const count = async (table: string) => Number((await rows(`select count(*)::int as n from ${table}`))[0].n);
const REGISTERS = ['ativo', 'garagem', 'motorista', 'categoria_de_ativo', 'fabricante_de_ativo', 'modelo_de_ativo', 'situacao_do_ativo'];
/** npm run seed:demo on the test database. */
const seedDemoCli = (env: Record<string, string> = {}) => spawnSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'server/seed/demo.ts'],
  { env: { ...process.env, DATABASE_URL: url, MIGRATIONS_PATH: MIGRATIONS_DIR, ...env }, encoding: 'utf8' });
const senha = async (login: string) => String((await orm!.em.getConnection().execute('select senha from usuario where login = ?', [login]))[0].senha);

describe('seed', () => {
  it('production (no demo): ambiente, first company, its two roles and admin only; no register data, no leitor', async () => {
    const r = await seedIfEmpty(orm!, bundle.model);
    expect(r).toMatchObject({ seeded: true, demo: false, leitorPassword: undefined });
    expect((await rows('select fantasia from empresa')).map((e) => e.fantasia)).toEqual(['Empresa principal']);
    expect(await count('ambiente')).toBe(1);
    expect((await rows('select descricao from cargo order by id')).map((c) => c.descricao)).toEqual(['Administrador', 'Somente leitura']);
    expect((await rows('select login, roles from usuario')).map((u) => [u.login, u.roles])).toEqual([['admin', ['dev']]]);
    for (const t of REGISTERS) expect([t, await count(t)]).toEqual([t, 0]);
    expect(await verify(await senha('admin'), r.adminPassword!)).toBe(true);
    expect(printed.join('\n')).toContain(`Usuário inicial: admin   senha: ${r.adminPassword}`);
    expect(printed.join('\n')).not.toContain('leitor');
  });

  it('npm run seed:demo adds the demo data to it once (second company, leitor, registers); a second run adds nothing', async () => {
    await seedIfEmpty(orm!, bundle.model, undefined, { adminPassword: 'senha-do-admin-1' });
    const first = seedDemoCli({ LEITOR_PASSWORD: 'senha-do-leitor-1' });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('dados de demonstração adicionados; usuário somente leitura: leitor   senha: (a de LEITOR_PASSWORD)');
    const empresas = (await rows('select id, fantasia from empresa order by id'));
    expect(empresas.map((e) => e.fantasia)).toEqual(['Transportes Alfa', 'Logística Beta']);
    const admin = (await rows(`select empresas, cargos from usuario where login = 'admin'`))[0];
    expect(admin.empresas).toEqual(empresas.map((e) => e.id));
    expect(admin.cargos).toHaveLength(2);
    expect(await verify(await senha('leitor'), 'senha-do-leitor-1')).toBe(true);
    expect((await rows(`select empresas from usuario where login = 'leitor'`))[0].empresas).toEqual([empresas[0].id]);
    expect(await count('ativo')).toBe(50);
    expect(await count('motorista')).toBe(50);
    expect(await count('cargo')).toBe(4);
    const again = seedDemoCli();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('dados de demonstração já presentes');
    expect(await count('ativo')).toBe(50);
    expect(await count('empresa')).toBe(2);
  }, 60_000);

  it('npm run seed:demo on a database never started: schema, first-start data, catalogues and demo data', async () => {
    const fresh = await createDatabase();
    const r = seedDemoCli({ DATABASE_URL: fresh, ADMIN_PASSWORD: 'senha-do-admin-1', LEITOR_PASSWORD: 'senha-do-leitor-1' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('banco inicializado com os dados de demonstração');
    const c = new pg.Client({ connectionString: fresh });
    await c.connect();
    try {
      const n = async (t: string) => Number((await c.query(`select count(*)::int as n from ${t}`)).rows[0].n);
      expect([await n('empresa'), await n('usuario'), await n('ativo'), await n('motorista')]).toEqual([2, 2, 50, 50]);
      expect(await n('estado')).toBe(27);
    } finally { await c.end(); }
  }, 90_000);

  it('demo mode: DEMO=on|off, else on exactly when DATABASE_URL is unset (the embedded database)', () => {
    expect(demoMode(undefined, undefined)).toBe(true);
    expect(demoMode('postgres://x/y', undefined)).toBe(false);
    expect(demoMode('postgres://x/y', 'on')).toBe(true);
    expect(demoMode(undefined, 'off')).toBe(false);
    expect(demoMode(undefined, '0')).toBe(false);
  });

  it('demo, without the variables: both passwords generated, different, and printed once', async () => {
    const r = await seedIfEmpty(orm!, bundle.model, undefined, { demo: true });
    expect(r.seeded).toBe(true);
    expect(r.adminPassword).not.toBe(r.leitorPassword);
    expect(await verify(await senha('admin'), r.adminPassword!)).toBe(true);
    expect(await verify(await senha('leitor'), r.leitorPassword!)).toBe(true);
    const out = printed.join('\n');
    expect(out).toContain(`Usuário inicial: admin   senha: ${r.adminPassword}`);
    expect(out).toContain(`Usuário somente leitura: leitor   senha: ${r.leitorPassword}`);
    // Second start: nothing seeded, nothing printed.
    printed.length = 0;
    expect((await seedIfEmpty(orm!, bundle.model, undefined, { demo: true })).seeded).toBe(false);
    expect(printed).toEqual([]);
  });

  it('demo, ADMIN_PASSWORD set: admin uses it (not printed); leitor gets its own generated password, printed', async () => {
    process.env.ADMIN_PASSWORD = 'senha-do-admin-1';
    const r = await seedIfEmpty(orm!, bundle.model, undefined, { demo: true });
    expect(await verify(await senha('admin'), 'senha-do-admin-1')).toBe(true);
    expect(await verify(await senha('leitor'), 'senha-do-admin-1')).toBe(false);
    expect(await verify(await senha('leitor'), r.leitorPassword!)).toBe(true);
    const out = printed.join('\n');
    expect(out).not.toContain('senha-do-admin-1');
    expect(out).toContain('Usuário inicial: admin   senha: (a de ADMIN_PASSWORD)');
    expect(out).toContain(`Usuário somente leitura: leitor   senha: ${r.leitorPassword}`);
  });

  it('demo, both set: nothing printed; roles are per company without the platform key', async () => {
    process.env.ADMIN_PASSWORD = 'senha-do-admin-1';
    process.env.LEITOR_PASSWORD = 'senha-do-leitor-1';
    await seedIfEmpty(orm!, bundle.model, undefined, { demo: true });
    expect(printed).toEqual([]);
    expect(await verify(await senha('leitor'), 'senha-do-leitor-1')).toBe(true);
    const conn = orm!.em.getConnection();
    const cargos = (await conn.execute('select empresa_id, descricao, permissoes from cargo order by id')) as { empresa_id: number; descricao: string; permissoes: string[] }[];
    const empresas = ((await conn.execute('select id from empresa order by id')) as { id: number }[]).map((e) => e.id);
    expect(cargos.map((c) => [c.empresa_id, c.descricao])).toEqual(empresas.flatMap((e) => [[e, 'Administrador'], [e, 'Somente leitura']]));
    for (const c of cargos) expect(c.permissoes.filter((k) => k.startsWith('adm.sis.plataforma') || k === 'adm.sis.empresa.suspende' || k.startsWith('adm.sis.ambiente.'))).toEqual([]);
    const leitor = (await conn.execute(`select empresas from usuario where login = 'leitor'`))[0] as { empresas: number[] };
    expect(leitor.empresas).toEqual([empresas[0]]);
  });
});
