// Row-level security, walked (issue 18): as the app's database role (rastro_app) with one company set, exactly as a
// request runs, EVERY relation that role can read in any schema is checked — company tables (empresa_id) show only
// that company's rows and carry a policy on rastro.empresa, ambiente tables (ambiente_id) only the ambiente's rows
// and a policy on rastro.ambiente, anything else must be a platform register (metadata scope global) or an
// allow-listed system table; no credential column (password hash, API key hash, recovery token, any column named
// like a secret) can be read. A new company table without a policy fails the walk (proved on a scratch table).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrateTelemetria } from '../ingest/migrate.ts';
import { APP_ROLE, scopeSql } from './rls.ts';

const HISTORY_TABLE = 'historico_alteracao';
import { startTestServer, type TestServer } from '../test/harness.ts';

/** Readable by the app role without a tenant column, with the reason. */
const SYSTEM_TABLES: Record<string, string> = {
  'public.mikro_orm_migrations': 'names of the applied migrations',
  'public.rastro_sessao_versao': 'session cache counter (one number)',
};
/** Column names that hold a secret wherever they appear. */
const SECRET_NAME = /^(senha|password|passwd|.*_hash|hash_.*|.*secret.*|token|.*_token|api_key|chave_api)$/i;

let ts: TestServer;
let sys: pg.Client;
let app: pg.Client;
let A = 0; // ambiente of the walk
let E = 0; // company of the walk
let B = 0; // another company of the same ambiente
let C = 0; // a company of another ambiente
let X = 0; // the other ambiente
const q = async <T = any>(c: pg.Client, sql: string, p: unknown[] = []) => (await c.query(sql, p)).rows as T[];

/** Inserts a copy of one row of `table` (columns from the catalogue, identity/serial ones left out) with the given
 *  overrides, inside a savepoint; answers the new id, or null when a constraint refuses it. */
async function copyRow(table: string, where: string, over: Record<string, unknown>): Promise<number | null> {
  const cols = (await q<{ c: string }>(sys, `select a.attname as c from pg_attribute a
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        and a.attidentity = '' and coalesce(pg_get_expr((select d.adbin from pg_attrdef d where d.adrelid = a.attrelid and d.adnum = a.attnum), a.attrelid), '') not like 'nextval(%'
      order by a.attnum`, [table])).map((r) => r.c);
  const params: unknown[] = [];
  const sel = cols.map((c) => (c in over ? (params.push(over[c]), `$${params.length}`) : `"${c}"`));
  await sys.query('savepoint cp');
  try {
    const r = await q(sys, `insert into ${table} (${cols.map((c) => `"${c}"`).join(', ')}) select ${sel.join(', ')} from ${table} where ${where} limit 1 returning *`, params);
    await sys.query('release savepoint cp');
    return r[0] ? Number(r[0].id ?? 1) : null;
  } catch {
    await sys.query('rollback to savepoint cp');
    return null;
  }
}

interface Rel { oid: number; name: string; cols: { name: string; readable: boolean }[]; rls: boolean; relkind: string }

/** Every relation the app role may read something of (schema usage + table or column SELECT). */
async function readableRelations(): Promise<Rel[]> {
  const rows = await q(sys, `select c.oid::int as oid, n.nspname || '.' || c.relname as name, c.relrowsecurity as rls, c.relkind::text as relkind,
      json_agg(json_build_object('name', a.attname, 'readable', has_column_privilege($1, c.oid, a.attnum, 'select')) order by a.attnum) as cols
    from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relkind in ('r', 'p', 'v', 'm', 'f') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      and has_schema_privilege($1, n.oid, 'usage') and has_any_column_privilege($1, c.oid, 'select')
    group by c.oid, n.nspname, c.relname order by 2`, [APP_ROLE]);
  return rows as Rel[];
}

/** Policies that admit rows to the app role on SELECT. */
async function appPolicies(rel: Rel): Promise<string[]> {
  const rows = await q<{ qual: string | null }>(sys, `select p.qual from pg_policies p
    where p.schemaname || '.' || p.tablename = $1 and p.permissive = 'PERMISSIVE' and p.cmd in ('ALL', 'SELECT')
      and (p.roles && array[$2, 'public']::name[])`, [rel.name, APP_ROLE]);
  return rows.map((r) => r.qual ?? 'true');
}

/** Runs as the app role in the request's state (server/db/rls.ts scopeSql), inside a transaction rolled back. */
async function asApp<T>(fn: () => Promise<T>): Promise<T> {
  await app.query('begin');
  try {
    await app.query(scopeSql(E, A, true));
    return await fn();
  } finally { await app.query('rollback'); }
}

