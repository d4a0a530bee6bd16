// Company scope in the database (issue 7): PostgreSQL row-level security on every company-scoped table.
//
// Roles (created by the migration *_rls, cluster-wide):
// - the connection's own role (DATABASE_URL: superuser or the tables' owner) is the SYSTEM role: migrations, seed,
//   login, session lookup and everything outside a company's request. It bypasses RLS as owner/superuser; the
//   tables are not FORCEd, so no policy is needed for it.
// - rastro_app: NOLOGIN, not superuser, not BYPASSRLS. Every query of a request with an active company runs as it,
//   and its policies admit only rows whose empresa_id equals the setting rastro.empresa (company-scoped tables) or
//   whose ambiente_id equals rastro.ambiente (ambiente-scoped: usuario, sessao, historico_de_login, empresa).
//   Unset -> no rows. Credentials (password hashes, API key hashes, recovery tokens) are not readable by it at all
//   (column privileges, migration *_rls_credenciais): the sign-in path, session lookup and password recovery run
//   outside a company, as the system role; the ORM never selects those columns (lazy properties).
// - rastro_ingest: the gateway writer's role (writes for every company): its policies admit every row.
//
// How a query gets the company: the request runs inside `withCompany(id, next)` (AsyncLocalStorage); the ORM
// pool's onReserveConnection hook puts the pooled connection in that state (role + setting, session level) before
// the query or transaction runs, and back to the system role outside a company; the read engine's own pool does the
// same with reserveClient (server/db/read-pool.ts). The state of each connection is remembered, so a connection
// already in the right state costs no round trip.
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

export const AMBIENTE_SETTING = 'rastro.ambiente';
export const AMBIENTE_COLUMN = 'ambiente_id';

export const COMPANY_CHECK = `${COMPANY_COLUMN} = nullif(current_setting('${COMPANY_SETTING}', true), '')::integer`;
export const AMBIENTE_CHECK = `${AMBIENTE_COLUMN} = nullif(current_setting('${AMBIENTE_SETTING}', true), '')::integer`;

interface Scope { empresa: number; ambiente?: number }
const als = new AsyncLocalStorage<Scope>();

/** Runs fn with every database query (ORM pool) restricted to the company's rows (and its ambiente's, for the
 *  ambiente-scoped tables), as the app role. */
export function withCompany<T>(empresa: number, fn: () => T, ambiente?: number): T {
  if (!Number.isSafeInteger(empresa) || empresa <= 0) throw new Error(`empresa inválida: ${empresa}`);
  if (ambiente !== undefined && (!Number.isSafeInteger(ambiente) || ambiente <= 0)) throw new Error(`ambiente inválido: ${ambiente}`);
  return als.run({ empresa, ambiente }, fn);
}

/** Runs fn outside any company scope (system role), e.g. platform work started from inside a request. */
export function asSystem<T>(fn: () => T): T {
  return als.exit(fn);
}

/** The company of the current async context, if any. */
export function currentCompany(): number | undefined {
  return als.getStore()?.empresa;
}

/** SQL putting a connection in the state of `empresa` (undefined: system role, no company); `local`: for the
 *  current transaction only. Both values are integers checked by withCompany. */
export function scopeSql(empresa: number | undefined, ambiente?: number, local = false): string {
  const l = String(local);
  return empresa === undefined
    ? `select set_config('role', 'none', ${l}), set_config('${COMPANY_SETTING}', '', ${l}), set_config('${AMBIENTE_SETTING}', '', ${l})`
    : `select set_config('${COMPANY_SETTING}', '${empresa}', ${l}), set_config('${AMBIENTE_SETTING}', '${ambiente ?? ''}', ${l}), set_config('role', '${APP_ROLE}', ${l})`;
}

interface Executor { executeQuery(q: unknown): Promise<unknown> }
/** State each pooled connection is set to ('': system role, '?': unknown, else 'empresa:ambiente'). */
const state = new WeakMap<object, string>();

/** Puts the connection `key` in the current context's state (company, ambiente, role) with `exec`, unless it is
 *  already there: a connection already in the right state costs no round trip. */
