// Telemetry tables (metadata `kind: telemetria`, metadata/telemetria/*.yaml): the tables of the schema telemetria
// that the gateway writes and the providers read. One module: JSON schema, validation, normalisation and the
// emitter of server/generated/telemetry.ts (column lists and types the writer imports, the tables' description
// the migration command diffs: server/db/telemetry-schema.ts).
import { basename } from 'node:path';
import { Ajv } from 'ajv';
import { problem } from './errors.ts';
import type { KindModule } from './kinds/types.ts';
import type { SourceFile } from './load.ts';
import { formatErrors } from './validate.ts';
import { TELEMETRY_COLUMN_TYPES, type TelemetryColumnMeta, type TelemetryTableMeta } from '../shared/model.ts';

const ident = { type: 'string', pattern: '^[a-z][a-z0-9_]{0,62}$' };

export const telemetrySchema = {
  $id: 'telemetry.schema.json',
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'key', 'label', 'columns', 'primaryKey', 'app'],
  properties: {
    kind: { const: 'telemetria' },
    key: ident,
    label: { type: 'string', minLength: 1 },
    scope: { enum: ['empresa'] },
    app: { enum: ['select', 'none'] },
    fillfactor: { type: 'integer', minimum: 10, maximum: 100 },
    columns: {
      type: 'array', minItems: 1,
      items: {
        type: 'object', additionalProperties: false, required: ['name', 'type'],
        properties: {
          name: ident,
          type: { enum: [...TELEMETRY_COLUMN_TYPES] },
          notNull: { type: 'boolean' },
          default: { type: 'string', minLength: 1 },
          identity: { const: 'always' },
        },
      },
    },
    primaryKey: { type: 'array', minItems: 1, items: ident },
    partition: {
      type: 'object', additionalProperties: false, required: ['column', 'interval'],
      properties: {
        column: ident,
        interval: { const: 'month' },
        monthsBehind: { type: 'integer', minimum: 0, maximum: 24 },
        monthsAhead: { type: 'integer', minimum: 0, maximum: 24 },
      },
    },
    indexes: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false, required: ['name', 'columns'],
        properties: {
          name: ident, columns: { type: 'array', minItems: 1, items: ident },
          // covering columns (INCLUDE): a read that needs only the key and these is answered from the index alone
          include: { type: 'array', minItems: 1, items: ident },
        },
      },
    },
  },
} as const;

export interface RawTelemetry {
  kind: 'telemetria'; key: string; label: string; scope?: 'empresa'; app: 'select' | 'none'; fillfactor?: number;
  columns: { name: string; type: TelemetryColumnMeta['type']; notNull?: boolean; default?: string; identity?: 'always' }[];
  primaryKey: string[];
  partition?: { column: string; interval: 'month'; monthsBehind?: number; monthsAhead?: number };
  indexes?: { name: string; columns: string[]; include?: string[] }[];
}

export const isTelemetry = (data: unknown) => !!data && typeof data === 'object' && (data as { kind?: unknown }).kind === 'telemetria';

