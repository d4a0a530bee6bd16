// Attack suite (issue 24), generated from the real app's route table — every generated, provider, named-call,
// module and action route — over real HTTP. It grows by itself: a new register or module route is attacked without
// a new test. Attackers: a revoked, an expired session, a disabled user, a user of a suspended company (401 on every
// route); a user without keys and the read-only role (403 on every route whose keys they lack); company A's
// administrator against company B's rows of the same ambiente (nothing of B in any answer, nothing of B changed);
// hostile input on every route (SQL metacharacters in filters, sorts, ranges and searches, path traversal and
// oversized or odd path parameters, broken, deep, oversized and wrongly typed bodies, wrong content types): a 4xx,
// never a 500, nothing written. The counts are printed (attempts, refused, leaked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complete, endpoints, type Endpoint } from '../core/route-table.ts';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from './harness.ts';

let ts: TestServer;
let all: Endpoint[];
let A: number, B: number, ambiente: number;
const MARK = 'SEGREDO-DA-EMPRESA-B';
const tally = { attempts: 0, refused: 0, leaked: 0, errors500: 0 };

/** Routes outside the session pipeline (sign-in, the public link, catch-alls): attacked by input only. */
const pipelined = (e: Endpoint) => complete(e.steps) && e.method !== 'ALL';
const fill = (p: string, v: string) => p.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, v);
const can = (keys: Set<string>, label: string | undefined) =>
  label === 'self' || label === 'computed' || (label ?? '').split('|').some((k) => keys.has(k));

/** Runs `fn` over `items`, a few at a time (the answers are checked one by one; their order does not matter). */
async function eachAtOnce<T>(items: readonly T[], fn: (x: T) => Promise<void>, n = 6): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => { while (i < items.length) await fn(items[i++]); }));
}

async function call(api: Api | null, method: string, p: string, body?: string, type = 'application/json'): Promise<Response> {
  tally.attempts++;
  const headers: Record<string, string> = api ? api.headers({ 'content-type': type }) : { 'content-type': type };
  return ts.fetch(p, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body ?? '{}' });
}

/** The session's own bookkeeping, written by any request of a session: its last access, and the session change
 *  counter the server bumps when it closes a session it finds expired. */
const SESSION_BOOKKEEPING = ['sessao', 'rastro_sessao_versao', 'mikro_orm_migrations'];
/** Row counts and the newest row version of every table a request could write (public and telemetria), except the
 *  session's bookkeeping — compared before and after each attack. */
async function fingerprint(): Promise<Record<string, string>> {
  const conn = ts.em().getConnection();
  const tables = (await conn.execute(`select table_schema || '.' || table_name as t from information_schema.tables
    where table_schema in ('public', 'telemetria') and table_type = 'BASE TABLE' and table_name not in (${SESSION_BOOKKEEPING.map((t) => `'${t}'`).join(', ')})
    order by 1`)) as { t: string }[];
  const parts = tables.map(({ t }) => `select '${t}' as t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text as v from ${t.split('.').map((x) => `"${x}"`).join('.')}`);
  const rows = (await conn.execute(parts.join(' union all '))) as { t: string; v: string }[];
  return Object.fromEntries(rows.map((r) => [r.t, r.v]));
}
const changed = (a: Record<string, string>, b: Record<string, string>) => Object.keys(b).filter((k) => a[k] !== b[k]);
/** A server error: a 5xx other than a declared unavailability (503 with its pt-BR message: an integration that is
 *  not configured, e.g. Superlógica without its tokens) — that one is a refusal the client can act on. */
const serverError = (status: number, body: string) => status >= 500 && !(status === 503 && /"msg":"[^"]{10,}"/.test(body));
const refusal = (status: number, body: string) => (status >= 400 && status < 500) || (status === 503 && !serverError(status, body));

beforeAll(async () => {
  ts = await startTestServer();
  all = endpoints(ts.app.routes).filter((e) => e.method !== 'ALL');
  const admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  ambiente = admin.user.ambienteId;
  // Company B's rows carry a marker company A must never read.
  await ts.insert('ativo', { empresaId: B, descricao: MARK, placa: 'SEG1B23' });
  await ts.insert('motorista', { empresaId: B, nome: MARK, documento: '111.222.333-44', situacao: 'ativo' });
  await ts.insert('garagem', { empresaId: B, nome: MARK, descricao: MARK });
}, 120_000);
afterAll(async () => {
  console.log(`ataques: ${tally.attempts} tentativas, ${tally.refused} recusadas, ${tally.leaked} vazamentos, ${tally.errors500} respostas 5xx (${all?.length} rotas)`);
  await ts?.stop();
});