function reserve(key: object, exec: (sql: string) => Promise<unknown>): Promise<void> | undefined {
  const s = als.getStore();
  const want = s ? `${s.empresa}:${s.ambiente ?? ''}` : '';
  // A new connection starts as the system role with no company.
  if ((state.get(key) ?? '') === want) return undefined;
  // Unknown until the statement succeeds (one statement: applied whole or not at all), so a failure is retried.
  state.set(key, '?');
  return exec(scopeSql(s?.empresa, s?.ambiente)).then(() => { state.set(key, want); });
}

/** Kysely/MikroORM onReserveConnection hook (server/db/orm.ts). */
export async function onReserveConnection(connection: unknown): Promise<void> {
  const c = connection as Executor;
  // Kysely's PostgresConnection reads only sql and parameters of the compiled query.
  await reserve(c, (sql) => c.executeQuery({ sql, parameters: [], query: { kind: 'RawNode', sqlFragments: [], parameters: [] } }));
}

/** The same for a client of a plain pg pool that only this module's callers use (the read engine's, server/db/read-pool.ts);
 *  undefined when nothing had to change. */
export function reserveClient(client: { query(sql: string): Promise<unknown> }): Promise<void> | undefined {
  return reserve(client, (sql) => client.query(sql));
}

/** Inside a transaction of a plain pg client of another pool (the exports' cursor pool): the current context's
 *  company and the app role for that transaction only (no company: nothing changes, system role). */
export async function scopeTransaction(client: { query(sql: string): Promise<unknown> }): Promise<void> {
  const s = als.getStore();
  if (!s) return;
  await client.query(scopeSql(s.empresa, s.ambiente, true));
}

/** Whether the entity carries the column of property `prop` (system fields empresaId, ambienteId). */
function hasColumn(schema: EntitySchema, prop: string, column: string): boolean {
  const meta = schema.meta as unknown as { properties: Record<string, { fieldName?: string; fieldNames?: string[] }> };
  const p = meta.properties?.[prop];
  return !!p && (p.fieldName === column || p.fieldNames?.[0] === column || p.fieldName === undefined);
}

const tableOf = (e: EntitySchema) => {
  const meta = e.meta as unknown as { collection?: string; tableName?: string };
  return meta.tableName ?? meta.collection ?? e.meta.className;
};

/** The change history (server/db/system-entities.ts) keeps the company the change was made in, and the ambiente. */
export const HISTORY_TABLE = 'historico_alteracao';

/**
 * Declares the RLS policies on every company-scoped entity (property empresaId) and ambiente-scoped entity
 * (property ambienteId, no empresaId). The schema diff then creates them for a new register
 * (`npm run migration:create`) and `migration:check` proves they exist. The change history admits the company's
 * changes, and the ambiente's changes of registers that are not company-scoped (their history is shared like
 * the rows: usuario, empresa, platform registers) — the list is the metadata's, so a new register changes it.
 */
export function declarePolicies(entities: EntitySchema[], system: EntitySchema[] = []): void {
  const shared = entities.filter((e) => !hasColumn(e, 'empresaId', COMPANY_COLUMN)).map(tableOf).sort();
  for (const e of [...entities, ...system]) {
    const table = tableOf(e);
    let check: string;
    if (table === HISTORY_TABLE) {
      check = shared.length ? `${COMPANY_CHECK} or (${AMBIENTE_CHECK} and entidade in (${shared.map((t) => `'${t}'`).join(', ')}))` : COMPANY_CHECK;
    } else if (hasColumn(e, 'empresaId', COMPANY_COLUMN)) check = COMPANY_CHECK;
    else if (hasColumn(e, 'ambienteId', AMBIENTE_COLUMN)) check = AMBIENTE_CHECK;
    else continue;
    (e.meta as unknown as { policies?: unknown[] }).policies = [
      { name: `${table}_${check === AMBIENTE_CHECK ? 'ambiente' : 'empresa'}`.slice(0, 63), roles: [APP_ROLE], using: check, check },
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