/** Answers the problems found by the walk (empty: the app role sees one company and no credential). */
async function walk(): Promise<{ problems: string[]; company: string[]; ambiente: string[]; global: string[]; checkedCredentials: string[] }> {
  const problems: string[] = [];
  const company: string[] = [], ambiente: string[] = [], global: string[] = [];
  const model = ts.model;
  const scopeOf = new Map(model.entities.map((e) => [`public.${e.table}`, e.scope]));
  const companyKeys = new Set(model.entities.filter((e) => e.scope === 'empresa').map((e) => e.key));
  const credentials = new Set<string>(['public.recuperacao_senha.token_hash']);
  for (const e of model.entities) for (const f of e.fields) if (f.type === 'password' || f.secretToken) credentials.add(`public.${e.table}.${f.column}`);
  const checkedCredentials: string[] = [];
  const rels = await readableRelations();

  for (const r of rels) {
    const names = new Set(r.cols.map((c) => c.name));
    // Credentials: not readable at all; every other column of the table is (a new column must be granted).
    for (const c of r.cols) {
      if (!credentials.has(`${r.name}.${c.name}`) && !SECRET_NAME.test(c.name)) continue;
      checkedCredentials.push(`${r.name}.${c.name}`);
      const err = await asApp(() => app.query(`select "${c.name}" from ${r.name} limit 1`).then(() => null, (e: { code?: string }) => e.code));
      if (err !== '42501') problems.push(`${r.name}.${c.name}: credencial legível pelo papel ${APP_ROLE}`);
    }
    const hidden = r.cols.filter((c) => !c.readable && !credentials.has(`${r.name}.${c.name}`) && !SECRET_NAME.test(c.name));
    if (hidden.length) problems.push(`${r.name}: colunas sem SELECT para ${APP_ROLE}: ${hidden.map((c) => c.name).join(', ')}`);

    const tenantCol = names.has('empresa_id') ? 'empresa_id' : names.has('ambiente_id') ? 'ambiente_id' : null;
    if (!tenantCol) {
      if (scopeOf.get(r.name) === 'global' || SYSTEM_TABLES[r.name]) global.push(r.name);
      else problems.push(`${r.name}: legível por ${APP_ROLE} sem coluna de empresa/ambiente e não é cadastro da plataforma`);
      continue;
    }
    (tenantCol === 'empresa_id' ? company : ambiente).push(r.name);
    const setting = tenantCol === 'empresa_id' ? 'rastro.empresa' : 'rastro.ambiente';
    const want = tenantCol === 'empresa_id' ? E : A;
    if (r.relkind !== 'v' && !r.rls) problems.push(`${r.name}: sem row level security`);
    const quals = await appPolicies(r);
    if (r.relkind !== 'v' && (!quals.length || quals.some((x) => !x.includes(setting)))) {
      problems.push(`${r.name}: política de ${APP_ROLE} não compara ${tenantCol} com ${setting}: ${JSON.stringify(quals)}`);
    }
    // What the role sees, against what is there (system role).
    const extra = r.name === `public.${HISTORY_TABLE}` ? ', entidade, ambiente_id' : '';
    const seen = await asApp(() => q(app, `select ${tenantCol} as t${extra} from ${r.name}`));
    for (const row of seen) {
      if (Number(row.t) === want) continue;
      // The change history of a register that is not company-scoped is the ambiente's (like its rows).
      if (extra && Number(row.ambiente_id) === A && !companyKeys.has(row.entidade)) continue;
      problems.push(`${r.name}: ${APP_ROLE} com ${setting}=${want} vê uma linha de ${tenantCol}=${row.t}${extra ? ` (${row.entidade})` : ''}`);
      break;
    }
    const [own] = await q(sys, `select count(*)::int as n from ${r.name} where ${tenantCol} = $1`, [want]);
    const seenOwn = seen.filter((x) => Number(x.t) === want).length;
    if (seenOwn !== own.n) problems.push(`${r.name}: ${APP_ROLE} vê ${seenOwn} de ${own.n} linhas próprias`);
  }
  return { problems, company, ambiente, global, checkedCredentials };
}

