// Conformance suite, run for EVERY entity of the generated model over real HTTP:
// tenancy: a company-A administrator (every key but the platform's) cannot list/read/update/delete/export
// the rows of company B OF THE SAME AMBIENTE (company-scoped rows, and ambiente-scoped rows belonging to B:
// metadata `companies`), nor another ambiente's; a read-only role cannot write (403); no session -> 401;
// platform keys: without them the gated operations are refused (403) even with the entity's own keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import { loadBundle } from '../app/bundle.ts';
import { isWritable } from '../../generator/emit/schemas.ts';
import { LEITOR, json, startTestServer, type Api, type TestServer } from './harness.ts';
import { createSampler, satisfyCompare } from './sample.ts';

const bundle = await loadBundle();
const entities = bundle.model.entities;

interface Tenant { ambienteId: number; empresaId: number }

/** Values of an entity's route parameters (metadata params): the first known technology and its first model. */
function paramValues(e: EntityMeta): Record<string, string> {
  const t = bundle.model.tecnologias?.[0];
  return Object.fromEntries((e.params ?? []).map((p) => [p.field, p.values === 'tecnologias' ? t!.id : p.values === 'modelos' ? t!.modelos[0].id : 'x']));
}
/** The entity's API below /api, its route parameters filled. */
const apiOf = (e: EntityMeta) => `/api/${[e.key, ...(e.params ?? []).map((p) => paramValues(e)[p.field])].join('/')}`;

let ts: TestServer;
let gestorA: Api;
let plataforma: Api;
let leitor: Api;
let leitorKeys: Set<string>;
let own: Tenant, otherEmpresa: Tenant, otherAmbiente: Tenant;

// Sample values: valid for the field (pattern, format, limits) and different on every call (unique fields).
const sample = createSampler();

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
    data[f.name] = f.default !== undefined && f.default !== null ? f.default : f.example !== undefined ? f.example : sample(f);
  }
  satisfyCompare(e.compare, data);
  const row = await ts.insert(key, { ...data, ...paramValues(e) });
  return Number(row.id);
}

/** The register a code field names (a lookup without default, or the field naming the parent by a code), if any. */
function codeTarget(e: EntityMeta, f: FieldMeta): { entity: string; value: string } | undefined {
  if (f.lookup) return f.lookup.parent || f.default !== undefined ? undefined : f.lookup;
  const p = e.parent;
  return p && p.field === f.name && p.by !== 'id' && !p.refId ? { entity: p.entity, value: p.by } : undefined;
}

/** A code of a register row made in the caller's tenant (the API takes only codes the caller sees). */
async function codeFor(e: EntityMeta, f: FieldMeta): Promise<string | undefined> {
  const t = codeTarget(e, f);
  if (!t) return undefined;
  const te = entities.find((x) => x.key === t.entity)!;
  const id = await make(te.key, own, 1);
  const col = te.fields.find((x) => x.name === t.value)!.column;
  return (await ts.em().getConnection().execute(`select ${col} as code from ${te.table} where id = ?`, [id]))[0].code;
}

/** A valid API body of `e` (its writable required fields and defaults), references made in the caller's tenant. */
async function bodyFor(e: EntityMeta): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  const companiesHead = e.companies?.split('.')[0];
  for (const f of e.fields.filter(isWritable)) {
    if (f.name === companiesHead && f.reference === 'empresa') { body[f.name] = f.type === 'referenceList' ? [own.empresaId] : own.empresaId; continue; }
    if (f.required && codeTarget(e, f)) { body[f.name] = await codeFor(e, f); continue; }
    if (f.type === 'reference' || f.type === 'referenceList') {
      if (f.required) body[f.name] = f.type === 'reference' ? await make(f.reference!, own, 1) : [await make(f.reference!, own, 1)];
      continue;
    }
    if (!f.required && f.default === undefined) continue;
    body[f.name] = f.default !== undefined && f.default !== null ? f.default : f.example !== undefined ? f.example : sample(f);
  }
  satisfyCompare(e.compare, body);
  return { ...body, ...paramValues(e) };
}

