// The company condition is never written by hand: every SQL and ORM condition on empresa_id/empresaId in server/,
// modules/ and metadata/ goes through the scope module (server/tenancy/scope.ts, shared/scope-sql.ts; YAML snippets
// through {scope:alias}). Files are globbed, so moved or new modules are covered without editing this list.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { snippetProblems } from '../../shared/scope-sql.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['server', 'modules', 'metadata'];
const EXT = /\.(ts|tsx|yaml|yml|sql)$/;

/** Not scanned, and why. */
const SKIP: [RegExp, string][] = [
  [/^server\/tenancy\//, 'the scope module itself'],
  [/^shared\/scope-sql\.ts$/, 'the scope module (pure text rules)'],
  [/(^|\/)migrations\//, 'migrations write the schema and its history'],
  [/^server\/db\/rls\.ts$/, 'the RLS policies (the backstop under the scope)'],
  [/^server\/generated\//, 'generated from metadata/, which is scanned'],
  [/\.test\.tsx?$|\.kit\.ts$|(^|\/)testing\//, 'tests read the database directly to check what the scope let through'],
];

/** Lines that mention the company column without being a scope condition: file (path suffix), text, reason. */
const ALLOW: { file: string; text: string; why: string }[] = [
  { file: 'server/ingest/writer.ts', text: 'u.empresa_id IS DISTINCT FROM excluded.empresa_id', why: 'upsert of ultimo_estado: whether the device changed company, not a read condition' },
  { file: 'server/ingest/writer.ts', text: 'empresa_id = excluded.empresa_id', why: 'upsert SET list: an assignment' },
  { file: '', text: "current_setting('rastro.empresa'", why: 'an RLS policy expression (the backstop), e.g. the telemetry tables\' policies' },
  { file: 'server/crud/history.ts', text: 'empresaId: s.empresaAtiva', why: 'insert: the change history keeps the company the change was made in (system entity, no metadata)' },
];

/** How a hand-written company condition looks (SQL text, SQL through the generated column maps, JS, ORM where). */
const ID = String.raw`(?:empresa|ambiente)_id`, PROP = String.raw`(?:empresa|ambiente)Id`;
const OP = String.raw`(?:=|<>|!=|IS\s+(?:NOT\s+)?DISTINCT\s+FROM\b|IN\s*\()`;
export const RULES: [string, RegExp][] = [
  ['SQL compares the tenant column', new RegExp(String.raw`"?\b${ID}\b"?\s*${OP}`, 'i')],
  ['SQL compares the tenant column', new RegExp(String.raw`(?:=|<>|!=|DISTINCT\s+FROM)\s*(?:[\w"]+\.)?"?\b${ID}\b`, 'i')],
  ['SQL compares the tenant column (column map)', new RegExp(String.raw`\b${PROP}['"]?\)?\}"?\s*${OP}`, 'i')],
  ['SQL compares the tenant column (column map)', new RegExp(String.raw`(?:=|<>|!=|DISTINCT\s+FROM)\s*[\w"]*\.?\$\{[\w.]+(?:\(['"])?${PROP}\b`, 'i')],
  ['JS compares the tenant', new RegExp(String.raw`\.${PROP}\b\)?\s*(?:===|!==|==|!=)\s*(?!\s*(?:null|undefined)\b)`)],
  ['JS compares the tenant', new RegExp(String.raw`(?:===|!==|==|!=)\s*[\w.?()]*\.${PROP}\b`)],
  // (a session object copies ambienteId by name; empresaAtiva is only ever a condition or a new row's tenant)
  ['ORM condition on the session company', /\bempresaId\s*:\s*[\w.()?]*\bempresaAtiva\b/],
  ['ORM condition on the tenant', new RegExp(String.raw`\b(?:find|findOne|findOneOrFail|findAndCount|count|nativeUpdate|nativeDelete|where)\b.*\b${PROP}\s*:`)],
];

/** The hand-written company conditions of one file's text (comment lines aside). */
export function handComparisons(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const t = line.trim();
    if (/^(\/\/|\*|\/\*|#|--)/.test(t)) return;
    const rule = RULES.find(([, re]) => re.test(line));
    if (!rule) return;
    if (ALLOW.some((a) => file.endsWith(a.file) && line.includes(a.text))) return;
    out.push(`${file}:${i + 1}: ${rule[0]}: ${t.slice(0, 160)}`);
  });
  return out;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const d of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${d.name}`;
    if (d.name === 'node_modules' || d.name.startsWith('.')) continue;
    if (d.isDirectory()) walk(rel, out);
    else if (EXT.test(d.name) && !SKIP.some(([re]) => re.test(rel))) out.push(rel);
  }
  return out;
}
const files = () => FOLDERS.filter((f) => fs.existsSync(path.join(ROOT, f))).flatMap((f) => walk(f));

describe('the company condition is written only by the scope module', () => {
  it('no hand comparison of empresa_id/empresaId in server/, modules/, metadata/', () => {
    const found = files().flatMap((f) => handComparisons(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('every YAML SQL snippet states its company with {scope:alias}', () => {
    const problems: string[] = [];
    for (const f of files().filter((x) => /\.ya?ml$/.test(x))) {
      const doc = parse(fs.readFileSync(path.join(ROOT, f), 'utf8')) as { scope?: 'empresa' | 'ambiente' | 'global'; list?: { columns?: { sql?: string }[] } } | null;
      for (const c of doc?.list?.columns ?? []) {
        if (!c.sql) continue;
        for (const p of snippetProblems(c.sql, doc?.scope ?? 'global')) problems.push(`${f}: ${p}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the matcher catches planted comparisons and lets declarations through', () => {
    const planted = [
      "`SELECT 1 FROM ativo a WHERE a.empresa_id = ?`",
      "`... JOIN motorista m ON m.id = u.motorista_id AND m.empresa_id = u.empresa_id`",
      "`... WHERE ${ativo.empresaId} = ?`",
      "`... ON e.${eqp.serial} = f.${fila.serial} AND e.${eqp.empresaId} = f.${fila.empresaId}`",
      "`... AND c.${c.c('empresaId')} = e.${e.c('id')}`",
      "`... WHERE u.serial = $1 AND u.empresa_id IN (1, 2)`",
      'if (row.empresaId !== s.empresaAtiva) throw notFound();',
      "await em.count(ormName(em, e), { empresaId: s.empresaAtiva } as never);",
      "await em.find('cargo', { id: { $in: ids }, empresaId: empresa });",
      '      sql: (SELECT count(*)::int FROM lote l WHERE l.armazem = {this}.id AND l.empresa_id = {this}.empresa_id)',
      "`SELECT 1 FROM usuario u WHERE u.ambiente_id = ?`",
      "if (row.ambienteId !== s.ambienteId) throw notFound();",
    ];
    for (const line of planted) expect(handComparisons('server/x.ts', line), line).toHaveLength(1);
    const fine = [
      "  - { name: empresa_id, type: integer }",
      "  - { name: evento_empresa_fix_time, columns: [empresa_id, fix_time] }",
      "`SELECT e.${eqp.empresaId} AS empresa_id FROM ...`",
      "`INSERT INTO equipamento (empresa_id, serial) VALUES ($1, $2)`",
      'if (row.empresaId == null) return null;',
      'row.empresaId = data.empresaId ?? fallback;',
      "`... WHERE ${scopeSql(e, s, 'a', p)} AND ${sameCompany('m', 'u')}`",
      '// a.empresa_id = ? in a comment',
    ];
    for (const line of fine) expect(handComparisons('server/x.ts', line), line).toEqual([]);
    // Allow-listed lines only in their own file.
    expect(handComparisons('server/ingest/writer.ts', "const OTHER = '(u.empresa_id IS DISTINCT FROM excluded.empresa_id)';")).toEqual([]);
    expect(handComparisons('server/other.ts', "const OTHER = '(u.empresa_id IS DISTINCT FROM excluded.empresa_id)';")).toHaveLength(1);
  });
});
