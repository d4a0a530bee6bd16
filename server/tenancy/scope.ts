// The one company scope: which rows of an entity a session may see (its empresa, its ambiente, the companies of
// ambiente registers, the owner's own rows). Row-level security (server/db/rls.ts) is the backstop under it.
import type { EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { administersAll, companiesWhere } from './companies.ts';
import { entityByKey } from '../core/registry.ts';
import { ident } from '../db/sql.ts';
import { AMBIENTE, COMPANY, expandScope, sqlAlias } from '../../shared/scope-sql.ts';

export type Where = Record<string, unknown>;

/** The rows of `e` the session may see: its tenant, and for entities with `companies` only rows all of whose
 *  companies are the caller's (server/tenancy/companies.ts). */
export function scopeWhere(e: EntityMeta, s: Session): Where {
  if (e.scope === 'empresa') return { empresaId: s.empresaAtiva, ...ownerOnly(e, s) };
  if (e.scope === 'ambiente') return { ambienteId: s.ambienteId, ...companiesWhere(e, s) };
  return companiesWhere(e, s);
}

/** Entities with `owner` (notificacao): only the caller's own rows; a row created through the API is the caller's. */
export function ownerOnly(e: EntityMeta, s: Session): Where {
  return e.owner ? { [e.owner]: s.usuarioId } : {};
}

/** One company's rows without a session (sign-in, session lookup, seed: outside a company's request). */
export function companyOnly(empresa: number): Where {
  return { empresaId: empresa };
}

/** The tenant alone (uniqueness is per tenant, whatever the caller may see). */
export function tenantOnly(e: EntityMeta, s: Session): Where {
  if (e.scope === 'empresa') return { empresaId: s.empresaAtiva };
  if (e.scope === 'ambiente') return { ambienteId: s.ambienteId };
  return {};
}

// ---------- the SQL form ----------
// The same rules as scopeWhere, as SQL text for a table alias, with every value a parameter. Hand-written SQL and
// the YAML snippets never compare empresa_id themselves (the grep test server/tenancy/scope-grep.unit.test.ts).

// The pure text rules (alias check, same company, {scope:x}) live in shared/scope-sql.ts: the generator uses them too.
export { AMBIENTE, COMPANY, SCOPE_PLACEHOLDER, expandScope, inCompany, sameCompany, snippetProblems } from '../../shared/scope-sql.ts';

/** Collects the values of one statement; `add` returns the placeholder of the value just added. */
export interface Params { readonly values: unknown[]; add(v: unknown): string }

/** `?` placeholders: MikroORM's `em.execute(sql, values)` / `getConnection().execute(sql, values)`. */
export function qParams(values: unknown[] = []): Params {
  return { values, add(v) { values.push(v); return '?'; } };
}

/** `$n` placeholders: node-postgres `client.query(sql, values)`; continues after the values already there. */
export function pgParams(values: unknown[] = []): Params {
  return { values, add(v) { values.push(v); return `$${values.length}`; } };
}

const alias = sqlAlias;
const intArray = (ids: number[]) => `{${ids.map((n) => { if (!Number.isSafeInteger(n)) throw new Error(`scope: invalid id ${n}`); return n; }).join(',')}}`;
const columnOf = (e: EntityMeta, field: string) => {
  const f = e.fields.find((x) => x.name === field);
  if (!f) throw new Error(`scope: ${e.key} has no field ${field}`);
  return f;
};

/** The rows of `e` (table alias `a`) the session may see, as SQL: the same rule as scopeWhere.
 *  empresa → `a.empresa_id = $` (and the owner column), ambiente → `a.ambiente_id = $` (and its companies),
 *  `companies` → all of the row's companies among the caller's; unrestricted → `TRUE`. */
export function scopeSql(e: EntityMeta, s: Session, a: string, p: Params): string {
  const t = alias(a);
  const out: string[] = [];
  if (e.scope === 'empresa') {
    out.push(`${t}.${COMPANY} = ${p.add(s.empresaAtiva)}`);
    if (e.owner) out.push(`${t}.${ident(columnOf(e, e.owner).column)} = ${p.add(s.usuarioId)}`);
  } else if (e.scope === 'ambiente') out.push(`${t}.${AMBIENTE} = ${p.add(s.ambienteId)}`);
  if (e.companies && !administersAll(s)) out.push(companiesSql(e, e.companies, t, s.empresas, p, 0));
  return out.length ? out.join(' AND ') : 'TRUE';
}

/** The tenant alone as SQL (tenantOnly): `a.empresa_id = $` / `a.ambiente_id = $` / `TRUE`. */
export function tenantSql(e: EntityMeta, s: Session, a: string, p: Params): string {
  if (e.scope === 'empresa') return `${alias(a)}.${COMPANY} = ${p.add(s.empresaAtiva)}`;
  if (e.scope === 'ambiente') return `${alias(a)}.${AMBIENTE} = ${p.add(s.ambienteId)}`;
  return 'TRUE';
}

/** Alias `a` (a company-scoped table, also one without metadata such as telemetria.*) belongs to company `empresa`. */
export function companySql(a: string, empresa: number, p: Params): string {
  if (!Number.isSafeInteger(empresa)) throw new Error(`scope: invalid company ${empresa}`);
  return `${alias(a)}.${COMPANY} = ${p.add(empresa)}`;
}

/** A YAML SQL snippet of `e` as SQL: `{this}` → `thisAlias`, `{scope:x}` → alias x is in the row's company
 *  (sameCompany(x, thisAlias), the entity's tenant column). */
export function snippetSql(e: EntityMeta, sql: string, thisAlias: string): string {
  const out = expandScope(sql, e.scope);
  if (out.includes('{scope:')) throw new Error(`scope: ${e.key} has no company; {scope:…} is meaningless there`);
  return out.replaceAll('{this}', alias(thisAlias));
}

/** companiesWhere's rule in SQL: every company of the row among `mine` and at least one (path through references). */
function companiesSql(e: EntityMeta, path: string, a: string, mine: number[], p: Params, depth: number): string {
  const [head, ...rest] = path.split('.');
  if (head === 'id' && !rest.length) return `${a}.id = ANY(${p.add(intArray(mine))}::int[])`;
  const f = columnOf(e, head);
  const col = `${a}.${ident(f.column)}`;
  if (rest.length) {
    const target = entityByKey(f.reference!)!;
    const b = `s${depth}`;
    return `EXISTS (SELECT 1 FROM ${ident(target.table)} ${b} WHERE ${b}.id = ${col} AND ${companiesSql(target, rest.join('.'), b, mine, p, depth + 1)})`;
  }
  if (f.type === 'referenceList') {
    return `${col} <@ ${p.add(intArray(mine))}::int[] AND ${col} && ${p.add(intArray(mine))}::int[]`;
  }
  return `${col} = ANY(${p.add(intArray(mine))}::int[])`;
}

// ---------- ambientes ----------
// A session's ambiente is the ambiente of its active company (server/auth/ambiente.ts): the conditions naming an
// ambiente live here too.

/** Alias `amb` (the ambiente table) is the ambiente of alias `emp` (a company row): a join condition. */
export function ambienteOfCompany(amb: string, emp: string): string {
  return `${alias(amb)}.id = ${alias(emp)}.${AMBIENTE}`;
}

/** The rows of one ambiente (ORM where), e.g. the companies of the ambiente a session enters. */
export function ambienteOnly(ambiente: number): Where {
  if (!Number.isSafeInteger(ambiente)) throw new Error(`scope: invalid ambiente ${ambiente}`);
  return { ambienteId: ambiente };
}

/** The ambiente a loaded row belongs to (null when it has none). */
export function ambienteOf(row: { ambienteId?: unknown } | null | undefined): number | null {
  const v = row?.ambienteId;
  const id = v != null && typeof v === 'object' ? (v as { id?: unknown }).id : v;
  return id == null ? null : Number(id);
}

/** In memory: whether a loaded row belongs to ambiente `ambiente`. */
export const inAmbienteRow = (row: { ambienteId?: unknown } | null | undefined, ambiente: number): boolean => ambienteOf(row) === ambiente;

/** Whether ambiente `ambiente` is the session's own. */
export const isSessionAmbiente = (s: Pick<Session, 'ambienteId'>, ambiente: number): boolean => s.ambienteId === ambiente;
