// Conformance suite, run for EVERY entity of the generated model over real HTTP:
// tenancy: a company-A administrator (every key but the platform's) cannot list/read/update/delete/export
// the rows of company B OF THE SAME AMBIENTE (company-scoped rows, and ambiente-scoped rows belonging to B:
// metadata `companies`), nor another ambiente's; a read-only role cannot write (403); no session -> 401;
// platform keys: without them the gated operations are refused (403) even with the entity's own keys.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityMeta, FieldMeta } from '../../generator/model.ts';
import { loadBundle } from '../app/bundle.ts';
import { LEITOR, json, startTestServer, type Api, type TestServer } from './harness.ts';

const bundle = await loadBundle();
const entities = bundle.model.entities;

interface Tenant { ambienteId: number; empresaId: number }

let ts: TestServer;
let gestorA: Api;
let plataforma: Api;
let leitor: Api;
let leitorKeys: Set<string>;
let own: Tenant, otherEmpresa: Tenant, otherAmbiente: Tenant;

function sample(f: FieldMeta): unknown {
  const tok = crypto.randomBytes(6).toString('hex');
  switch (f.type) {
    case 'string': case 'file': case 'image': return `t${tok}`.slice(0, Math.max(f.minLength ?? 1, Math.min(f.maxLength ?? 20, 20)));
    case 'text': return `texto ${tok}`;
    case 'integer': return 1;
    case 'number': return 1.5;
    case 'boolean': return f.default ?? true;
    case 'date': return '2024-01-01';
    case 'datetime': return new Date();
    case 'time': return '10:00';
    case 'enum': return f.options?.[0]?.value;
    case 'referenceList': return [];
    default: return null;
  }
}

/** Inserts a row of `key` in tenant t (its company, also for rows of the ambiente that belong to companies:
 *  metadata `companies`), creating required references in the same tenant. The empresa entity gets a new
 *  company of t's ambiente: it is not in the caller's list. */
async function make(key: string, t: Tenant, depth = 0): Promise<number> {
  const e = entities.find((x) => x.key === key)!;
  if (e.key === 'empresa' && depth > 0) return t.empresaId;
  if (e.key === 'ambiente' && depth > 0) return t.ambienteId;
  const data: Record<string, unknown> = {};
  if (e.scope === 'empresa') data.empresaId = t.empresaId;
  if (e.scope === 'ambiente') data.ambienteId = t.ambienteId;
  const companiesHead = e.companies?.split('.')[0];
  for (const f of e.fields) {
    if (f.system) continue;
    if (f.name === companiesHead && f.reference === 'empresa') {
      data[f.name] = f.type === 'referenceList' ? [t.empresaId] : t.empresaId;
      continue;
    }
    if (f.type === 'reference') {
      if ((f.required || f.name === companiesHead) && depth < 4) data[f.name] = await make(f.reference!, t, depth + 1);
      continue;
    }
    if (!f.required && f.default === undefined && f.type !== 'boolean') continue;
    data[f.name] = f.default !== undefined && f.default !== null ? f.default : sample(f);
  }
  const row = await ts.insert(key, data);
  return Number(row.id);
}

beforeAll(async () => {
  ts = await startTestServer();
  const em = ts.em();
  const empresas = (await em.getConnection().execute('select id, ambiente_id from empresa order by id')) as { id: number; ambiente_id: number }[];
  own = { ambienteId: empresas[0].ambiente_id, empresaId: empresas[0].id };
  otherEmpresa = { ambienteId: empresas[1].ambiente_id, empresaId: empresas[1].id };
  const amb2 = Number((await ts.insert('ambiente', { descricao: 'Outro ambiente', ativo: true })).id);
  const empC = Number((await ts.insert('empresa', { ambienteId: amb2, fantasia: 'Empresa C', status: 'ativa' })).id);
  otherAmbiente = { ambienteId: amb2, empresaId: empC };
  expect(otherEmpresa.ambienteId).toBe(own.ambienteId);
  expect(otherEmpresa.empresaId).not.toBe(own.empresaId);
  // A non-special administrator of company A holding every key but the platform keys; a platform
  // administrator of company A holding every key.
  await ts.createUser({ login: 'gestor.a', senha: 'gestor-senha-1', ambienteId: own.ambienteId, empresas: [own.empresaId], permissoes: companyKeys });
  await ts.createUser({ login: 'plataforma.a', senha: 'plataforma-senha-1', ambienteId: own.ambienteId, empresas: [own.empresaId], permissoes: allKeys });
  gestorA = await ts.login('gestor.a', 'gestor-senha-1');
  plataforma = await ts.login('plataforma.a', 'plataforma-senha-1');
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  expect(gestorA.empresaAtiva).toBe(own.empresaId);
  expect(leitor.empresaAtiva).toBe(own.empresaId);
  expect(new Set(gestorA.user.permissoes)).toEqual(new Set(companyKeys));
  expect(new Set(plataforma.user.permissoes)).toEqual(new Set(allKeys));
  leitorKeys = new Set(leitor.user.permissoes);
});
afterAll(async () => { await ts?.stop(); });

