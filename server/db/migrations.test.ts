// Migrations are reviewed, not improvised (issue 6 §4): start applies only migration files; a metadata change
// without a migration stops the start with a pt-BR message; migration:create writes the file (drops only with
// --allow-drop, said at the top of the file); migration:check fails when metadata and migrations disagree.
// The schema `telemetria` comes from metadata/telemetria through the same command (telemetry-schema.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntitySchema } from '@mikro-orm/core';
import { startServer } from '../app/start.ts';
import { loadBundle, type Bundle } from '../app/bundle.ts';
import { createDatabase, migrationsCopy } from '../test/harness.ts';
import { runDbCli } from './testing/cli.kit.ts';
import { ALLOW_DROP_HEADER, checkMigrations, createMigration, MigrationError } from './migration-tools.ts';
import { MIGRATIONS_DIR } from './orm.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });
const tempMigrations = () => { const d = migrationsCopy(); dirs.push(d); return d; };
const tsFiles = (d: string) => fs.readdirSync(d).filter((f) => f.endsWith('.ts')).sort();

const extraV1 = () => new EntitySchema({
  name: 'ExtraTeste', tableName: 'extra_teste',
  properties: { id: { type: 'integer', primary: true, autoincrement: true }, nome: { type: 'string', length: 60 }, apelido: { type: 'string', length: 30, nullable: true } },
} as never);
const extraV2 = () => new EntitySchema({
  name: 'ExtraTeste', tableName: 'extra_teste',
  properties: { id: { type: 'integer', primary: true, autoincrement: true }, nome: { type: 'string', length: 60 } },
} as never);

let bundle: Bundle;
beforeAll(async () => { bundle = await loadBundle(); });

describe('start', () => {
  it('applies the committed migrations (the schema telemetria too), refuses metadata without a migration', async () => {
    const url = await createDatabase();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const base = { port: 0, host: '127.0.0.1', databaseUrl: url, dataDir: path.join(REPO, 'server/test/.tmp/mig-start-data'), log: pino({ level: 'silent' }), seed: false as const };
      const before = tsFiles(MIGRATIONS_DIR);
      const snapshot = fs.readFileSync(path.join(MIGRATIONS_DIR, '.snapshot-rastro.json'), 'utf8');

      const first = await startServer(base);
      expect(first.migrations.applied).toEqual(before.map((f) => f.replace(/\.ts$/, '')));
      await first.close();

      // A register in the metadata without its migration: the server does not alter the database by itself.
      const err = await startServer({ ...base, bundle: { ...bundle, entities: [...bundle.entities, extraV1()] } }).then(() => undefined, (e) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect(err.message).toContain('Os metadados mudaram e não há migração versionada');
      expect(err.message).toContain('create table "extra_teste"');
      expect(err.message).toContain('npm run migration:create');

      expect(tsFiles(MIGRATIONS_DIR)).toEqual(before);
      expect(fs.readFileSync(path.join(MIGRATIONS_DIR, '.snapshot-rastro.json'), 'utf8')).toBe(snapshot);
      const tables = (await c.query(`select table_schema, table_name from information_schema.tables where table_name in ('extra_teste', 'posicao')`)).rows;
      expect(tables).toEqual([{ table_schema: 'telemetria', table_name: 'posicao' }]);
      const applied = (await c.query('select name from mikro_orm_migrations order by id')).rows.map((r) => r.name);
      expect(applied).toEqual(before.map((f) => f.replace(/\.ts$/, '')));
    } finally {
      await c.end();
    }
  });
});