beforeAll(async () => {
  ts = await startTestServer();
  const pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 1 });
  try { await migrateTelemetria(pool); } finally { await pool.end(); }
  sys = new pg.Client({ connectionString: ts.databaseUrl });
  app = new pg.Client({ connectionString: ts.databaseUrl });
  await Promise.all([sys.connect(), app.connect()]);
  const empresas = await q(sys, 'select id, ambiente_id from empresa order by id');
  E = Number(empresas[0].id); A = Number(empresas[0].ambiente_id);
  B = Number(empresas.find((r) => Number(r.id) !== E && Number(r.ambiente_id) === A)!.id);
  // Another ambiente with its company and user, as the system role.
  await sys.query('begin');
  X = (await copyRow('ambiente', `id = ${A}`, { descricao: 'Outro ambiente' }))!;
  C = (await copyRow('empresa', `id = ${E}`, { ambiente_id: X, fantasia: 'Empresa de outro ambiente', cnpj: null }))!;
  const u = (await copyRow('usuario', `login = 'admin'`, { ambiente_id: X, login: 'outro-admin', email: 'outro@teste.local', empresas: [C], empresa_ativa: C }))!;
  expect([X, C, u].every((n) => n > 0)).toBe(true);
  await sys.query(`insert into telemetria.posicao (serial, fix_time, tipo, empresa_id, lat, lon, valid) values
    ('A1', now(), 'p', $1, 1, 1, true), ('B1', now(), 'p', $2, 2, 2, true), ('X1', now(), 'p', null, 3, 3, true)`, [E, B]);
  await sys.query(`insert into telemetria.ultimo_estado (serial, empresa_id, ultima_comunicacao) values ('A1', $1, now()), ('B1', $2, now())`, [E, B]);
  // Every company table the seed filled for company E gets a row of B and of C where the copy is accepted.
  const tables = await q<{ t: string }>(sys, `select distinct n.nspname || '.' || c.relname as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attname = 'empresa_id' where c.relkind in ('r', 'p') and not c.relispartition
      and n.nspname in ('public', 'telemetria') and c.relname <> $1 order by 1`, [HISTORY_TABLE]);
  for (const { t } of tables) for (const other of [B, C]) {
    const [has] = await q(sys, `select exists(select from ${t} where empresa_id = $1) as e`, [other]);
    if (!has.e) await copyRow(t, `empresa_id = ${E}`, { empresa_id: other });
  }
  // Sessions and sign-ins of the other ambiente's user; an API key and a recovery token (credentials to hide).
  const [adm] = await q(sys, `select id from usuario where login = 'admin'`);
  await sys.query(`insert into sessao (ambiente_id, usuario, login, empresa_ativa, data_inicio, data_valido_ate, ativa, created_at, updated_at)
    values ($1, $2, 'outro-admin', $3, now(), now() + interval '1 hour', true, now(), now()), ($4, $5, 'admin', $6, now(), now() + interval '1 hour', true, now(), now())`, [X, u, C, A, adm.id, E]);
  await sys.query(`insert into historico_de_login (ambiente_id, usuario, nome, data_login, esta_logado, sucesso, created_at, updated_at)
    values ($1, $2, 'outro-admin', now(), false, true, now(), now()), ($3, null, 'admin', now(), false, true, now(), now())`, [X, u, A]);
  await sys.query(`insert into chave_de_api (empresa_id, descricao, limite_conexao_minutos, limite_conexao_horas, limite, permissoes, chave, prefixo, usos, ativa, created_at, updated_at)
    values ($1, 'Chave A', 60, 1000, 100, '[]', repeat('a', 64), 'rst_aaaa', 0, true, now(), now()), ($2, 'Chave B', 60, 1000, 100, '[]', repeat('b', 64), 'rst_bbbb', 0, true, now(), now())`, [E, B]);
  await sys.query(`insert into recuperacao_senha (token_hash, usuario_id, criada_em, expira_em) values (repeat('c', 64), $1, now(), now() + interval '1 hour')`, [u]);
  // Change history: company E's and B's changes to a company register, B's change to a shared register (usuario),
  // and the other ambiente's.
  await sys.query(`insert into historico_alteracao (data, usuario_id, login, empresa_id, ambiente_id, entidade, registro_id, operacao, alteracoes) values
    (now(), 1, 'admin', $1, $2, 'ativo', 1, 'update', '{"placa": {"antes": "AAA", "depois": "AAB"}}'),
    (now(), 1, 'admin', $3, $2, 'ativo', 2, 'update', '{"placa": {"antes": "BBB", "depois": "BBC"}}'),
    (now(), 1, 'admin', $3, $2, 'usuario', 1, 'update', '{"nome": {"antes": "a", "depois": "b"}}'),
    (now(), $5, 'outro-admin', $4, $6, 'usuario', $5, 'update', '{"nome": {"antes": "c", "depois": "d"}}')`, [E, A, B, C, u, X]);
  await sys.query('commit');
});
afterAll(async () => {
  await Promise.all([sys?.end(), app?.end()]);
  await ts?.stop();
});