const allKeys = bundle.model.permissions.map((p) => p.key);
const platformKeys = new Set((bundle.model.platform ?? []).flatMap((p) => [p.key, ...p.gated]));
const companyKeys = allKeys.filter((k) => !platformKeys.has(k));
const gated = (key: string) => (bundle.model.platform ?? []).some((p) => p.gated.includes(key));

const rowExists = async (e: EntityMeta, id: number) => Number((await ts.em().getConnection().execute(`select count(*)::int as n from ${e.table} where id = ?`, [id]))[0].n) === 1;

describe.each(entities.map((e) => [e.key, e] as const))('%s', (_key, e) => {
  it('no session -> 401', async () => {
    expect((await ts.fetch(`/api/${e.key}`)).status).toBe(401);
    expect((await ts.fetch(`/api/${e.key}/1`)).status).toBe(401);
    expect((await ts.fetch(`/api/${e.key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await ts.fetch(`/api/${e.key}/1`, { headers: { authorization: 'Bearer invalido' } })).status).toBe(401);
  });

  it('read-only role cannot write (403)', async () => {
    const id = await make(e.key, own);
    const writes = [
      leitor.post(`/api/${e.key}`, {}),
      leitor.put(`/api/${e.key}/${id}`, {}),
      leitor.del(`/api/${e.key}/${id}`),
      ...e.actions.map((a) => leitor.post(`/api/${e.key}/${id}/${a.name}`)),
    ];
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    for (const [i, s] of statuses.entries()) {
      // Read-only resources have no create/update/delete routes at all (404).
      if (e.readOnlyResource && i < 3) expect([403, 404]).toContain(s);
      else expect(s, `write #${i}`).toBe(403);
    }
    expect(await rowExists(e, id)).toBe(true);
    // Listing: allowed exactly when the read-only role holds the list key (platform-gated keys it does not).
    const list = await leitor.get(`/api/${e.key}?range=[0,0]`);
    expect(list.status).toBe(leitorKeys.has(`${e.permission}.lista`) ? 200 : 403);
    expect(leitorKeys.has(`${e.permission}.lista`)).toBe(!gated(`${e.permission}.lista`));
  });

  const platformOps = e.platform?.gated ?? [];
  if (platformOps.length) {
    it('platform operations are refused without the platform key, even with the entity\'s own keys', async () => {
      const id = e.key === 'empresa' ? own.empresaId : await make(e.key, own);
      const op = (key: string) => key.slice(e.permission.length + 1);
      const call = (api: Api, o: string) => {
        if (o === 'lista') return api.get(`/api/${e.key}`);
        if (o === 'visualizar') return api.get(`/api/${e.key}/${id}`);
        if (o === 'adicionar') return api.post(`/api/${e.key}`, {});
        if (o === 'editar') return api.put(`/api/${e.key}/${id}`, {});
        if (o === 'excluir') return api.del(`/api/${e.key}/${id}`);
        return api.post(`/api/${e.key}/${id}/${o}`);
      };
      for (const key of platformOps) {
        expect(gestorA.user.permissoes, key).not.toContain(key);
        const res = await call(gestorA, op(key));
        expect(res.status, `${key}: ${JSON.stringify(await json(res))}`).toBe(403);
      }
      expect(await rowExists(e, id)).toBe(true);
      // The platform administrator reaches them (reads answer 200; writes pass the permission check).
      for (const key of platformOps.filter((k) => ['lista', 'visualizar'].includes(op(k)))) {
        expect((await call(plataforma, op(key))).status, key).toBe(200);
      }
    });
  }

  if (e.scope === 'global') {
    // Global registers are shared by every tenant: visible to a holder of the key, refused without it.
    it('global rows are shared with key holders and refused without the key', async () => {
      const id = await make(e.key, own);
      const holder = gated(`${e.permission}.lista`) ? plataforma : gestorA;
      const list = await holder.get(`/api/${e.key}?filter=${encodeURIComponent(JSON.stringify({ id: [id] }))}`);
      expect(list.status).toBe(200);
      expect((await list.json()).map((r: any) => r.id)).toEqual([id]);
      await ts.createUser({ login: `sem.${e.key}`, senha: 'sem-chave-senha-1', ambienteId: own.ambienteId, empresas: [own.empresaId], permissoes: ['tlm.fro.ativo.lista'] });
      const u = await ts.login(`sem.${e.key}`, 'sem-chave-senha-1');
      // The user holds exactly the one unrelated key.
      expect(u.user.permissoes).toEqual(['tlm.fro.ativo.lista']);
      expect((await u.get(`/api/${e.key}`)).status).toBe(403);
      expect((await u.get(`/api/${e.key}/${id}`)).status).toBe(403);
    });
    return;
  }

  // Company B of the SAME ambiente for every register; for ambiente-scoped registers also another ambiente.
  const others: [string, () => Tenant][] = [['another company of the same ambiente', () => otherEmpresa]];
  if (e.scope === 'ambiente') others.push(['another ambiente', () => otherAmbiente]);
  it.each(others)('rows of %s are invisible and untouchable', async (_what, tenantOf) => {
    const id = await make(e.key, tenantOf());
    const list = await gestorA.get(`/api/${e.key}?range=[0,999]`);
    expect(list.status).toBe(200);
    expect((await list.json()).map((r: any) => r.id)).not.toContain(id);
    const many = await gestorA.get(`/api/${e.key}?filter=${encodeURIComponent(JSON.stringify({ id: [id] }))}`);
    expect(await many.json()).toEqual([]);
    expect((await gestorA.get(`/api/${e.key}/${id}`)).status).toBe(404);
    expect((await gestorA.get(`/api/${e.key}/${id}/historico`)).status).toBe(404);
    // 404: the row is not found for the caller; 403 where the key itself is platform-gated (checked first).
    const expected = (key: string) => (gestorA.user.permissoes.includes(key) || !allKeys.includes(key) ? 404 : 403);
    expect(gated(`${e.permission}.editar`) || gated(`${e.permission}.visualizar`)).toBe(false);
    expect((await gestorA.put(`/api/${e.key}/${id}`, {})).status).toBe(404);
    expect((await gestorA.del(`/api/${e.key}/${id}`)).status).toBe(expected(`${e.permission}.excluir`));
    for (const a of e.actions) expect((await gestorA.post(`/api/${e.key}/${id}/${a.name}`)).status, a.name).toBe(expected(a.permission));
    if (tenantOf() === otherAmbiente) {
      // Holding every key (platform included) does not cross ambientes.
      expect((await plataforma.get(`/api/${e.key}/${id}`)).status).toBe(404);
      expect((await plataforma.put(`/api/${e.key}/${id}`, {})).status).toBe(404);
      expect((await plataforma.del(`/api/${e.key}/${id}`)).status).toBe(404);
      for (const a of e.actions) expect((await plataforma.post(`/api/${e.key}/${id}/${a.name}`)).status, a.name).toBe(404);
    }
    const exp = await (await gestorA.get(`/api/${e.key}/export?format=csv&filter=${encodeURIComponent(JSON.stringify({ id: [id] }))}`)).text();
    expect(exp.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(1);
    expect(await rowExists(e, id)).toBe(true);
  });
});
