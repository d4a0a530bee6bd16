// The schema telemetria from its metadata (metadata/telemetria/*.yaml → server/generated/telemetry.ts): the state
// the tables must have, read back from a database, diffed into SQL for `npm run migration:create`, compared by
// `npm run migration:check`. The ORM's diff ignores the schema (partitions, RLS and grants are beyond it); this
// module covers it with SQL that is idempotent (IF NOT EXISTS, policies dropped and created again), so the same
// migration brings a fresh database and one made by the old hand-written ingest migrations to the same state.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { TelemetryColumnMeta, TelemetryColumnType, TelemetryTableMeta } from '../../shared/model.ts';

/** What the database holds of a table (the metadata minus what only the code uses). */
export interface TableState {
  key: string;
  columns: TelemetryColumnMeta[];
  primaryKey: string[];
  /** Range-partition column (monthly partitions). */
  partitionColumn?: string;
  indexes: { name: string; columns: string[]; include?: string[] }[];
  scope?: 'empresa';
  app: 'select' | 'none';
  fillfactor?: number;
}

export const TELEMETRY_SNAPSHOT = '.snapshot-telemetria.json';
const q = (key: string) => `telemetria.${key}`;

export function stateOf(t: TelemetryTableMeta): TableState {
  const s: TableState = {
    key: t.key, columns: t.columns.map((c) => ({ ...c })), primaryKey: [...t.primaryKey],
    indexes: t.indexes.map((x) => (x.include ? { name: x.name, columns: [...x.columns], include: [...x.include] } : { name: x.name, columns: [...x.columns] })).sort((a, b) => (a.name < b.name ? -1 : 1)), app: t.app,
  };
  if (t.partition) s.partitionColumn = t.partition.column;
  if (t.scope) s.scope = t.scope;
  if (t.fillfactor !== undefined) s.fillfactor = t.fillfactor;
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// SQL

const columnSql = (c: TelemetryColumnMeta) =>
  `${c.name} ${c.type}${c.identity ? ' GENERATED ALWAYS AS IDENTITY' : ''}${c.notNull ? ' NOT NULL' : ''}${c.default !== undefined ? ` DEFAULT ${c.default}` : ''}`;

/** Schema, roles (cluster-wide: created when missing, as the public *_rls migration does) and the partition function. */
export const PREAMBLE_SQL = [
  'CREATE SCHEMA IF NOT EXISTS telemetria',
  `DO $$
DECLARE r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['rastro_app', 'rastro_ingest'] LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT', r);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END;
    END IF;
    IF NOT pg_has_role(current_user, r, 'member') THEN
      EXECUTE format('GRANT %I TO %I', r, current_user);
    END IF;
  END LOOP;
END $$`,
  'GRANT USAGE ON SCHEMA telemetria TO rastro_app, rastro_ingest',
  // The monthly partition of telemetria.<tabela> holding ts (<tabela>_YYYY_MM), safe under concurrency (several
  // gateway processes creating the same month); with the owner's rights, so a gateway running as rastro_ingest
  // creates them too. Partitions are never granted to rastro_app: it reads through the parent (and its policy).
  `CREATE OR REPLACE FUNCTION telemetria.garante_particao(tabela text, ts timestamptz) RETURNS text LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  inicio timestamptz := date_trunc('month', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  fim    timestamptz := (date_trunc('month', ts AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  nome   text := tabela || '_' || to_char(ts AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(format('telemetria.%I', nome)) IS NULL THEN
    BEGIN
      EXECUTE format('CREATE TABLE IF NOT EXISTS telemetria.%I PARTITION OF telemetria.%I FOR VALUES FROM (%L) TO (%L)',
                     nome, tabela, inicio, fim);
    EXCEPTION WHEN duplicate_table OR unique_violation THEN
      NULL; -- created meanwhile by another session
    END;
  END IF;
  RETURN nome;
END $$`,
  'REVOKE EXECUTE ON FUNCTION telemetria.garante_particao(text, timestamptz) FROM PUBLIC',
  'GRANT EXECUTE ON FUNCTION telemetria.garante_particao(text, timestamptz) TO rastro_ingest',
];

const indexSql = (t: string, x: TableState['indexes'][number]) =>
  `CREATE INDEX IF NOT EXISTS ${x.name} ON ${q(t)} (${x.columns.join(', ')})${x.include ? ` INCLUDE (${x.include.join(', ')})` : ''}`;

function scopeSql(t: TableState): string[] {
  const expr = `empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer`;
  return [
    `ALTER TABLE ${q(t.key)} ENABLE ROW LEVEL SECURITY`,
    `DROP POLICY IF EXISTS ${t.key}_empresa ON ${q(t.key)}`,
    `CREATE POLICY ${t.key}_empresa ON ${q(t.key)} TO rastro_app USING (${expr})`,
    `DROP POLICY IF EXISTS ${t.key}_ingest ON ${q(t.key)}`,
    `CREATE POLICY ${t.key}_ingest ON ${q(t.key)} TO rastro_ingest USING (true) WITH CHECK (true)`,
  ];
}
const unscopeSql = (t: string) => [
  `DROP POLICY IF EXISTS ${t}_empresa ON ${q(t)}`, `DROP POLICY IF EXISTS ${t}_ingest ON ${q(t)}`, `ALTER TABLE ${q(t)} DISABLE ROW LEVEL SECURITY`,
];
const appSql = (t: TableState) => (t.app === 'select' ? `GRANT SELECT ON ${q(t.key)} TO rastro_app` : `REVOKE ALL ON ${q(t.key)} FROM rastro_app`);

/** The whole table, idempotently (an existing table of the same shape is left as it is). */
export function createTableSql(t: TableState): string[] {
  const body = [...t.columns.map(columnSql), `PRIMARY KEY (${t.primaryKey.join(', ')})`].map((l) => `  ${l}`).join(',\n');
  const out = [`CREATE TABLE IF NOT EXISTS ${q(t.key)} (\n${body}\n)${t.partitionColumn ? ` PARTITION BY RANGE (${t.partitionColumn})` : ''}${t.fillfactor !== undefined ? ` WITH (fillfactor = ${t.fillfactor})` : ''}`];
  out.push(...t.indexes.map((x) => indexSql(t.key, x)));
  out.push(appSql(t), `GRANT SELECT, INSERT, UPDATE, DELETE ON ${q(t.key)} TO rastro_ingest`);
  if (t.columns.some((c) => c.identity)) out.push('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA telemetria TO rastro_ingest');
  if (t.scope) out.push(...scopeSql(t));
  return out;
}

export interface TelemetryDiff {
  sql: string[];
  /** pt-BR descriptions of the differences (what the check prints). */
  changes: string[];
  drops: { tables: string[]; columns: string[] };
  /** Differences no generated SQL can make (write them by hand). */
  unsupported: string[];
}

const sameCol = (a: TelemetryColumnMeta, b: TelemetryColumnMeta) =>
  a.type === b.type && a.notNull === b.notNull && (a.default ?? null) === (b.default ?? null) && (a.identity ?? null) === (b.identity ?? null);
const eq = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** SQL that turns `from` (snapshot or live database) into `to` (the metadata). */
export function diffTelemetry(from: TableState[], to: TableState[]): TelemetryDiff {
  const d: TelemetryDiff = { sql: [], changes: [], drops: { tables: [], columns: [] }, unsupported: [] };
  const old = new Map(from.map((t) => [t.key, t]));
  const now = new Map(to.map((t) => [t.key, t]));
  for (const t of to) {
    const o = old.get(t.key);
    if (!o) {
      d.changes.push(`tabela nova: ${q(t.key)}`);
      d.sql.push(...createTableSql(t));
      continue;
    }
    const tn = q(t.key);
    const oc = new Map(o.columns.map((c) => [c.name, c]));
    for (const c of t.columns) {
      const p = oc.get(c.name);
      if (!p) {
        d.changes.push(`coluna nova: ${tn}.${c.name}`);
        if (c.identity) d.unsupported.push(`coluna identity nova: ${tn}.${c.name}`);
        d.sql.push(`ALTER TABLE ${tn} ADD COLUMN IF NOT EXISTS ${columnSql(c)}`);
        continue;
      }
      if (sameCol(p, c)) continue;
      d.changes.push(`coluna alterada: ${tn}.${c.name}`);
      if (p.type !== c.type) d.sql.push(`ALTER TABLE ${tn} ALTER COLUMN ${c.name} TYPE ${c.type} USING ${c.name}::${c.type}`);
      if (p.notNull !== c.notNull) d.sql.push(`ALTER TABLE ${tn} ALTER COLUMN ${c.name} ${c.notNull ? 'SET' : 'DROP'} NOT NULL`);
      if ((p.default ?? null) !== (c.default ?? null)) d.sql.push(c.default !== undefined ? `ALTER TABLE ${tn} ALTER COLUMN ${c.name} SET DEFAULT ${c.default}` : `ALTER TABLE ${tn} ALTER COLUMN ${c.name} DROP DEFAULT`);
      if ((p.identity ?? null) !== (c.identity ?? null)) d.unsupported.push(`identity alterada: ${tn}.${c.name}`);
    }
    for (const p of o.columns) {
      if (t.columns.some((c) => c.name === p.name)) continue;
      d.changes.push(`coluna removida: ${tn}.${p.name}`);
      d.drops.columns.push(`${tn}.${p.name}`);
      d.sql.push(`ALTER TABLE ${tn} DROP COLUMN IF EXISTS ${p.name}`);
    }
    if (!eq(o.primaryKey, t.primaryKey)) {
      d.changes.push(`chave primária alterada: ${tn}`);
      d.sql.push(`ALTER TABLE ${tn} DROP CONSTRAINT IF EXISTS ${t.key}_pkey`, `ALTER TABLE ${tn} ADD CONSTRAINT ${t.key}_pkey PRIMARY KEY (${t.primaryKey.join(', ')})`);
    }
    if ((o.partitionColumn ?? null) !== (t.partitionColumn ?? null)) d.unsupported.push(`particionamento alterado: ${tn} (escreva a migração à mão: a tabela precisa ser recriada)`);
    const ox = new Map(o.indexes.map((x) => [x.name, x]));
    for (const x of t.indexes) {
      const p = ox.get(x.name);
      if (p && eq(p.columns, x.columns) && eq(p.include ?? [], x.include ?? [])) continue;
      d.changes.push(`${p ? 'índice alterado' : 'índice novo'}: ${x.name}`);
      if (p) d.sql.push(`DROP INDEX IF EXISTS telemetria.${x.name}`);
      d.sql.push(indexSql(t.key, x));
    }
    for (const p of o.indexes) {
      if (t.indexes.some((x) => x.name === p.name)) continue;
      d.changes.push(`índice removido: ${p.name}`);
      d.sql.push(`DROP INDEX IF EXISTS telemetria.${p.name}`);
    }
    if ((o.fillfactor ?? null) !== (t.fillfactor ?? null)) {
      d.changes.push(`fillfactor alterado: ${tn}`);
      d.sql.push(t.fillfactor !== undefined ? `ALTER TABLE ${tn} SET (fillfactor = ${t.fillfactor})` : `ALTER TABLE ${tn} RESET (fillfactor)`);
    }
    if (o.app !== t.app) {
      d.changes.push(`acesso do papel rastro_app alterado: ${tn}`);
      d.sql.push(appSql(t));
    }
    if ((o.scope ?? null) !== (t.scope ?? null)) {
      d.changes.push(`escopo por empresa (RLS) alterado: ${tn}`);
      d.sql.push(...(t.scope ? scopeSql(t) : unscopeSql(t.key)));
    }
  }
  for (const o of from) {
    if (now.has(o.key)) continue;
    d.changes.push(`tabela removida: ${q(o.key)}`);
    d.drops.tables.push(q(o.key));
    d.sql.push(`DROP TABLE IF EXISTS ${q(o.key)}`);
  }
  // Roles, schema and the partition function first (all idempotent), once: in the migration that creates the first
  // telemetry table (a later one finds them in place).
  if (!from.length && d.sql.some((s) => s.startsWith('CREATE TABLE') || s.includes('ROW LEVEL SECURITY'))) d.sql.unshift(...PREAMBLE_SQL);
  return d;
}

// ---------------------------------------------------------------------------------------------------------------
// Snapshot (what the committed migrations describe) and the live database

export function readTelemetrySnapshot(migrationsPath: string): TableState[] {
  const f = path.join(migrationsPath, TELEMETRY_SNAPSHOT);
  return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { tables: TableState[] }).tables : [];
}

