// Company scope in the database (issue 7): PostgreSQL row-level security on every company-scoped table.
//
// Roles (created by the migration *_rls, cluster-wide):
// - the connection's own role (DATABASE_URL: superuser or the tables' owner) is the SYSTEM role: migrations, seed,
//   login, session lookup and everything outside a company's request. It bypasses RLS as owner/superuser; the
//   tables are not FORCEd, so no policy is needed for it.
// - rastro_app: NOLOGIN, not superuser, not BYPASSRLS. Every query of a request with an active company runs as it,
//   and its policies admit only rows whose empresa_id equals the setting rastro.empresa. Unset -> no rows.
// - rastro_ingest: the gateway writer's role (writes for every company): its policies admit every row.
//
// How a query gets the company: the request runs inside `withCompany(id, next)` (AsyncLocalStorage); the ORM
// pool's onReserveConnection hook puts the pooled connection in that state (role + setting, session level) before
// the query or transaction runs, and back to the system role outside a company. The state of each connection is
// remembered, so a connection already in the right state costs no round trip.
//
// Operators: DATABASE_URL must be the owner of the tables (or a superuser, as the embedded database and CI use).
// With a non-superuser owner, either give it CREATEROLE once (the migration creates the roles and grants them to
// it) or create them beforehand as a superuser:
//   CREATE ROLE rastro_app NOLOGIN; CREATE ROLE rastro_ingest NOLOGIN; GRANT rastro_app, rastro_ingest TO <owner>;
// Never give rastro_app SUPERUSER or BYPASSRLS, never make it the tables' owner (the server refuses to start when
// it can bypass RLS or cannot be switched to). A read-only reporting login can be made a member of rastro_app and
// set rastro.empresa itself.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntitySchema } from '@mikro-orm/core';

export const APP_ROLE = 'rastro_app';
export const INGEST_ROLE = 'rastro_ingest';
export const COMPANY_SETTING = 'rastro.empresa';
/** The company column every company-scoped table carries (system field empresaId). */
export const COMPANY_COLUMN = 'empresa_id';

export const COMPANY_CHECK = `${COMPANY_COLUMN} = nullif(current_setting('${COMPANY_SETTING}', true), '')::integer`;

interface Scope { empresa: number }
const als = new AsyncLocalStorage<Scope>();

/** Runs fn with every database query (ORM pool) restricted to the company's rows, as the app role. */
export function withCompany<T>(empresa: number, fn: () => T): T {
  if (!Number.isSafeInteger(empresa) || empresa <= 0) throw new Error(`empresa inválida: ${empresa}`);
  return als.run({ empresa }, fn);
}

/** Runs fn outside any company scope (system role), e.g. platform work started from inside a request. */
export function asSystem<T>(fn: () => T): T {
  return als.exit(fn);
}

/** The company of the current async context, if any. */
export function currentCompany(): number | undefined {
  return als.getStore()?.empresa;
}

/** SQL putting a connection in the state of `empresa` (undefined: system role, no company). */
export function scopeSql(empresa: number | undefined): string {
  return empresa === undefined
    ? `select set_config('role', 'none', false), set_config('${COMPANY_SETTING}', '', false)`
    : `select set_config('${COMPANY_SETTING}', '${empresa}', false), set_config('role', '${APP_ROLE}', false)`;
}

interface Executor { executeQuery(q: unknown): Promise<unknown> }
/** Company each pooled connection is set to (0: system role, -1: unknown). */
const state = new WeakMap<object, number>();

/** Kysely/MikroORM onReserveConnection hook (server/db/orm.ts). */
export async function onReserveConnection(connection: unknown): Promise<void> {
  const want = currentCompany() ?? 0;
  const c = connection as Executor;
  // A new connection starts as the system role with no company.
  if ((state.get(c) ?? 0) === want) return;
  // Unknown until the statement succeeds (one statement: applied whole or not at all), so a failure is retried.
  state.set(c, -1);
  // Kysely's PostgresConnection reads only sql and parameters of the compiled query.
  await c.executeQuery({ sql: scopeSql(want || undefined), parameters: [], query: { kind: 'RawNode', sqlFragments: [], parameters: [] } });
  state.set(c, want);
}

/** Inside a transaction of a plain pg client of another pool (the exports' cursor pool): the current context's
 *  company and the app role for that transaction only (no company: nothing changes, system role). */
export async function scopeTransaction(client: { query(sql: string): Promise<unknown> }): Promise<void> {
  const e = currentCompany();
  if (e === undefined) return;
  await client.query(`select set_config('${COMPANY_SETTING}', '${e}', true), set_config('role', '${APP_ROLE}', true)`);
}

/** Table name -> whether it carries the company column; used to declare the policies on the entities. */
function isCompanyScoped(schema: EntitySchema): boolean {
  const meta = schema.meta as unknown as { properties: Record<string, { fieldName?: string; fieldNames?: string[] }> };
  const p = meta.properties?.empresaId;
  return !!p && (p.fieldName === COMPANY_COLUMN || p.fieldNames?.[0] === COMPANY_COLUMN || p.fieldName === undefined);
}

/**
 * Declares the RLS policies on every company-scoped entity (property empresaId). The schema diff then creates
 * them for a new register (`npm run migration:create`) and `migration:check` proves they exist.
 */
export function declarePolicies(entities: EntitySchema[]): void {
  for (const e of entities) {
    if (!isCompanyScoped(e)) continue;
    const meta = e.meta as unknown as { collection?: string; tableName?: string; policies?: unknown[] };
    const table = meta.tableName ?? meta.collection ?? e.meta.className;
    meta.policies = [
      { name: `${table}_empresa`.slice(0, 63), roles: [APP_ROLE], using: COMPANY_CHECK, check: COMPANY_CHECK },
      { name: `${table}_ingest`.slice(0, 63), roles: [INGEST_ROLE], using: 'true', check: 'true' },
    ];
  }
}

/**
 * Start-up check (server/app/start.ts, after the migrations): the app role exists, cannot bypass RLS, and the
 * connecting role may switch to it. Answers the problems in pt-BR (empty: fine).
 */
export async function rlsProblems(execute: (sql: string) => Promise<unknown>): Promise<string[]> {
  const rows = (await execute(`select r.rolname, r.rolsuper, r.rolbypassrls, pg_has_role(current_user, r.oid, 'member') as membro
    from pg_roles r where r.rolname = '${APP_ROLE}'`)) as { rolsuper: boolean; rolbypassrls: boolean; membro: boolean }[];
  const r = rows[0];
  if (!r) return [`O papel ${APP_ROLE} não existe no servidor PostgreSQL: a migração de segurança por linha (RLS) não foi aplicada.`];
  const out: string[] = [];
  if (r.rolsuper || r.rolbypassrls) out.push(`O papel ${APP_ROLE} não pode ser superusuário nem ter BYPASSRLS (a segurança por linha seria ignorada).`);
  if (!r.membro) out.push(`O usuário de DATABASE_URL precisa poder assumir o papel ${APP_ROLE} (GRANT ${APP_ROLE} TO <usuário>).`);
  return out;
}