describe('row-level security walk (every relation the app role can read)', () => {
  it('sees only the active company rows (and its ambiente\'s) and no credential column', async () => {
    const r = await walk();
    expect(r.problems).toEqual([]);
    // The walk covered what it should: the registers, the change history, the ambiente tables, telemetria.
    for (const t of ['public.ativo', 'public.cargo', 'public.chave_de_api', `public.${HISTORY_TABLE}`, 'telemetria.posicao', 'telemetria.ultimo_estado']) expect(r.company).toContain(t);
    expect(r.ambiente.sort()).toEqual(['public.empresa', 'public.historico_de_login', 'public.sessao', 'public.usuario']);
    expect(r.checkedCredentials).toEqual(expect.arrayContaining(['public.usuario.senha', 'public.chave_de_api.chave', 'public.link_publico.token']));
    // recuperacao_senha is not readable by the app role at all.
    expect(r.global).not.toContain('public.recuperacao_senha');
    const [rec] = await q(sys, `select has_any_column_privilege($1, 'recuperacao_senha', 'select') as s`, [APP_ROLE]);
    expect(rec.s).toBe(false);
    // The other company's and ambiente's rows exist (the walk saw them filtered, not missing).
    const [n] = await q(sys, `select (select count(*) from ativo where empresa_id = $1)::int as ativo_b,
        (select count(*) from historico_alteracao where empresa_id = $1 and entidade = 'ativo')::int as hist_b,
        (select count(*) from usuario where ambiente_id = $2)::int as usuario_x, (select count(*) from sessao where ambiente_id = $2)::int as sessao_x,
        (select count(*) from historico_de_login where ambiente_id = $2)::int as login_x, (select count(*) from chave_de_api where empresa_id = $3)::int as chave_b`, [B, X, B]);
    expect(n).toEqual({ ativo_b: expect.any(Number), hist_b: 1, usuario_x: 1, sessao_x: 1, login_x: 1, chave_b: 1 });
    expect(n.ativo_b).toBeGreaterThan(0);
    // Every company table the seed filled also holds the other company's rows, so the walk saw them filtered.
    const filled: string[] = [];
    for (const t of r.company) {
      const [x] = await q(sys, `select count(*) filter (where empresa_id = $1::int)::int as e, count(*) filter (where empresa_id = $2::int)::int as b from ${t}`, [E, B]);
      if (x.e > 0) { filled.push(t); expect({ t, b: x.b > 0 }).toEqual({ t, b: true }); }
    }
    expect(filled).toEqual(expect.arrayContaining(['public.acessorio', 'public.ativo', 'public.cargo', 'public.categoria_de_ativo', 'public.chave_de_api',
      'public.fabricante_de_ativo', 'public.garagem', `public.${HISTORY_TABLE}`, 'public.modelo_de_ativo', 'public.motorista', 'public.situacao_do_ativo',
      'telemetria.posicao', 'telemetria.ultimo_estado']));
  });

  it('the change history shows the company\'s changes and the ambiente\'s shared registers\', nothing else', async () => {
    const rows = await asApp(() => q(app, `select empresa_id, entidade, alteracoes->'placa'->>'antes' as placa from ${HISTORY_TABLE} order by id`));
    expect(rows).toEqual([
      { empresa_id: E, entidade: 'ativo', placa: 'AAA' },
      { empresa_id: B, entidade: 'usuario', placa: null },
    ]);
  });

  it('the attack as reported: with only rastro.empresa set, no other company\'s history and no credential', async () => {
    await app.query('begin');
    try {
      await app.query(`set local role ${APP_ROLE}`);
      await app.query(`select set_config('rastro.empresa', $1, true)`, [String(E)]);
      const hist = await q(app, `select distinct empresa_id from ${HISTORY_TABLE}`);
      expect(hist).toEqual([{ empresa_id: E }]);
      expect(await q(app, 'select id from usuario')).toEqual([]); // no ambiente: no user
      await app.query('savepoint s');
      await expect(app.query('select senha from usuario')).rejects.toMatchObject({ code: '42501' });
      await app.query('rollback to savepoint s');
      await expect(app.query('select token_hash from recuperacao_senha')).rejects.toMatchObject({ code: '42501' });
    } finally { await app.query('rollback'); }
  });

  it('fails for a new company table without a policy', async () => {
    await sys.query(`create table public.rls_walk_nova (id serial primary key, empresa_id int not null, nome text, senha_hash text)`);
    try {
      await sys.query(`insert into public.rls_walk_nova (empresa_id, nome, senha_hash) values ($1, 'a', 'x'), ($2, 'b', 'y')`, [E, B]);
      const r = await walk();
      expect(r.problems).toEqual([
        'public.rls_walk_nova.senha_hash: credencial legível pelo papel rastro_app',
        'public.rls_walk_nova: sem row level security',
        'public.rls_walk_nova: política de rastro_app não compara empresa_id com rastro.empresa: []',
        `public.rls_walk_nova: rastro_app com rastro.empresa=${E} vê uma linha de empresa_id=${B}`,
      ]);
    } finally {
      await sys.query('drop table public.rls_walk_nova');
    }
  });
});
