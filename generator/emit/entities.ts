// MikroORM 7 entity definitions (EntitySchema, no decorators); reference fields are m:1 relations (FK + index).
// No ORM tenant filter: reads name their scope (server/tenancy/scope.ts) and RLS is the backstop (.notes/CONTRACT.md).
import { createHash } from 'node:crypto';
import type { EntityMeta, FieldMeta, Model } from '../../shared/model.ts';
import { HEADER, pascal } from './names.ts';

const lit = (v: unknown) => JSON.stringify(v);

function property(e: EntityMeta, f: FieldMeta): string {
  const opts: string[] = [];
  const col = `fieldName: ${lit(f.column)}`;
  const nullable = !f.required && !f.system;
  const tail = () => {
    if (nullable) opts.push('nullable: true');
    if (f.hidden || f.writeOnly) opts.push('hidden: true');
    // Credentials (password hash, API key hash): the app's database role may not read them (server/db/rls.ts), so
    // the ORM never selects them unless asked (populate), which only the sign-in path does, as the system role.
    if (f.type === 'password' || f.secretToken) opts.push('lazy: true');
    const scalarDefault = f.default !== undefined && f.default !== null && typeof f.default !== 'object';
    if (scalarDefault) opts.push(`default: ${lit(f.default)}`);
  };
  if (f.name === 'id') return `{ type: 'integer', primary: true, autoincrement: true }`;
  if (f.name === 'createdAt') return `{ type: 'datetime', columnType: 'timestamptz', fieldName: 'created_at', onCreate: () => new Date() }`;
  if (f.name === 'updatedAt')
    return `{ type: 'datetime', columnType: 'timestamptz', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() }`;
  switch (f.type) {
    case 'reference':
      opts.push(`kind: 'm:1'`, `entity: () => ${pascal(f.reference!)}`, col);
      // Default: a row in use cannot be deleted (the API answers 409 'em uso'); setNull needs a nullable column.
      if (f.onDelete === 'cascade') opts.push(`deleteRule: 'cascade'`);
      else if (f.onDelete === 'setNull' && nullable) opts.push(`deleteRule: 'set null'`);
      else opts.push(`deleteRule: 'no action'`);
      break;
    case 'referenceList':
      opts.push(`type: new ArrayType<number>((i) => Number(i))`, `columnType: 'integer[]'`, col);
      break;
    case 'enum':
      opts.push('enum: true', `items: ${lit(f.options!.map((o) => o.value))}`, col);
      break;
    case 'string': case 'password': case 'file': case 'image':
      if (f.maxLength !== undefined || f.type !== 'string') opts.push(`type: 'string'`, `length: ${f.maxLength ?? 500}`, col);
      else opts.push(`type: 'text'`, col);
      break;
    case 'text': opts.push(`type: 'text'`, col); break;
    case 'integer': opts.push(`type: 'integer'`, col); break;
    case 'number': opts.push(`type: 'double'`, `runtimeType: 'number'`, col); break;
    case 'boolean': opts.push(`type: 'boolean'`, col); break;
    case 'date': opts.push(`type: 'date'`, col); break;
    case 'datetime': opts.push(`type: 'datetime'`, `columnType: 'timestamptz'`, col); break;
    case 'time': opts.push(`type: 'string'`, `length: 5`, col); break; // HH:mm round-trips as text
    case 'json': case 'geometry': opts.push(`type: 'json'`, col); break;
  }
  tail();
  return `{ ${opts.join(', ')} }`;
}

