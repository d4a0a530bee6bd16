// The schema telemetria comes from metadata/telemetria through the one migration command (issue 19 §3):
// migration:check fails when a telemetry column is added to the metadata without a migration, migration:create
// writes it, and the committed transition migration brings a database of the old ingest migrator (001–003)
// and an empty one to the same state, rows and partitions kept.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, type Bundle } from '../app/bundle.ts';
import { loadMetadata } from '../../generator/load.ts';
import { buildTelemetry, emitTelemetry } from '../../generator/telemetry.ts';
import type { TelemetryTableMeta } from '../../shared/model.ts';
import { TELEMETRY_TABLES } from '../generated/telemetry.ts';
import { createDatabase, migrationsCopy } from '../test/harness.ts';
import { checkMigrations, createMigration, describeProblems, migrate } from './migration-tools.ts';
import { runDbCli } from './testing/cli.kit.ts';
import { createOrm, MIGRATIONS_DIR } from './orm.ts';
import { diffTelemetry, readTelemetryState, stateOf } from './telemetry-schema.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });
let bundle: Bundle;
beforeAll(async () => { bundle = await loadBundle(); });

/** A temp copy of metadata/ with one more column in telemetria/posicao.yaml; answers its telemetry tables. */
function metadataWithNewColumn(): { dir: string; tables: TelemetryTableMeta[] } {
  const root = path.join(REPO, 'server/test/.tmp', `meta-tel-${process.pid}-${dirs.length}`);
  dirs.push(root);
  const dir = path.join(root, 'metadata');
  fs.cpSync(path.join(REPO, 'metadata'), dir, { recursive: true });
  // the modules' metadata beside it (their telemetry tables too)
  for (const m of fs.readdirSync(path.join(REPO, 'modules'))) {
    const from = path.join(REPO, 'modules', m, 'metadata');
    if (fs.existsSync(from)) fs.cpSync(from, path.join(root, 'modules', m, 'metadata'), { recursive: true });
  }
  const f = path.join(dir, 'telemetria/posicao.yaml');
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('  - { name: attributes, type: jsonb }', '  - { name: attributes, type: jsonb }\n  - { name: odometro, type: double precision }'));
  const { tables, problems } = buildTelemetry(loadMetadata(dir).kinds?.telemetria ?? []);
  expect(problems).toEqual([]);
  return { dir, tables };
}

async function withClient<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { return await f(c); } finally { await c.end(); }
}

describe('telemetry metadata', () => {
  it('is what the writer and the generated column lists use', () => {
    expect(TELEMETRY_TABLES.map((t) => t.key)).toEqual(['cerca_permanencia', 'embarque', 'endereco', 'evento', 'mensagem_pendente', 'parada', 'posicao', 'total_diario', 'total_diario_estado', 'ultimo_estado', 'viagem', 'viagem_passageiro']);
    const posicao = TELEMETRY_TABLES.find((t) => t.key === 'posicao')!;
    expect(posicao.partition).toEqual({ column: 'fix_time', interval: 'month', monthsBehind: 1, monthsAhead: 2 });
    expect(posicao.primaryKey).toEqual(['serial', 'fix_time', 'tipo']);
    expect(posicao.scope).toBe('empresa');
  });

  it('refuses a partitioned table whose primary key lacks the partition column, and unknown columns', () => {
    const { problems } = buildTelemetry([{ file: 'metadata/telemetria/x.yaml', area: 'telemetria', data: {
      kind: 'telemetria', key: 'x', label: 'X', app: 'none', scope: 'empresa',
      columns: [{ name: 'serial', type: 'text', notNull: true }, { name: 't', type: 'timestamptz', notNull: true }],
      primaryKey: ['serial'], partition: { column: 't', interval: 'month' }, indexes: [{ name: 'x_y', columns: ['y'] }],
    } }]);
    expect(problems).toEqual([
      'metadata/telemetria/x.yaml: /indexes/0/columns/0: coluna desconhecida: y',
      'metadata/telemetria/x.yaml: /primaryKey: a chave primária de uma tabela particionada deve incluir t',
      'metadata/telemetria/x.yaml: /scope: o escopo empresa exige a coluna empresa_id (integer)',
    ]);
  });
});

