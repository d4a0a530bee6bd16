// Migrations on start: applied, and created automatically when the entities drift from the snapshot
// (a new YAML); the PostgreSQL schema `telemetria` is never touched.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, expect, it } from 'vitest';
import { EntitySchema } from '@mikro-orm/core';
import { startServer } from '../app/start.ts';
import { loadBundle } from '../app/bundle.ts';
import { createDatabase, migrationsCopy } from '../test/harness.ts';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

it('applies, auto-creates on drift, ignores telemetria', async () => {
  const url = await createDatabase();
  const migrations = migrationsCopy();
  dirs.push(migrations);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('create schema telemetria; create table telemetria.posicao (id bigserial primary key, serial text)');
  const log = pino({ level: 'silent' });
  const base = { port: 0, host: '127.0.0.1', databaseUrl: url, migrationsPath: migrations, dataDir: path.join(migrations, 'data'), log, seed: false as const };

  const first = await startServer(base);
  await first.close();

  const bundle = await loadBundle();
  const extra = new EntitySchema({
    name: 'ExtraTeste', tableName: 'extra_teste',
    properties: { id: { type: 'integer', primary: true, autoincrement: true }, nome: { type: 'string', length: 60 } },
  } as never);
  const before = fs.readdirSync(migrations).filter((f) => f.endsWith('.ts'));
  const second = await startServer({ ...base, bundle: { ...bundle, entities: [...bundle.entities, extra] } });
  expect(second.migrations.created).toMatch(/^Migration\d+/);
  await second.close();
  const after = fs.readdirSync(migrations).filter((f) => f.endsWith('.ts'));
  expect(after.length).toBe(before.length + 1);
  const created = fs.readFileSync(path.join(migrations, after.find((f) => !before.includes(f))!), 'utf8');
  expect(created).toContain('extra_teste');
  expect(created).not.toContain('telemetria');

  const tables = (await c.query(`select table_schema, table_name from information_schema.tables where table_name in ('extra_teste', 'posicao')`)).rows;
  expect(tables).toEqual(expect.arrayContaining([{ table_schema: 'public', table_name: 'extra_teste' }, { table_schema: 'telemetria', table_name: 'posicao' }]));
  // A third start with the same entities creates nothing.
  const third = await startServer({ ...base, bundle: { ...bundle, entities: [...bundle.entities, extra] } });
  expect(third.migrations.created).toBeUndefined();
  await third.close();
  await c.end();
});