export function writeTelemetrySnapshot(migrationsPath: string, tables: TableState[]): void {
  fs.writeFileSync(path.join(migrationsPath, TELEMETRY_SNAPSHOT), `${JSON.stringify({ tables }, null, 2)}\n`);
}

const TYPES: Record<string, TelemetryColumnType> = {
  text: 'text', integer: 'integer', bigint: 'bigint', smallint: 'smallint', real: 'real', 'double precision': 'double precision',
  boolean: 'boolean', 'timestamp with time zone': 'timestamptz', jsonb: 'jsonb',
};
/** A default as PostgreSQL shows it, in the metadata's spelling: ''::text → ''. */
const plainDefault = (d: string) => d.replace(/::(text|character varying|jsonb|integer|bigint|boolean|timestamp with time zone)$/, '');

/** The tables of the schema telemetria as they are in the database (partitions apart). */
export async function readTelemetryState(db: pg.ClientBase | pg.Pool): Promise<TableState[]> {
  const { rows: tables } = await db.query<{ oid: number; name: string; partcol: string | null; options: string[] | null; rls: boolean }>(`
    SELECT c.oid, c.relname AS name, c.reloptions AS options, c.relrowsecurity AS rls,
           (SELECT a.attname FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = p.partattrs[0]
             WHERE p.partrelid = c.oid AND p.partstrat = 'r') AS partcol
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'telemetria' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`);
  const { rows: cols } = await db.query<{ rel: number; name: string; type: string; notnull: boolean; def: string | null; identity: string }>(`
    SELECT a.attrelid::int AS rel, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS notnull,
           pg_get_expr(d.adbin, d.adrelid) AS def, a.attidentity AS identity
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attrelid, a.attnum`, [tables.map((t) => t.oid)]);
  const { rows: idx } = await db.query<{ rel: number; name: string; primary: boolean; cols: string[]; nkey: number }>(`
    SELECT i.indrelid::int AS rel, c.relname AS name, i.indisprimary AS primary, i.indnkeyatts::int AS nkey,
           array(SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS cols
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = ANY($1::oid[]) ORDER BY c.relname`, [tables.map((t) => t.oid)]);
  const { rows: pols } = await db.query<{ rel: number; name: string }>(
    `SELECT p.polrelid::int AS rel, p.polname AS name FROM pg_policy p WHERE p.polrelid = ANY($1::oid[])`, [tables.map((t) => t.oid)]);
  const { rows: roles } = await db.query<{ ok: boolean }>(`SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = 'rastro_app') AS ok`);
  const { rows: grants } = roles[0].ok
    ? await db.query<{ rel: number }>(`SELECT oid::int AS rel FROM pg_class WHERE oid = ANY($1::oid[]) AND has_table_privilege('rastro_app', oid, 'SELECT')`, [tables.map((t) => t.oid)])
    : { rows: [] as { rel: number }[] };
  return tables.map((t) => {
    const s: TableState = {
      key: t.name,
      columns: cols.filter((c) => c.rel === t.oid).map((c) => {
        const col: TelemetryColumnMeta = { name: c.name, type: TYPES[c.type] ?? (c.type as TelemetryColumnType), notNull: c.notnull };
        if (c.def !== null) col.default = plainDefault(c.def);
        if (c.identity === 'a') col.identity = 'always';
        return col;
      }),
      primaryKey: idx.find((x) => x.rel === t.oid && x.primary)?.cols ?? [],
      indexes: idx.filter((x) => x.rel === t.oid && !x.primary)
        .map((x) => (x.cols.length > x.nkey ? { name: x.name, columns: x.cols.slice(0, x.nkey), include: x.cols.slice(x.nkey) } : { name: x.name, columns: x.cols })),
      app: grants.some((g) => g.rel === t.oid) ? 'select' : 'none',
    };
    if (t.partcol) s.partitionColumn = t.partcol;
    const names = new Set(pols.filter((p) => p.rel === t.oid).map((p) => p.name));
    if (t.rls && names.has(`${t.name}_empresa`) && names.has(`${t.name}_ingest`)) s.scope = 'empresa';
    const ff = t.options?.find((o) => o.startsWith('fillfactor='));
    if (ff) s.fillfactor = Number(ff.slice('fillfactor='.length));
    return s;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Partitions

/** SQL creating the monthly partitions of every partitioned table from its monthsBehind before `now` to its
 * monthsAhead after (keys and months are literals: run through any client). */
export function partitionSql(tables: TelemetryTableMeta[], now = new Date()): string[] {
  return tables.filter((t) => t.partition).map((t) => {
    const months: string[] = [];
    for (let i = -t.partition!.monthsBehind; i <= t.partition!.monthsAhead; i++) {
      months.push(`'${new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)).toISOString()}'`);
    }
    return `SELECT telemetria.garante_particao('${t.key}', m) FROM unnest(ARRAY[${months.join(', ')}]::timestamptz[]) m`;
  });
}