/** One file, already valid against telemetrySchema. Problems go to err (JSON-pointer path, pt-BR message). */
export function normalizeTelemetry(raw: RawTelemetry, file: string, err: (path: string, msg: string) => void): TelemetryTableMeta {
  const expectedKey = basename(file).replace(/\.ya?ml$/, '');
  if (raw.key !== expectedKey) err('/key', `deve ser igual ao nome do arquivo (${expectedKey})`);
  const byName = new Map<string, TelemetryColumnMeta>();
  const columns = raw.columns.map((c, i) => {
    if (byName.has(c.name)) err(`/columns/${i}/name`, `coluna repetida: ${c.name}`);
    const col: TelemetryColumnMeta = { name: c.name, type: c.type, notNull: !!c.notNull };
    if (c.default !== undefined) col.default = c.default;
    if (c.identity) {
      col.identity = c.identity;
      if (!['bigint', 'integer', 'smallint'].includes(c.type)) err(`/columns/${i}/identity`, 'só colunas inteiras podem ser identity');
      if (!c.notNull) err(`/columns/${i}/notNull`, 'uma coluna identity deve ser notNull');
      if (c.default !== undefined) err(`/columns/${i}/default`, 'uma coluna identity não tem default');
    }
    byName.set(c.name, col);
    return col;
  });
  const known = (path: string, name: string) => { if (!byName.has(name)) err(path, `coluna desconhecida: ${name}`); };
  raw.primaryKey.forEach((c, i) => {
    known(`/primaryKey/${i}`, c);
    if (byName.get(c) && !byName.get(c)!.notNull) err(`/primaryKey/${i}`, `a coluna ${c} da chave primária deve ser notNull`);
  });
  const table: TelemetryTableMeta = {
    key: raw.key, file, label: raw.label, schema: 'telemetria', table: `telemetria.${raw.key}`,
    columns, primaryKey: [...raw.primaryKey], indexes: (raw.indexes ?? []).map((x) => (x.include ? { name: x.name, columns: [...x.columns], include: [...x.include] } : { name: x.name, columns: [...x.columns] })), app: raw.app,
  };
  table.indexes.forEach((x, i) => {
    x.columns.forEach((c, j) => known(`/indexes/${i}/columns/${j}`, c));
    x.include?.forEach((c, j) => {
      known(`/indexes/${i}/include/${j}`, c);
      if (x.columns.includes(c)) err(`/indexes/${i}/include/${j}`, `coluna já na chave do índice: ${c}`);
    });
    if (x.name === `${raw.key}_pkey`) err(`/indexes/${i}/name`, `nome reservado à chave primária: ${x.name}`);
  });
  if (raw.partition) {
    const p = raw.partition;
    known('/partition/column', p.column);
    if (byName.get(p.column) && byName.get(p.column)!.type !== 'timestamptz') err('/partition/column', 'a partição mensal exige uma coluna timestamptz');
    // PostgreSQL: a unique key of a partitioned table must include the partition column.
    if (!raw.primaryKey.includes(p.column)) err('/primaryKey', `a chave primária de uma tabela particionada deve incluir ${p.column}`);
    if (raw.fillfactor !== undefined) err('/fillfactor', 'fillfactor não se aplica a uma tabela particionada');
    table.partition = { column: p.column, interval: 'month', monthsBehind: p.monthsBehind ?? 1, monthsAhead: p.monthsAhead ?? 2 };
  }
  if (raw.scope === 'empresa') {
    const e = byName.get('empresa_id');
    if (!e || e.type !== 'integer') err('/scope', 'o escopo empresa exige a coluna empresa_id (integer)');
    table.scope = 'empresa';
  }
  if (raw.fillfactor !== undefined) table.fillfactor = raw.fillfactor;
  return table;
}

let compiled: ReturnType<Ajv['compile']> | undefined;

/** Validates and normalises the telemetry files; answers the tables (sorted by key) and the problems (pt-BR). */
export function buildTelemetry(files: SourceFile[]): { tables: TelemetryTableMeta[]; problems: string[] } {
  compiled ??= new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(telemetrySchema);
  const problems: string[] = [];
  const tables: TelemetryTableMeta[] = [];
  for (const src of files) {
    if (!compiled(src.data)) { problems.push(...formatErrors(src.file, compiled.errors)); continue; }
    tables.push(normalizeTelemetry(src.data as RawTelemetry, src.file, (p, m) => problems.push(problem(src.file, p, m))));
  }
  problems.push(...uniqueNames(tables));
  tables.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { tables, problems };
}

/** Tables and indexes share one namespace in the schema telemetria. */
function uniqueNames(tables: TelemetryTableMeta[]): string[] {
  const problems: string[] = [];
  const names = new Map<string, string>();
  for (const t of tables) {
    for (const n of [t.key, ...t.indexes.map((x) => x.name)]) {
      if (names.has(n)) problems.push(problem(t.file, '', `nome repetido no schema telemetria: ${n} (também em ${names.get(n)})`));
      names.set(n, t.file);
    }
  }
  return problems;
}

const constName = (key: string) => key.toUpperCase();
const typeName = (key: string) => key.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/** server/generated/telemetry.ts: the tables' description and, per table, its column list and types. */
export function emitTelemetry(tables: TelemetryTableMeta[]): string {
  const out = [
    '// Generated by generator/cli.ts from metadata/telemetria (kind: telemetria). Do not edit.',
    "import type { TelemetryTableMeta } from '../../shared/model.ts';",
    '',
    `export const TELEMETRY_TABLES: TelemetryTableMeta[] = ${JSON.stringify(tables, null, 2)};`,
  ];
  for (const t of tables) {
    const k = constName(t.key);
    out.push('', `/** Columns of ${t.table}, in the metadata's order. */`);
    out.push(`export const ${k}_COLUMNS = [${t.columns.map((c) => JSON.stringify(c.name)).join(', ')}] as const;`);
    out.push(`export type ${typeName(t.key)}Column = (typeof ${k}_COLUMNS)[number];`);
    out.push(`/** PostgreSQL type of each column of ${t.table}. */`);
    out.push(`export const ${k}_TYPES = { ${t.columns.map((c) => `${c.name}: ${JSON.stringify(c.type)}`).join(', ')} } as const;`);
  }
  return `${out.join('\n')}\n`;
}