/** The value the API answers for a written one. */
const answered = (f: FieldMeta, v: unknown) => (v instanceof Date ? v.toISOString() : f.upperCase && typeof v === 'string' ? v.toUpperCase() : v);
const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const fields = (e: EntityMeta) => new Map(e.fields.map((f) => [f.name, f]));

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
    expect((await ts.fetch(`${apiOf(e)}`)).status).toBe(401);
    expect((await ts.fetch(`${apiOf(e)}/1`)).status).toBe(401);
    expect((await ts.fetch(`${apiOf(e)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await ts.fetch(`${apiOf(e)}/1`, { headers: { authorization: 'Bearer invalido' } })).status).toBe(401);
  });

  it('read-only role cannot write (403)', async () => {
    const id = await make(e.key, own);
    const writes = [
      leitor.post(`${apiOf(e)}`, {}),
      leitor.put(`${apiOf(e)}/${id}`, {}),
      leitor.del(`${apiOf(e)}/${id}`),
      ...e.actions.map((a) => leitor.post(`${apiOf(e)}/${id}/${a.name}`)),
    ];
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    for (const [i, s] of statuses.entries()) {
      // Read-only resources have no create/update/delete routes at all (404).
      if (e.readOnlyResource && i < 3) expect([403, 404]).toContain(s);
      else expect(s, `write #${i}`).toBe(403);
    }
    expect(await rowExists(e, id)).toBe(true);
    // Listing: allowed exactly when the read-only role holds the list key (platform-gated keys it does not).
    const list = await leitor.get(`${apiOf(e)}?range=[0,0]`);
    expect(list.status).toBe(leitorKeys.has(`${e.permission}.lista`) ? 200 : 403);
    expect(leitorKeys.has(`${e.permission}.lista`)).toBe(!gated(`${e.permission}.lista`));
  });

  if (!e.readOnlyResource) {
    // The whole life of a row over HTTP, as the holder of every key: nothing here is written per register.
    it('create (each required field missing answers its message), read, list with sort/filter/range/search, update, history, delete', async () => {
      const api = plataforma;
      const fields = new Map(e.fields.map((f) => [f.name, f]));
      const body = await bodyFor(e);
      const count = async () => Number((await ts.em().getConnection().execute(`select count(*)::int as n from ${e.table}`))[0].n);
      const before = await count();
      // Fields bound to route parameters (metadata params) come from the route, never missing.
      const bound = new Set((e.params ?? []).map((p) => p.field));
      for (const f of e.fields.filter((x) => isWritable(x) && x.required && x.default === undefined && x.name in body && !bound.has(x.name))) {
        const { [f.name]: _, ...rest } = body;
        const res = await api.post(`${apiOf(e)}`, rest);
        const j = await json(res);
        expect(res.status, `${f.name}: ${JSON.stringify(j)}`).toBe(400);
        expect(j.msg).toContain(`O campo ${f.label} é obrigatório`);
      }
      expect(await count()).toBe(before);

      const created = await api.post(`${apiOf(e)}`, body);
      const row = await json(created);
      expect(created.status, JSON.stringify(row)).toBe(201);
      for (const [k, v] of Object.entries(body)) {
        const f = fields.get(k)!;
        if (f.writeOnly || f.type === 'password') { expect(row).not.toHaveProperty(k); continue; }
        expect(row[k], k).toEqual(answered(f, v));
      }
      // The second row is a clone as react-admin's CloneButton makes it: the whole record as read minus its id
      // (computed columns, read-only and system fields: ignored), the required fields given new values.
      const { id: _id, ...clone } = await json(await api.get(`${apiOf(e)}/${row.id}`));
      const cloned = await api.post(`${apiOf(e)}`, { ...clone, ...await bodyFor(e) });
      const second = await json(cloned);
      expect(cloned.status, JSON.stringify(second)).toBe(201);
      expect(second.id, JSON.stringify(second)).toBeGreaterThan(row.id);
      expect((await json(await api.get(`${apiOf(e)}/${row.id}`))).id).toBe(row.id);

      // List: filter by id, sort both ways, a one-row range with the total, every sortable column, the quick search.
      const ids = [row.id, second.id];
      const page = async (sort: [string, string], range = [0, 0]) => {
        const res = await api.get(`${apiOf(e)}?filter=${q({ id: ids })}&sort=${q(sort)}&range=${q(range)}`);
        expect(res.status, `${sort}`).toBe(200);
        return { rows: (await res.json()).map((r: any) => r.id), range: res.headers.get('content-range') };
      };
      expect(await page(['id', 'ASC'])).toEqual({ rows: [row.id], range: expect.stringMatching(/ 0-0\/2$/) });
      expect((await page(['id', 'DESC'])).rows).toEqual([second.id]);
      for (const c of e.columns.filter((x) => x.sortable)) {
        expect((await page([c.source, 'DESC'], [0, 9])).rows.sort(), c.source).toEqual([...ids].sort());
      }
      const searchable = e.search.find((k) => typeof row[k] === 'string' && row[k].length > 2);
      if (searchable) {
        const res = await api.get(`${apiOf(e)}?filter=${q({ q: row[searchable].slice(1), id: ids })}`);
        expect((await res.json()).map((r: any) => r.id), searchable).toContain(row.id);
      }

      // Update as react-admin's edit sends it: the whole record as read (computed columns, read-only and system
      // fields included: ignored), with a new value for the first writable text field.
      const f = e.fields.find((x) => isWritable(x) && ['string', 'text'].includes(x.type) && !x.writeOnly);
      const change = f ? { [f.name]: (await codeFor(e, f)) ?? sample(f) } : {};
      const read = await json(await api.get(`${apiOf(e)}/${row.id}`));
      for (const c of e.columns.filter((x) => x.virtual && x.sql)) expect(read, c.source).toHaveProperty(c.source);
      const updated = await api.put(`${apiOf(e)}/${row.id}`, { ...read, ...change });
      const up = await json(updated);
      expect(updated.status, JSON.stringify(up)).toBe(200);
      if (f) expect(up[f.name]).toEqual(answered(f, change[f.name]));

      if (e.history) {
        const hist = await json(await api.get(`${apiOf(e)}/${row.id}/historico`));
        expect(hist.map((h: any) => h.operacao)).toEqual(['update', 'create']);
        if (f) expect(hist[0].alteracoes[f.name].depois).toEqual(answered(f, change[f.name]));
      }
      for (const id of ids) expect((await api.del(`${apiOf(e)}/${id}`)).status).toBe(200);
      expect((await api.get(`${apiOf(e)}/${row.id}`)).status).toBe(404);
      expect(await rowExists(e, row.id)).toBe(false);
      // The history of a row with companies is shown only while the row is visible (server/crud/routes.ts).
      if (e.history && !e.companies) expect((await json(await api.get(`${apiOf(e)}/${row.id}/historico`)))[0]?.operacao).toBe('delete');
    });
  }

  if (e.calls && !e.readOnlyResource) {
    // Named calls (metadata calls, spec section 7): the same routes below /api{calls}, answering the envelope.
    it(`named calls ${e.calls} answer the envelope`, async () => {
      const api = plataforma;
      const base = `/api${e.calls}`;
      const created = await api.post(base, await bodyFor(e));
      const c = await json(created);
      expect(created.status, JSON.stringify(c)).toBe(201);
      expect(c).toMatchObject({ status: 201, msg: 'OK', errorMsg: null, payload: { id: expect.any(Number) } });
      const id = c.payload.id;
      const list = await api.get(`${base}?filter=${q({ id: [id] })}`);
      expect(list.headers.get('content-range')).toMatch(/\/1$/);
      expect(await json(list)).toMatchObject({ status: 200, msg: 'OK', errorMsg: null, payload: [{ id }] });
      expect(await json(await api.get(`${base}/${id}`))).toMatchObject({ status: 200, payload: { id } });
      const up = await api.put(`${base}/${id}`, c.payload);
      expect(up.status).toBe(200);
      expect((await json(up)).payload.id).toBe(id);
      const bad = await api.post(base, {});
      expect(bad.status).toBe(400);
      expect((await json(bad))).toMatchObject({ status: 400, msg: expect.stringContaining('é obrigatório') });
      expect((await api.del(`${base}/${id}`)).status).toBe(200);
      expect(await json(await api.get(`${base}/${id}`))).toMatchObject({ status: 404, msg: 'Registro não encontrado' });
      expect((await ts.fetch(base)).status).toBe(401);
    });
  }

  // Fields bound to route parameters take their value from the route (checked there): only the in-use guard applies.
  const boundFields = new Set((e.params ?? []).map((p) => p.field));
  const lookups = e.fields.filter((f) => f.lookup && isWritable(f) && !boundFields.has(f.name));
  const usedCodes = e.fields.filter((f) => f.lookup && isWritable(f));
  if (usedCodes.length && !e.readOnlyResource) {
    // Codes of a register (metadata lookup): choices read with the entity's own keys, unknown codes refused in pt-BR.
    it(`lookup fields ${usedCodes.map((f) => f.name).join(', ')}: choices, refused codes, codes in use`, async () => {
      const body = await bodyFor(e);
      const optionsOf = async (f: FieldMeta, parentValue?: unknown) => {
        const parent = f.lookup!.parent?.field;
        const res = await gestorA.get(`${apiOf(e)}/opcoes/${f.name}${parent ? `?${parent}=${encodeURIComponent(String(parentValue))}` : ''}`);
        expect(res.status, f.name).toBe(200);
        return (await res.json()) as { value: string; label: string }[];
      };
      for (const f of lookups) {
        const parent = f.lookup!.parent?.field;
        const mine = await optionsOf(f, parent && body[parent]);
        expect(mine.map((o) => o.value), f.name).toContain(body[f.name]);
        expect(mine.every((o) => typeof o.label === 'string' && o.label.length > 0)).toBe(true);
        const bad = await plataforma.post(apiOf(e), { ...body, [f.name]: 'nao_cadastrado_x' });
        expect(bad.status).toBe(400);
        expect((await json(bad)).msg).toContain(`O valor 'nao_cadastrado_x' do campo ${f.label} não está cadastrado`);
        if (!parent) continue;
        expect((await gestorA.get(`${apiOf(e)}/opcoes/${f.name}`)).status).toBe(400);
        // a code of another parent is refused under this one
        const pf = fields(e).get(parent)!;
        let foreign: string | undefined;
        for (const p of await optionsOf(pf)) {
          if (p.value === body[parent]) continue;
          foreign = (await optionsOf(f, p.value)).map((o) => o.value).find((v) => !mine.some((o) => o.value === v));
          if (foreign) break;
        }
        expect(foreign, `${f.name}: no code of another ${parent}`).toBeDefined();
        const wrong = await plataforma.post(apiOf(e), { ...body, [f.name]: foreign });
        expect(wrong.status).toBe(400);
        expect((await json(wrong)).msg).toContain(`para ${pf.label} '${String(body[parent])}'`);
      }
      // a register row whose code a row of another company carries is neither deleted nor recoded (409); free again
      // once no row carries it
      const sql = (q: string, v: unknown[] = []) => ts.em().getConnection().execute(q, v);
      for (const f of usedCodes) {
        const t = entities.find((x) => x.key === f.lookup!.entity)!;
        const tid = await make(t.key, own);
        const [{ code }] = await sql(`select ${fields(t).get(f.lookup!.value)!.column} as code from ${t.table} where id = ?`, [tid]);
        const rid = await make(e.key, otherEmpresa);
        await sql(`update ${e.table} set ${f.column} = ? where id = ?`, [code, rid]);
        const del = await plataforma.del(`/api/${t.key}/${tid}`);
        expect(del.status, f.name).toBe(409);
        expect((await json(del)).msg).toContain(`1 ${e.label.singular} (campo ${f.label}) usa o`);
        const recoded = await plataforma.put(`/api/${t.key}/${tid}`, { [f.lookup!.value]: fields(t).get(f.lookup!.value)!.pattern ? sample(fields(t).get(f.lookup!.value)!) : `${code}_x` });
        expect(recoded.status, f.name).toBe(409);
        expect(await rowExists(t, tid)).toBe(true);
        await sql(`delete from ${e.table} where id = ?`, [rid]);
        expect((await plataforma.del(`/api/${t.key}/${tid}`)).status, f.name).toBe(200);
      }
    });
  }

  it('a user without the register\'s keys is refused (403)', async () => {
    const id = e.key === 'empresa' ? own.empresaId : await make(e.key, own);
    const other = allKeys.find((k) => !k.startsWith(`${e.permission}.`) && !platformKeys.has(k))!;
    const login = `sem.chave.${e.key}`;
    await ts.createUser({ login, senha: 'sem-chave-senha-1', ambienteId: own.ambienteId, empresas: [own.empresaId], permissoes: [other] });
    const u = await ts.login(login, 'sem-chave-senha-1');
    expect(u.user.permissoes).toEqual([other]);
    const statuses = await Promise.all([
      u.get(`${apiOf(e)}`), u.get(`${apiOf(e)}/${id}`), u.get(`${apiOf(e)}/${id}/historico`), u.get(`${apiOf(e)}/export?format=csv`),
      u.post(`${apiOf(e)}`, {}), u.put(`${apiOf(e)}/${id}`, {}), u.del(`${apiOf(e)}/${id}`),
    ].map((p) => p.then((r) => r.status)));
    for (const f of e.fields.filter((x) => x.lookup)) expect((await u.get(`${apiOf(e)}/opcoes/${f.name}`)).status, f.name).toBe(403);
    // Read-only resources have no write routes at all (404).
    expect(statuses.slice(0, 4)).toEqual([403, 403, 403, 403]);
    for (const st of statuses.slice(4)) expect([403, ...(e.readOnlyResource ? [404] : [])]).toContain(st);
    expect(await rowExists(e, id)).toBe(true);
  });

  const platformOps = e.platform?.gated ?? [];
  if (platformOps.length) {
    it('platform operations are refused without the platform key, even with the entity\'s own keys', async () => {
      const id = e.key === 'empresa' ? own.empresaId : await make(e.key, own);
      const op = (key: string) => key.slice(e.permission.length + 1);
      const call = (api: Api, o: string) => {
        if (o === 'lista') return api.get(`${apiOf(e)}`);
        if (o === 'visualizar') return api.get(`${apiOf(e)}/${id}`);
        if (o === 'adicionar') return api.post(`${apiOf(e)}`, {});
        if (o === 'editar') return api.put(`${apiOf(e)}/${id}`, {});
        if (o === 'excluir') return api.del(`${apiOf(e)}/${id}`);
        return api.post(`${apiOf(e)}/${id}/${o}`);
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
      const list = await holder.get(`${apiOf(e)}?filter=${encodeURIComponent(JSON.stringify({ id: [id] }))}`);
      expect(list.status).toBe(200);
      expect((await list.json()).map((r: any) => r.id)).toEqual([id]);
      await ts.createUser({ login: `sem.${e.key}`, senha: 'sem-chave-senha-1', ambienteId: own.ambienteId, empresas: [own.empresaId], permissoes: ['tlm.fro.ativo.lista'] });
      const u = await ts.login(`sem.${e.key}`, 'sem-chave-senha-1');
      // The user holds exactly the one unrelated key.
      expect(u.user.permissoes).toEqual(['tlm.fro.ativo.lista']);
      expect((await u.get(`${apiOf(e)}`)).status).toBe(403);
      expect((await u.get(`${apiOf(e)}/${id}`)).status).toBe(403);
    });
    return;
  }

  // Company B of the SAME ambiente for every register; for ambiente-scoped registers also another ambiente.
  const others: [string, () => Tenant][] = [['another company of the same ambiente', () => otherEmpresa]];
  if (e.scope === 'ambiente') others.push(['another ambiente', () => otherAmbiente]);
  it.each(others)('rows of %s are invisible and untouchable', async (_what, tenantOf) => {
    const id = await make(e.key, tenantOf());
    const list = await gestorA.get(`${apiOf(e)}?range=[0,999]`);
    expect(list.status).toBe(200);
    expect((await list.json()).map((r: any) => r.id)).not.toContain(id);
    const many = await gestorA.get(`${apiOf(e)}?filter=${encodeURIComponent(JSON.stringify({ id: [id] }))}`);
    expect(await many.json()).toEqual([]);
    expect((await gestorA.get(`${apiOf(e)}/${id}`)).status).toBe(404);
    expect((await gestorA.get(`${apiOf(e)}/${id}/historico`)).status).toBe(404);
    // 404: the row is not found for the caller; 403 where the key itself is platform-gated (checked first).
    const expected = (key: string) => (gestorA.user.permissoes.includes(key) || !allKeys.includes(key) ? 404 : 403);
    expect(gated(`${e.permission}.editar`) || gated(`${e.permission}.visualizar`)).toBe(false);
    expect((await gestorA.put(`${apiOf(e)}/${id}`, {})).status).toBe(404);
    expect((await gestorA.del(`${apiOf(e)}/${id}`)).status).toBe(expected(`${e.permission}.excluir`));
    for (const a of e.actions) expect((await gestorA.post(`${apiOf(e)}/${id}/${a.name}`)).status, a.name).toBe(expected(a.permission));
    if (tenantOf() === otherAmbiente) {
      // Holding every key (platform included) does not cross ambientes.
      expect((await plataforma.get(`${apiOf(e)}/${id}`)).status).toBe(404);
      expect((await plataforma.put(`${apiOf(e)}/${id}`, {})).status).toBe(404);
      expect((await plataforma.del(`${apiOf(e)}/${id}`)).status).toBe(404);
      for (const a of e.actions) expect((await plataforma.post(`${apiOf(e)}/${id}/${a.name}`)).status, a.name).toBe(404);
    }
    const exp = await (await gestorA.get(`${apiOf(e)}/export?format=csv&filter=${encodeURIComponent(JSON.stringify({ id: [id] }))}`)).text();
    expect(exp.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(1);
    expect(await rowExists(e, id)).toBe(true);
  });
});