describe('identity attacks on every route', () => {
  const user = async (login: string, o: { empresas?: number[]; permissoes?: string[]; roles?: string[] } = {}) => {
    await ts.createUser({ login, senha: 'senha-ataque-123', ambienteId: ambiente, empresas: o.empresas ?? [A], permissoes: o.permissoes ?? [], roles: o.roles ?? [] });
    return ts.login(login, 'senha-ataque-123');
  };
  const sql = (q: string, p: unknown[]) => ts.em().getConnection().execute(q, p);

  it('a revoked, an expired session, a disabled user and a user of a suspended company get 401 everywhere, and nothing is written', async () => {
    const keys = ts.model.permissions.map((p) => p.key);
    const revoked = await user('ataque.revogado', { permissoes: keys });
    expect((await revoked.post('/api/auth/logout')).status).toBe(200);
    const expired = await user('ataque.expirado', { permissoes: keys });
    await sql('update sessao set data_valido_ate = now() - interval \'1 minute\' where login = ?', ['ataque.expirado']);
    const disabled = await user('ataque.desativado', { permissoes: keys });
    await sql('update usuario set ativo = false where login = ?', ['ataque.desativado']);
    const empresaC = Number((await ts.insert('empresa', { ambienteId: ambiente, fantasia: 'Empresa suspensa', status: 'ativa' })).id);
    const suspended = await user('ataque.suspenso', { empresas: [empresaC], permissoes: keys });
    await sql('update empresa set status = \'suspensa\' where id = ?', [empresaC]);
    const before = await fingerprint();
    const wrong: string[] = [];
    for (const [who, api] of [['revogada', revoked], ['expirada', expired], ['desativado', disabled], ['suspensa', suspended]] as const) {
      await eachAtOnce(all.filter(pipelined), async (e) => {
        const res = await call(api, e.method, fill(e.path, '1'));
        if (res.status === 401) tally.refused++;
        else wrong.push(`${who} ${e.id}: ${res.status}`);
        await res.arrayBuffer();
      });
    }
    expect(wrong).toEqual([]);
    expect(changed(before, await fingerprint())).toEqual([]);
  }, 600_000);

  it('a user without keys and the read-only role get 403 on every route whose keys they lack, and nothing is written', async () => {
    const none = await user('ataque.semchaves');
    const leitor = await ts.login(LEITOR.login, LEITOR.senha);
    const leitorKeys = new Set<string>(leitor.user.permissoes);
    expect(leitorKeys.size).toBeGreaterThan(10);
    const before = await fingerprint();
    const wrong: string[] = [];
    let checked = 0;
    for (const [who, api, keys] of [['sem chaves', none, new Set<string>()], ['leitor', leitor, leitorKeys]] as const) {
      await eachAtOnce(all.filter((e) => pipelined(e) && !can(keys, e.permission)), async (e) => {
        checked++;
        const res = await call(api, e.method, fill(e.path, '1'));
        if (res.status === 403) tally.refused++;
        else wrong.push(`${who} ${e.id} [${e.permission}]: ${res.status}`);
        await res.arrayBuffer();
      });
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(all.length);
    expect(changed(before, await fingerprint())).toEqual([]);
  }, 600_000);
});

describe('company A against company B (same ambiente)', () => {
  it("no answer of any GET route (lists, records, providers, calls, exports) carries B's rows, and B's rows are never changed", async () => {
    const keys = ts.model.permissions.map((p) => p.key);
    await ts.createUser({ login: 'ataque.gestor.a', senha: 'senha-ataque-123', ambienteId: ambiente, empresas: [A], permissoes: keys });
    const gestor = await ts.login('ataque.gestor.a', 'senha-ataque-123');
    const conn = ts.em().getConnection();
    const bIds = new Map<string, number>();
    for (const [t, col] of [['ativo', 'descricao'], ['motorista', 'nome'], ['garagem', 'nome']]) bIds.set(t, Number((await conn.execute(`select id from ${t} where ${col} = ?`, [MARK]))[0].id));
    /** A route's path with B's row ids after the register's segment, else 1. */
    const toward = (p: string) => p.split('/').map((seg, i, segs) => (seg.startsWith(':') ? String(bIds.get(segs[i - 1]) ?? bIds.get(segs[i - 2]) ?? 1) : seg)).join('/');
    const before = await fingerprint();
    const leaks: string[] = [];
    await eachAtOnce(all.filter(pipelined), async (e) => {
      const target = toward(e.path);
      const res = await call(gestor, e.method, e.method === 'GET' ? `${target}${target.includes('?') ? '&' : '?'}range=${encodeURIComponent('[0,999]')}` : target);
      const text = await res.text();
      if (text.includes(MARK) || text.includes('SEG1B23')) { tally.leaked++; leaks.push(`${e.id} → ${res.status}`); }
      else if (refusal(res.status, text)) tally.refused++;
      if (serverError(res.status, text)) { tally.errors500++; leaks.push(`${e.id} → ${res.status} ${text.slice(0, 200)}`); }
    });
    expect(leaks).toEqual([]);
    const after = await fingerprint();
    // Some routes legitimately write for the caller (its own preferences, a job it starts): never B's registers.
    for (const t of ['public.ativo', 'public.motorista', 'public.garagem']) expect(after[t], t).toBe(before[t]);
  }, 600_000);
});

describe('hostile input on every route', () => {
  let admin: Api;
  beforeAll(async () => { admin = await ts.login(ADMIN.login, ADMIN.senha); });

  const QUERIES = [
    `filter=${encodeURIComponent(JSON.stringify({ descricao: "' OR 1=1 --" }))}`,
    `filter=${encodeURIComponent(JSON.stringify({ id: '1; DROP TABLE ativo' }))}`,
    `filter=${encodeURIComponent(JSON.stringify({ 'x" OR 1=1 --': '1' }))}`,
    `filter=${encodeURIComponent(JSON.stringify({ q: "%' OR '1'='1" }))}`,
    `filter=${encodeURIComponent(JSON.stringify({ q: 'a\u0000b\uD800' }))}`,
    'filter=%27',
    `sort=${encodeURIComponent(JSON.stringify(['id; DROP TABLE ativo', 'ASC']))}`,
    `sort=${encodeURIComponent(JSON.stringify(['(select 1)', 'DESC; --']))}`,
    `range=${encodeURIComponent(JSON.stringify([0, '1 OR 1=1']))}`,
    `range=${encodeURIComponent(JSON.stringify([-5, 99999999999]))}`,
    `q=${encodeURIComponent("%' OR '1'='1")}`,
  ];
  const PARAMS = ["1' OR '1'='1", '..%2F..%2F..%2Fetc%2Fpasswd', '%00', 'x'.repeat(3000), '%E2%80%AE%F0%9F%9A%9A', '-1', '1e309'];
  const deep = '['.repeat(20000) + ']'.repeat(20000);
  const BODIES: [string, string, string][] = [
    ['JSON quebrado', '{"descricao": ', 'application/json'],
    ['JSON profundo', deep, 'application/json'],
    ['texto no lugar do objeto', '"texto"', 'application/json'],
    ['número no lugar do objeto', '123', 'application/json'],
    ['nulo', 'null', 'application/json'],
    ['tipo de conteúdo errado', 'descricao=x', 'application/x-www-form-urlencoded'],
    ['corpo grande demais', JSON.stringify({ descricao: 'x'.repeat(1536 * 1024) }), 'application/json'],
  ];
  /** Routes whose answer to a body it ignores is by design: none yet (each would be named here with its reason). */
  const IGNORES_BODY: Record<string, string> = {
    'POST /api/auth/logout': 'ends the session of the token it carries, whatever the body says (a broken body must not keep a session open)',
  };

  it('SQL metacharacters in every filter, sort, range and search, and odd path parameters: a 4xx or an answer, never a 500', async () => {
    const before = await fingerprint();
    const wrong: string[] = [];
    const gets = all.filter((x) => x.method === 'GET' && x.path.startsWith('/api/'));
    const variants = gets.flatMap((e) => [...QUERIES.map((q) => `${fill(e.path, '1')}?${q}`), ...(e.path.includes(':') ? PARAMS.map((v) => fill(e.path, v)) : [])].map((p) => [e, p] as const));
    await eachAtOnce(variants, async ([e, p]) => {
      const res = await call(admin, 'GET', p);
      const text = await res.text();
      if (serverError(res.status, text)) { tally.errors500++; wrong.push(`${e.id} ${p.slice(0, 160)} → ${res.status} ${text.slice(0, 160)}`); }
      else if (refusal(res.status, text)) tally.refused++;
    });
    expect(wrong).toEqual([]);
    // Reads write nothing (exports and reports may start a job for the caller: none is started by a bad query).
    expect(changed(before, await fingerprint())).toEqual([]);
  }, 900_000);

  it('broken, deep, oversized, wrongly typed bodies and wrong content types on every write: a 4xx, never a 500, nothing written', async () => {
    const before = await fingerprint();
    const wrong: string[] = [];
    const writes = all.filter((x) => x.method !== 'GET' && x.path.startsWith('/api/') && !IGNORES_BODY[x.id]);
    await eachAtOnce(writes.flatMap((e) => BODIES.map((b) => [e, ...b] as const)), async ([e, what, body, type]) => {
      const res = await call(admin, e.method, fill(e.path, '999999999'), body, type);
      const text = await res.text();
      if (refusal(res.status, text)) tally.refused++;
      else { if (serverError(res.status, text)) tally.errors500++; wrong.push(`${e.id} (${what}) → ${res.status} ${text.slice(0, 160)}`); }
    });
    expect(wrong).toEqual([]);
    expect(changed(before, await fingerprint())).toEqual([]);
  }, 900_000);
});