/** Aliases of the telemetry tables a SQL text reads (`telemetria.<table> [AS] <alias>`); unknown tables to `unknown`. */
function telemetryAliases(text: string, byKey: Map<string, TelemetryTableMeta>, aliases: Map<string, TelemetryTableMeta>, unknown: string[]): void {
  for (const m of text.matchAll(/\btelemetria\.("?)([a-z_][a-z0-9_]*)\1(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/gi)) {
    const t = byKey.get(m[2]!);
    if (!t) { unknown.push(m[2]!); continue; }
    aliases.set(m[3] && !/^(where|join|left|right|inner|full|on|group|order|limit|cross|union)$/i.test(m[3]) ? m[3] : m[2]!, t);
  }
}
function columnRefs(text: string, aliases: Map<string, TelemetryTableMeta>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b([a-z_][a-z0-9_]*)\.("?)([a-z_][a-z0-9_]*)\2/gi)) {
    const t = aliases.get(m[1]!);
    if (t && !t.columns.some((c) => c.name === m[3])) out.push(`coluna desconhecida em ${t.table}: ${m[3]}`);
  }
  return out;
}

/**
 * SQL in the metadata that reads telemetry tables names only what metadata/telemetria describes: providers declared
 * over them (`sql.from` naming telemetria.<table> <alias>, their columns' and filters' SQL) and entities' computed
 * columns (`sql`). Answers pt-BR problems.
 */
export function checkTelemetryRefs(files: SourceFile[], tables: TelemetryTableMeta[]): string[] {
  const byKey = new Map(tables.map((t) => [t.key, t]));
  const problems: string[] = [];
  const unknownTables = (file: string, path: string, names: string[]) => {
    for (const n of names) problems.push(problem(file, path, `tabela de telemetria desconhecida: telemetria.${n} (metadata/telemetria)`));
  };
  for (const src of files) {
    const data = src.data as { sql?: Record<string, unknown>; columns?: unknown } | null;
    const sql = data?.sql;
    if (sql && typeof sql.from === 'string') {
      const aliases = new Map<string, TelemetryTableMeta>();
      const unknown: string[] = [];
      telemetryAliases(sql.from, byKey, aliases, unknown);
      unknownTables(src.file, '/sql/from', unknown);
      const texts: [string, string][] = [['/sql/from', sql.from]];
      for (const k of ['columns', 'filters'] as const) {
        const o = sql[k];
        if (o && typeof o === 'object') for (const [n, v] of Object.entries(o)) if (typeof v === 'string') texts.push([`/sql/${k}/${n}`, v]);
      }
      for (const [path, text] of texts) problems.push(...columnRefs(text, aliases).map((m) => problem(src.file, path, m)));
    }
    // Any other `sql` text of the file (computed columns of lists, record tabs …): aliases declared in the same text.
    const walk = (v: unknown, path: string, key: string): void => {
      if (typeof v === 'string') {
        if (key !== 'sql') return;
        const aliases = new Map<string, TelemetryTableMeta>();
        const unknown: string[] = [];
        telemetryAliases(v, byKey, aliases, unknown);
        unknownTables(src.file, path, unknown);
        problems.push(...columnRefs(v, aliases).map((m) => problem(src.file, path, m)));
      } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}/${i}`, key));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (!(path === '' && k === 'sql')) walk(x, `${path}/${k}`, k);
    };
    walk(data, '', '');
  }
  return problems;
}

/** The kind (generator/kinds/registry.ts). Kept out of model.json: its items reach link and emit only. */
export const telemetryKind: KindModule<TelemetryTableMeta, RawTelemetry> = {
  kind: 'telemetria',
  schema: telemetrySchema as unknown as Record<string, unknown>,
  normalize: (raw, src, err) => normalizeTelemetry(raw, src.file, err),
  link(items, ctx) {
    ctx.problems.push(...uniqueNames(items), ...checkTelemetryRefs([...ctx.meta.entities, ...(ctx.meta.providers ?? [])], items));
  },
  emit: (items) => ({ server: { 'telemetry.ts': emitTelemetry(items) } }),
};
