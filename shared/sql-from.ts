// The tables of a FROM clause made of plain tables and joins (a declared provider's `sql.from`), with their aliases.

export interface FromTable { table: string; alias: string }

export function fromTables(from: string): FromTable[] {
  const out: FromTable[] = [];
  const re = /(?:^\s*|\bJOIN\s+)([A-Za-z_][\w.]*)\s+(?:AS\s+)?([a-z_][a-z0-9_]*)/gi;
  for (const m of from.matchAll(re)) out.push({ table: m[1]!, alias: m[2]! });
  return out;
}