describe('migration:create', () => {
  it('writes the migration and snapshot; the next start applies it', async () => {
    const dir = tempMigrations();
    const before = tsFiles(dir);
    const entities = [...bundle.entities, extraV1()];
    const res = await createMigration({ entities, migrationsPath: dir, name: 'extra' });
    expect(res.fileName).toMatch(/^Migration\d{14}_extra\.ts$/);
    expect(tsFiles(dir)).toEqual([...before, res.fileName].sort());
    const code = fs.readFileSync(res.path!, 'utf8');
    expect(code).toContain('create table "extra_teste"');
    expect(code).not.toContain('telemetria');
    expect(res.telemetry).toBeUndefined();
    expect(code).not.toContain(ALLOW_DROP_HEADER);
    // Nothing left to create.
    expect((await createMigration({ entities, migrationsPath: dir })).fileName).toBeUndefined();

    const url = await createDatabase();
    const r = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: url, migrationsPath: dir, dataDir: path.join(dir, 'data'), log: pino({ level: 'silent' }), seed: false, bundle: { ...bundle, entities } });
    try {
      expect(r.migrations.applied.at(-1)).toBe(res.fileName!.replace(/\.ts$/, ''));
      const cols = await r.orm.em.getConnection().execute(`select column_name from information_schema.columns where table_name = 'extra_teste' order by column_name`);
      expect(cols.map((x: any) => x.column_name)).toEqual(['apelido', 'id', 'nome']);
    } finally {
      await r.close();
    }
  });

  it('refuses to drop a column or a table without --allow-drop; with it, the file says so at the top', async () => {
    const dir = tempMigrations();
    await createMigration({ entities: [...bundle.entities, extraV1()], migrationsPath: dir, name: 'v1' });
    const snapshot = fs.readFileSync(path.join(dir, '.snapshot-rastro.json'), 'utf8');
    const files = tsFiles(dir);

    const col = await createMigration({ entities: [...bundle.entities, extraV2()], migrationsPath: dir, name: 'v2' }).then(() => undefined, (e) => e);
    expect(col).toBeInstanceOf(MigrationError);
    expect(col.message).toBe([
      'A migração removeria dados e não foi criada:',
      '  - coluna extra_teste.apelido',
      'Se a remoção é intencional, rode `npm run migration:create -- --allow-drop` e revise o arquivo gerado.',
    ].join('\n'));
    const table = await createMigration({ entities: bundle.entities, migrationsPath: dir, name: 'sem' }).then(() => undefined, (e) => e);
    expect(table).toBeInstanceOf(MigrationError);
    expect(table.message).toContain('  - tabela extra_teste\n');
    // Nothing written.
    expect(tsFiles(dir)).toEqual(files);
    expect(fs.readFileSync(path.join(dir, '.snapshot-rastro.json'), 'utf8')).toBe(snapshot);

    const res = await createMigration({ entities: [...bundle.entities, extraV2()], migrationsPath: dir, name: 'v2', allowDrop: true });
    const code = fs.readFileSync(res.path!, 'utf8');
    expect(code.split('\n').slice(0, 2)).toEqual([ALLOW_DROP_HEADER, '//  - coluna extra_teste.apelido']);
    expect(code).toContain('alter table "extra_teste" drop column "apelido"');
  });
});

// A committed migration whose removal the schema diff must notice (it adds a column nothing later depends on).
// Not simply the newest file: hand-written ones (triggers, RLS roles) are outside what the diff compares.
const DIFF_VISIBLE_MIGRATION = 'Migration20261123143416_equipamento_pendente_descartadas.ts';

describe('migration:check', () => {
  it('passes on the committed migrations', async () => {
    expect(await checkMigrations({ url: await createDatabase(), entities: bundle.entities })).toEqual([]);
  });

  it('fails when a committed migration is missing, or the metadata has no migration', async () => {
    const dir = tempMigrations();
    fs.rmSync(path.join(dir, DIFF_VISIBLE_MIGRATION));
    const missing = await checkMigrations({ url: await createDatabase(), entities: bundle.entities, migrationsPath: dir });
    expect(missing.map((p) => p.kind)).toEqual(['database']);
    expect(missing[0].sql.length).toBeGreaterThan(0);

    const extra = await checkMigrations({ url: await createDatabase(), entities: [...bundle.entities, extraV1()] });
    expect(extra.map((p) => p.kind)).toEqual(['snapshot', 'database']);
    expect(extra[0].sql.join('\n')).toContain('create table "extra_teste"');
  });

  it('npm run migration:check exits 1 with a pt-BR list of the difference, 0 when they agree', async () => {
    const dir = tempMigrations();
    fs.rmSync(path.join(dir, DIFF_VISIBLE_MIGRATION));
    const bad = await runDbCli(['check', '--dir', dir]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('Os metadados e as migrações versionadas (server/migrations) não conferem.');
    expect(bad.stderr).toContain('Rode `npm run migration:create`');
    const good = await runDbCli(['check']);
    expect(good.stderr).toBe('');
    expect(good.stdout).toContain('Migrações conferem com os metadados.');
    expect(good.status).toBe(0);
  });
});
