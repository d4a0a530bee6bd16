// The read engine's own pool (read-pool.ts): its connections take the company of the context like the ORM's, switch
// when the next read is another company's or the system's, and a lost connection costs one read, not the pool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { asSystem, withCompany } from './rls.ts';
import { readRows } from './read-pool.ts';

let ts: TestServer;
let companies: number[];
beforeAll(async () => {
  ts = await startTestServer();
  companies = (await ts.orm.em.getConnection().execute('select distinct empresa_id as id from ativo order by 1') as { id: number }[]).map((r) => Number(r.id));
});
afterAll(async () => { await ts?.stop(); });

interface State { pid: number; role: string; empresa: string | null; n: number; companies: string }
const STATE = `select pg_backend_pid() as pid, current_user as role, current_setting('rastro.empresa', true) as empresa,
  count(*)::int as n, string_agg(distinct empresa_id::text, ',') as companies from ativo`;
const state = async () => (await readRows<State>(ts.orm.em, STATE))[0]!;

describe('read pool', () => {
  it('reads as the context\'s company on the same connection, and as the system role outside one', async () => {
    expect(companies.length).toBeGreaterThan(1);
    const [a, b] = companies;
    const all = await asSystem(state);
    expect(all.role).not.toBe('rastro_app');
    expect(all.companies).toBe(companies.join(','));
    const inA = await withCompany(a!, state);
    const inB = await withCompany(b!, state);
    // Sequential reads take the same idle connection: its state changed between them.
    expect(inB.pid).toBe(inA.pid);
    expect([inA.role, inA.empresa, inA.companies]).toEqual(['rastro_app', String(a), String(a)]);
    expect([inB.role, inB.empresa, inB.companies]).toEqual(['rastro_app', String(b), String(b)]);
    expect(inA.n + inB.n).toBe(all.n);
    const again = await asSystem(state);
    expect([again.pid, again.role, again.empresa, again.n]).toEqual([inA.pid, all.role, '', all.n]);
  });

  it('keeps a connection after an error PostgreSQL reports, and replaces one the server ended', async () => {
    const [a] = companies;
    const before = await withCompany(a!, state);
    await expect(withCompany(a!, () => readRows(ts.orm.em, 'select 1 / 0'))).rejects.toThrow(/division by zero/);
    const after = await withCompany(a!, state);
    expect(after.pid).toBe(before.pid);
    // The server ends that connection while it is idle in the pool.
    await ts.orm.em.getConnection().execute('select pg_terminate_backend(?)', [before.pid]);
    const results: (State | Error)[] = [];
    for (let i = 0; i < 3; i++) results.push(await withCompany(a!, state).catch((e: Error) => e));
    // At most the read that found it dead fails; then a new connection, in the company's state.
    const ok = results.filter((r): r is State => !(r instanceof Error));
    expect(ok.length).toBeGreaterThanOrEqual(2);
    expect(ok.at(-1)!.pid).not.toBe(before.pid);
    expect([ok.at(-1)!.role, ok.at(-1)!.empresa, ok.at(-1)!.companies]).toEqual(['rastro_app', String(a), String(a)]);
  });
});
