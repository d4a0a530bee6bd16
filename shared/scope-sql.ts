// The text rules of the company scope in SQL, free of imports: the generator expands YAML snippets with them and
// server/tenancy/scope.ts (the one company-scope module, which re-exports them) builds every condition with them.

export const COMPANY = 'empresa_id';
export const AMBIENTE = 'ambiente_id';
export type TenantColumn = typeof COMPANY | typeof AMBIENTE;

const ALIAS = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A table alias written into SQL: a plain identifier, else it throws. `{this}` (a snippet's row) passes too. */
export function sqlAlias(a: string): string {
  if (a !== '{this}' && !ALIAS.test(a)) throw new Error(`scope: invalid table alias ${JSON.stringify(a)}`);
  return a;
}

/** Alias `a` is in the same company as alias `b` (joins: `m.empresa_id = u.empresa_id`); `ambiente_id` for
 *  ambiente-scoped tables. No parameter. */
export function sameCompany(a: string, b: string, column: TenantColumn = COMPANY): string {
  return `${sqlAlias(a)}.${column} = ${sqlAlias(b)}.${column}`;
}

/** Alias `a` belongs to the company whose id is the column `ref` (`alias.column`, e.g. `e."id"` of an empresa row). */
export function inCompany(a: string, ref: string): string {
  if (!/^[A-Za-z_]\w*\.(?:"[^"]+"|[A-Za-z_]\w*)$/.test(ref)) throw new Error(`scope: invalid column reference ${JSON.stringify(ref)}`);
  return `${sqlAlias(a)}.${COMPANY} = ${ref}`;
}

/** `{scope:alias}` in a YAML SQL snippet: alias is in the same company (ambiente) as the row ({this}). */
export const SCOPE_PLACEHOLDER = /\{scope:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Problems of a snippet's company conditions (pt-BR, for the generator): a tenant column written by hand, a
 *  `{scope:x}` whose alias the snippet does not declare, `{scope}` in a register without company. */
export function snippetProblems(sql: string, scope: 'empresa' | 'ambiente' | 'global'): string[] {
  const out: string[] = [];
  if (/\b(empresa_id|ambiente_id)\b/.test(sql)) out.push('a condição de empresa se escreve {scope:alias}, não empresa_id/ambiente_id');
  const declared = tablesRead(sql);
  for (const [, x] of sql.matchAll(SCOPE_PLACEHOLDER)) {
    if (scope === 'global') out.push(`{scope:${x}} num cadastro sem empresa`);
    else if (!declared.some((t) => t.alias === x)) out.push(`{scope:${x}}: apelido ${x} não declarado na expressão`);
  }
  if (scope !== 'global') {
    for (const t of declared) {
      if (!t.alias) out.push(`a tabela ${t.table} precisa de um apelido e de {scope:apelido}`);
      else if (!sql.includes(`{scope:${t.alias}}`)) out.push(`a tabela ${t.table} (${t.alias}) sem {scope:${t.alias}}`);
    }
  }
  return out;
}

const KEYWORDS = new Set(['where', 'on', 'join', 'left', 'right', 'inner', 'cross', 'full', 'order', 'group', 'limit', 'and', 'or', 'with', 'union', 'lateral', 'using', 'having', 'window', 'offset', 'natural', 'at']);
/** The tables a snippet reads (`FROM t x` / `JOIN t AS x`; set-returning functions aside) with their aliases. */
export function tablesRead(sql: string): { table: string; alias?: string }[] {
  const out: { table: string; alias?: string }[] = [];
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+([A-Za-z_][\w.]*)\b(?!\s*\()(?:\s+(?:AS\s+)?([A-Za-z_]\w*))?/gi)) {
    const alias = m[2] && !KEYWORDS.has(m[2].toLowerCase()) ? m[2] : undefined;
    out.push({ table: m[1], alias });
  }
  return out;
}

/** Expands every `{scope:x}` of a snippet of a register of `scope` (`{this}` stays for the reader). A register
 *  without company keeps the placeholder (snippetProblems reports it). */
export function expandScope(sql: string, scope: 'empresa' | 'ambiente' | 'global', thisAlias = '{this}'): string {
  if (scope === 'global') return sql;
  return sql.replace(SCOPE_PLACEHOLDER, (_, x: string) => sameCompany(x, thisAlias, scope === 'ambiente' ? AMBIENTE : COMPANY));
}

/** In memory, not a read condition: whether a pushed message or a cached row is of company `empresa` (e.g. a push
 *  still in flight from the company just left is dropped; the server scoped it already). */
export const ofCompany = (x: { empresaId?: number | null } | null | undefined, empresa: number | null | undefined): boolean =>
  x != null && empresa != null && x.empresaId === empresa;
