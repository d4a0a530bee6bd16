// Table and column names of every entity as constants, for hand-written SQL (server/generated/columns.ts):
// a field renamed in metadata then fails the type check where SQL names it, not at run time.
import { MetadataError, problem } from '../errors.ts';
import type { Model } from '../../shared/model.ts';
import { HEADER } from './names.ts';

const lit = (v: unknown) => JSON.stringify(v);

export function emitColumns(model: Model): string {
  const clash = model.entities.filter((e) => e.fields.some((f) => f.name === 'table'));
  if (clash.length) throw new MetadataError(clash.map((e) => problem(e.file, '/fields', 'campo não pode se chamar "table" (nome reservado das constantes de colunas)')));
  const blocks = model.entities.map((e) => [
    `/** ${e.label.singular}: table and columns (property name → column). */`,
    `export const ${e.key} = {`,
    `  table: ${lit(e.table)},`,
    ...e.fields.map((f) => `  ${f.name}: ${lit(f.column)},`),
    '} as const;',
  ].join('\n'));
  return [
    HEADER('metadata/'),
    ...blocks.flatMap((b) => [b, '']),
    '/** Property names of an entity constant (its fields; `table` excluded). */',
    "export type FieldOf<T> = Exclude<keyof T, 'table'> & string;",
    '',
  ].join('\n');
}