/** PostgreSQL identifiers are cut at 63 bytes; longer names get a short hash suffix instead. */
export function indexName(name: string): string {
  if (Buffer.byteLength(name) <= 63) return name;
  const h = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, 54)}_${h}`;
}

export function tenantField(e: EntityMeta): FieldMeta | undefined {
  return e.fields.find((f) => f.system && (f.name === 'empresaId' || f.name === 'ambienteId'));
}

function entityModule(e: EntityMeta): string {
  const name = pascal(e.key);
  const refs = [...new Set(e.fields.filter((f) => f.type === 'reference').map((f) => f.reference!))].sort();
  const imports = refs.filter((r) => r !== e.key).map((r) => `import { ${pascal(r)} } from './${r}.ts';`);
  const usesArray = e.fields.some((f) => f.type === 'referenceList');
  const tenant = tenantField(e);
  const props = e.fields.map((f) => `    ${f.name}: ${property(e, f)},`);
  const indexes = e.fields
    .filter((f) => f.type === 'reference')
    .map((f) => `    { name: ${lit(`${e.table}_${f.column}_index`)}, properties: [${lit(f.name)}] },`);
  // Quick search (q, ILIKE '%x%') on text fields: trigram GIN indexes (extension pg_trgm, created by the
  // migrations). Raw expression: MikroORM matches such indexes by name, so the name must fit 63 bytes.
  const trgm = e.search
    .map((n) => e.fields.find((f) => f.name === n))
    .filter((f): f is FieldMeta => !!f && (f.type === 'string' || f.type === 'text') && !f.hidden && !f.writeOnly)
    .map((f) => {
      const name = indexName(`${e.table}_${f.column}_trgm_index`);
      return `    { name: ${lit(name)}, expression: ${lit(`create index "${name}" on "${e.table}" using gin ("${f.column}" gin_trgm_ops)`)} },`;
    });
  indexes.push(...trgm);
  // The list's default order (tenant, sort field, id): the first page is read from the index, not sorted.
  const sortField = e.fields.find((f) => f.name === e.sort.field);
  if (sortField && sortField.name !== 'id' && !['json', 'geometry', 'referenceList', 'text'].includes(sortField.type)) {
    // Lists below route parameters (metadata params) are always filtered by them: they lead the index.
    const bound = (e.params ?? []).map((p) => e.fields.find((f) => f.name === p.field)!);
    const cols = [...(tenant ? [tenant] : []), ...bound, sortField, e.fields.find((f) => f.name === 'id')!];
    const name = indexName(`${e.table}_${cols.map((c) => c.column).join('_')}_sort_index`);
    indexes.push(`    { name: ${lit(name)}, properties: [${cols.map((c) => lit(c.name)).join(', ')}] },`);
  }
  const uniques = e.fields.filter((f) => f.unique).map((f) => {
    const cols = f.uniqueGlobal || !tenant ? [f] : [tenant, f];
    if (f.caseInsensitive) {
      // Unique without letter case: an expression index on lower(column) (raw, matched by name).
      const name = indexName(`${e.table}_${cols.map((c) => c.column).join('_')}_lower_unique`);
      const list = cols.map((c) => (c === f ? `lower("${c.column}")` : `"${c.column}"`)).join(', ');
      return `    { name: ${lit(name)}, expression: ${lit(`create unique index "${name}" on "${e.table}" (${list})`)} },`;
    }
    return `    { name: ${lit(`${e.table}_${cols.map((c) => c.column).join('_')}_unique`)}, properties: [${cols.map((c) => lit(c.name)).join(', ')}] },`;
  });
  // Unique among the rows whose named field is empty (an open link): a partial unique index (raw, matched by name).
  for (const f of e.fields.filter((x) => x.uniqueWhileEmpty)) {
    const cols = f.uniqueGlobal || !tenant ? [f] : [tenant, f];
    const empty = e.fields.find((x) => x.name === f.uniqueWhileEmpty)!;
    const name = indexName(`${e.table}_${cols.map((c) => c.column).join('_')}_open_unique`);
    uniques.push(`    { name: ${lit(name)}, expression: ${lit(`create unique index "${name}" on "${e.table}" (${cols.map((c) => `"${c.column}"`).join(', ')}) where "${empty.column}" is null`)} },`);
  }
  const lines = [
    HEADER(e.file),
    `import { ${usesArray ? 'ArrayType, ' : ''}EntitySchema } from '@mikro-orm/core';`,
    ...imports,
    '',
    `/** ${e.label.singular} (${e.scope}). */`,
    `export const ${name}: EntitySchema<any> = new EntitySchema<any>({`,
    `  name: ${lit(name)},`,
    `  tableName: ${lit(e.table)},`,
    `  properties: {`,
    ...props,
    `  },`,
  ];
  if (indexes.length) lines.push('  indexes: [', ...indexes, '  ],');
  if (uniques.length) lines.push('  uniques: [', ...uniques, '  ],');
  lines.push('});', '');
  return lines.join('\n');
}

export function emitEntities(model: Model): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of model.entities) files.set(`entities/${e.key}.ts`, entityModule(e));
  const names = model.entities.map((e) => pascal(e.key));
  files.set('entities/index.ts', [
    HEADER('metadata/'),
    ...model.entities.map((e) => `import { ${pascal(e.key)} } from './${e.key}.ts';`),
    '',
    `export { ${names.join(', ')} };`,
    '',
    '/** Every generated entity, for MikroORM `entities`. */',
    `export const entities = [${names.join(', ')}];`,
    '',
    '/** Entity schema by metadata key. */',
    `export const entityByKey = { ${model.entities.map((e) => `${e.key}: ${pascal(e.key)}`).join(', ')} } as const;`,
    '',
  ].join('\n'));
  return files;
}