describe('migration:check and migration:create over the schema telemetria', () => {
  it('a fresh database migrated by the committed migrations has exactly the described tables, RLS and partitions', async () => {
    const url = await createDatabase();
    expect(await checkMigrations({ url, entities: bundle.entities })).toEqual([]);
    await withClient(url, async (c) => {
      expect(diffTelemetry(await readTelemetryState(c), TELEMETRY_TABLES.map(stateOf)).changes).toEqual([]);
      const parts = (await c.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'telemetria.posicao'::regclass`)).rows[0].n;
      expect(parts).toBe(4); // last month, this month, two ahead
      const pol = (await c.query(`SELECT polname FROM pg_policy WHERE polrelid = 'telemetria.ultimo_estado'::regclass ORDER BY 1`)).rows.map((r) => r.polname);
      expect(pol).toEqual(['ultimo_estado_empresa', 'ultimo_estado_ingest']);
    });
  });

  it('fails when a telemetry column is added to the metadata without a migration; create writes it; check passes', async () => {
    const { tables } = metadataWithNewColumn();
    const problems = await checkMigrations({ url: await createDatabase(), entities: bundle.entities, telemetry: tables });
    expect(problems.map((p) => [p.kind, p.schema, p.changes])).toEqual([
      ['snapshot', 'telemetria', ['coluna nova: telemetria.posicao.odometro']],
      ['database', 'telemetria', ['coluna nova: telemetria.posicao.odometro']],
    ]);
    expect(describeProblems(problems)).toContain('Diferença entre os metadados de telemetria (metadata/telemetria) e o snapshot (.snapshot-telemetria.json) — falta criar a migração:\n  coluna nova: telemetria.posicao.odometro');

    const dir = migrationsCopy();
    dirs.push(dir);
    const res = await createMigration({ entities: bundle.entities, migrationsPath: dir, name: 'odometro', telemetry: tables });
    expect(res.fileName).toMatch(/^Migration\d{14}_odometro\.ts$/);
    expect(res.telemetry!.sql).toEqual(['ALTER TABLE telemetria.posicao ADD COLUMN IF NOT EXISTS odometro double precision']);
    expect(fs.readFileSync(res.path!, 'utf8')).toContain('this.addSql(`ALTER TABLE telemetria.posicao ADD COLUMN IF NOT EXISTS odometro double precision`);');
    expect((await createMigration({ entities: bundle.entities, migrationsPath: dir, telemetry: tables })).fileName).toBeUndefined();
    expect(await checkMigrations({ url: await createDatabase(), entities: bundle.entities, migrationsPath: dir, telemetry: tables })).toEqual([]);
    // The committed migrations do not know the column.
    expect(await checkMigrations({ url: await createDatabase(), entities: bundle.entities, migrationsPath: MIGRATIONS_DIR })).toEqual([]);
  });

  it('npm run migration:check exits 1 naming the column when the generated telemetry has it and no migration does', async () => {
    const { tables } = metadataWithNewColumn();
    const gen = path.join(REPO, 'server/test/.tmp', `gen-tel-${process.pid}`);
    dirs.push(gen);
    fs.cpSync(path.join(REPO, 'server/generated'), gen, { recursive: true });
    fs.writeFileSync(path.join(gen, 'telemetry.ts'), emitTelemetry(tables));
    const bad = await runDbCli(['check', '--generated', gen]);
    expect(bad.stderr).toContain('Os metadados e as migrações versionadas (server/migrations) não conferem.');
    expect(bad.stderr).toContain('  coluna nova: telemetria.posicao.odometro');
    expect(bad.stderr).toContain('Rode `npm run migration:create`');
    expect(bad.status).toBe(1);
  });
});

describe('transition from the gateway’s own migrator (001–003)', () => {
  it('keeps the tables, rows and partitions of an existing database and ends in the described state', async () => {
    const url = await createDatabase();
    const legacy = path.join(import.meta.dirname, 'testing/telemetria-legacy');
    await withClient(url, async (c) => {
      // What the old migrator left: its journal, the tables of 001–003, a partition and a row.
      await c.query('CREATE SCHEMA telemetria; CREATE TABLE telemetria.schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const f of fs.readdirSync(legacy).sort()) {
        await c.query(fs.readFileSync(path.join(legacy, f), 'utf8'));
        await c.query('INSERT INTO telemetria.schema_migrations (version) VALUES ($1)', [f.replace(/\.sql$/, '')]);
      }
      await c.query(`SELECT telemetria.garante_particao('2024-03-10T00:00:00Z')`);
      await c.query(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, lat, lon, valid) VALUES ('A1', '2024-03-10T12:00:00Z', 'pos', 7, -23.5, -46.6, true)`);
    });
    const orm = await createOrm({ url, entities: bundle.entities, poolMax: 2 });
    try { await migrate(orm); } finally { await orm.close(true); }
    await withClient(url, async (c) => {
      expect(diffTelemetry(await readTelemetryState(c), TELEMETRY_TABLES.map(stateOf)).changes).toEqual([]);
      expect((await c.query(`SELECT serial, empresa_id FROM telemetria.posicao_2024_03`)).rows).toEqual([{ serial: 'A1', empresa_id: 7 }]);
      expect((await c.query(`SELECT to_regclass('telemetria.schema_migrations') AS t`)).rows[0].t).toBeNull();
      const fns = (await c.query(`SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS args FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'telemetria' ORDER BY 1`)).rows;
      // the partition function of the migrations and the live-fleet trigger's (home page push); none of the old migrator's
      expect(fns).toEqual([{ name: 'estado_frota_notify', args: '' }, { name: 'garante_particao', args: 'tabela text, ts timestamp with time zone' }]);
      // The writer's partition call works on the kept table (next month of the old data).
      expect((await c.query(`SELECT telemetria.garante_particao('posicao', '2024-04-02T00:00:00Z') AS p`)).rows[0].p).toBe('posicao_2024_04');
    });
  });
});
