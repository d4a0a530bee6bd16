// Every screen route of the generated route table, opened in the browser as the administrator: the title the
// metadata gives it (list, add, edit, view, record tab, alias, hub), its list, form, tabs or map rendered, and no
// console or page error. Routes with parameters are opened with real rows: the first row of the entity (or of the
// parent of a nested list), created through the API with sample values when the demo data has none.
// One page, client-side navigation (history push + popstate), so ~500 screens take a few minutes.
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EntityMeta, FieldMeta, Model } from '../../shared/model.ts';
import { isWritable } from '../../generator/emit/schemas.ts';
import { createSampler, satisfyCompare } from '../../server/test/sample.ts';
import modelJson from '../../runtime/src/generated/model.json' with { type: 'json' };
import { startCmsv6Double, type Cmsv6Double } from '../../modules/video/server/cmsv6-double';
import { daysFromEpoch, splitFile } from '../../protocol/tacografo/index.ts';
import { apiCall, goInApp, openSession, randomPlate, type AdminSession } from './browser';

const model = modelJson as unknown as Model;
const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const cmsv6Port = inject('cmsv6Port');

interface RouteMeta { path: string; name: string; view: string; entity?: string; hub?: string; alias?: number; parent?: string; tab?: string; sub?: string; screen?: string; level?: number }
// Public screens (metadata `public`, e.g. the public link's page) open outside the signed-in app: walked by their own
// tests (tests/e2e/link_publico.test.ts), not here.
const publicScreens = new Set(model.screens.filter((t) => t.public).map((t) => t.key));
const routes = (model as unknown as { routes: RouteMeta[] }).routes.filter((r) => !(r.screen && publicScreens.has(r.screen)));
const entities = new Map(model.entities.map((e) => [e.key, e]));
const tecnologia = model.tecnologias![0];
const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));

let s: AdminSession;
let empresaAtiva: number;
const sample = createSampler();

/** The API path of an entity's rows (route parameters filled, below a parent row for nested entities). */
function apiOf(e: EntityMeta, parentId?: string | number): string {
  if (e.parent) return `/api/${e.parent.api.replace(':parent', String(parentId))}`;
  const params = (e.params ?? []).map((p) => (p.values === 'tecnologias' ? tecnologia.id : p.values === 'modelos' ? tecnologia.modelos[0].id : 'x'));
  return `/api/${[e.key, ...params].join('/')}`;
}

const rows = new Map<string, Promise<Record<string, any>>>();
/** The first row of `key` the administrator sees, created with sample values (and rows for its required references)
 *  when there is none. */
function rowOf(key: string): Promise<Record<string, any>> {
  if (!rows.has(key)) rows.set(key, (async () => {
    const e = entities.get(key)!;
    if (key === 'empresa') return apiCall(s.ctx, baseUrl, `/api/empresa/${empresaAtiva}`);
    const parentId = e.parent ? (await rowOf(e.parent.entity))[e.parent.by ?? 'id'] : undefined;
    if (e.readOnlyResource) await produce(key);
    const list = await apiCall(s.ctx, baseUrl, `${apiOf(e, parentId)}?range=${q([0, 0])}`);
    if (list.length) return list[0];
    return apiCall(s.ctx, baseUrl, apiOf(e, parentId), await bodyFor(e));
  })());
  return rows.get(key)!;
}

// Read-only registers are filled by their own channels, not by the generic API: a slow-request report, an upload, a
// message from a tracker nobody registered. Each is produced once, whether or not the demo data has rows.
const produced = new Map<string, Promise<void>>();
/** Once per run: the producers of several registers (one tachograph transfer fills three) share it. */
const once = (name: string, f: () => Promise<void>) => { if (!produced.has(name)) produced.set(name, f()); return produced.get(name)!; };

/** A VDO camera (tecnologia vdo) in a new asset of the active company: the device of the tachograph transfer and of
 *  the video clip request. */
let camera: Promise<{ serial: string; ativoId: number }> | undefined;
function cameraVdo() {
  camera ??= (async () => {
    const serial = `VDOW${String(Date.now()).slice(-8)}`;
    await apiCall(s.ctx, baseUrl, '/api/equipamento', { serial, tecnologia: 'vdo', modelo: 'vdo_telemetria', ativado: true });
    const ativoId = (await apiCall(s.ctx, baseUrl, '/api/ativo', { descricao: 'Ônibus com câmera', placa: randomPlate() })).id;
    await apiCall(s.ctx, baseUrl, '/api/equipamento_ativo', { serial, ativoId, dataInicio: new Date(Date.now() - 3_600_000).toISOString() });
    return { serial, ativoId };
  })();
  return camera;
}
/** The CMSV6 server double (modules/video) on the port the e2e server's CMSV6_URL names, started for the clip request. */
let cmsv6: Cmsv6Double | undefined;

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
async function produce(key: string): Promise<void> {
  if (key === 'requisicao_lenta') {
    await apiCall(s.ctx, baseUrl, '/api/request_time', { duracao: 12000, url: '/api/ativo?range=[0,24]', method: 'get', parametros: '{}', idEmpresa: empresaAtiva });
  } else if (key === 'arquivo') {
    const token = decodeURIComponent((await s.ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'telas.png');
    const r = await fetch(`${baseUrl}/api/upload/single/${empresaAtiva}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    if (!r.ok) throw new Error(`upload: ${r.status} ${(await r.json()).msg}`);
  } else if (key === 'tarefa') {
    // a background job (server/jobs): a recompute of the last hour's trips, started through the core's route
    await apiCall(s.ctx, baseUrl, '/api/tarefa/inicia/recalculo_viagens', { inicio: new Date(Date.now() - 3_600_000).toISOString(), fim: new Date().toISOString() });
  } else if (key === 'relatorio_gerado') {
    // a report generated in the background (spool job), listed once the job stored it
    const fim = new Date(), inicio = new Date(fim.getTime() - 86_400_000);
    await apiCall(s.ctx, baseUrl, '/api/tarefa/inicia/relatorio_gera', { familia: 'viagem', tipo: 'detalhado', params: { periodo: { inicio: inicio.toISOString(), fim: fim.toISOString() } }, formato: 'csv' });
    await expect.poll(async () => (await apiCall(s.ctx, baseUrl, `/api/relatorio_gerado?range=${q([0, 0])}`)).length,
      { timeout: 30_000, interval: 200, message: 'o relatório gerado não apareceu' }).toBeGreaterThan(0);
  } else if (key === 'tratamento_alarme') {
    // an operator took an alarm: a panic (GTSOS) two days ago from a device of the company (today's counters and
    // the live map keep their values), then POST /api/alarmes/assumir
    const [eq] = await apiCall(s.ctx, baseUrl, `/api/equipamento?range=${q([0, 0])}&filter=${q({ tecnologia: 'queclink' })}`);
    const t = new Date(Date.now() - 2 * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
    const frame = `+RESP:GTSOS,740904,${eq.serial},GV350CEU,0,0,1,1,0.0,0,70.0,-46.633308,-23.550520,${t},0724,0005,18d8,6141,00,,${t},11F0$`;
    await new Promise<void>((resolve, reject) => {
      const sock = net.connect(gatewayPort, '127.0.0.1', () => sock.end(frame, () => resolve()));
      sock.on('error', reject);
    });
    let id = '';
    await expect.poll(async () => { id = (await apiCall(s.ctx, baseUrl, `/api/alarmes?filter=${q({ q: eq.serial })}`))[0]?.id ?? ''; return id; },
      { timeout: 30_000, interval: 200, message: `o alarme de ${eq.serial} não chegou` }).not.toBe('');
    await apiCall(s.ctx, baseUrl, '/api/alarmes/assumir', { id });
  } else if (key === 'bug') {
    // the browser's error report (modules/bugtrack), as the client's error handler sends it
    await apiCall(s.ctx, baseUrl, '/api/bugtrack/report', { tipo: 'erro', mensagem: 'telas: erro de exemplo', stack: 'Error: telas\n    at walk (telas.test.ts:1:1)', rota: '/inicio' });
  } else if (key === 'atalho') {
    // the user's shortcut to a screen (modules/inicio)
    const { payload: atuais } = await apiCall(s.ctx, baseUrl, '/api/atalhos/lista');
    if (!atuais.length) await apiCall(s.ctx, baseUrl, '/api/atalhos/adiciona', { titulo: 'Ativos', rota: '/tlm/fro/ativo' });
  } else if (key === 'inscricao_push') {
    // a browser subscribed to cloud messages (modules/mensagens): a push service endpoint of an allowed host (the
    // subscription is only stored; nothing is sent to it) and the keys PushManager.subscribe makes
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    await apiCall(s.ctx, baseUrl, '/api/cloudMessage/inscricao', {
      endpoint: `https://fcm.googleapis.com/fcm/send/telas-${Date.now()}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
    });
  } else if (key === 'arquivo_tacografo' || key === 'transferencia_tacografo' || key === 'log_tacografo') {
    // one tachograph transfer (modules/tacografo) fills the three: its frames, built with the protocol's codec, posted
    // the way the VDO bridge posts them
    await once('tacografo', async () => {
      const { serial } = await cameraVdo();
      const transferId = Number(String(Date.now()).slice(-6));
      const file = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7 + 3) & 0xff));
      const quadros = splitFile(file, { transferId, fileType: '7d', referenceDate: daysFromEpoch(new Date()), blockSize: 1000 }).map((b) => b.toString('hex'));
      const r = await apiCall(s.ctx, baseUrl, '/api/tacografo/quadros', { serial, quadros });
      expect(r.payload.transferencias[0].situacao).toBe('concluida');
    });
  } else if (key === 'solicitacao_video') {
    // a clip asked of the camera (modules/video) through the CMSV6 double
    const { serial, ativoId } = await cameraVdo();
    cmsv6 = await startCmsv6Double({ port: cmsv6Port, account: 'rastro', password: 'senha-cmsv6', dispositivos: [{ idno: serial, placa: 'TEL0A00', canais: 4, online: true }] });
    const fim = new Date(), inicio = new Date(fim.getTime() - 30_000);
    await apiCall(s.ctx, baseUrl, '/api/video/solicitacoes', { ativoId, canal: 1, tipo: 'clipe', inicio: inicio.toISOString(), fim: fim.toISOString() });
  } else if (key === 'equipamento_pendente') {
    const imei = `86${String(Date.now()).slice(-13)}`;
    const frame = `+RESP:GTFRI,740904,${imei},GV350CEU,,10,1,1,89.5,169,672.9,-70.292914,-23.949947,20251016184033,0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,20251016184035,AA3C$`;
    await new Promise<void>((resolve, reject) => {
      const sock = net.connect(gatewayPort, '127.0.0.1', () => sock.end(frame, () => resolve()));
      sock.on('error', reject);
    });
    // the gateway writes pending devices in batches: wait until the row is listed
    await expect.poll(async () => (await apiCall(s.ctx, baseUrl, `/api/equipamento_pendente?range=${q([0, 0])}`)).length,
      { timeout: 30_000, interval: 200, message: `o gateway não registrou o equipamento pendente ${imei}` }).toBeGreaterThan(0);
  }
}

async function bodyFor(e: EntityMeta): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  const companiesHead = e.companies?.split('.')[0];
  for (const f of e.fields.filter(isWritable) as FieldMeta[]) {
    if (f.name === companiesHead && f.reference === 'empresa') { body[f.name] = f.type === 'referenceList' ? [empresaAtiva] : empresaAtiva; continue; }
    if (e.parent && f.name === e.parent.field) continue;
    if (f.type === 'reference' || f.type === 'referenceList') {
      if (f.required) { const id = (await referenced(e, f)).id; body[f.name] = f.type === 'reference' ? id : [id]; }
      continue;
    }
    if (!f.required && f.default === undefined) continue;
    body[f.name] = f.default !== undefined && f.default !== null ? f.default : f.example !== undefined ? f.example : sample(f);
  }
  satisfyCompare(e.compare, body);
  return body;
}

/** A row `f` may reference: the first one, or for a narrowed reference (metadata narrow) the first one carrying the
 *  values the route parameters give (an equipment of the list's technology and model). */
async function referenced(e: EntityMeta, f: FieldMeta): Promise<Record<string, any>> {
  if (!f.narrow) return rowOf(f.reference!);
  const bound = Object.fromEntries((e.params ?? []).map((p) => [p.field, p.values === 'tecnologias' ? tecnologia.id : tecnologia.modelos[0].id]));
  const filter = Object.fromEntries(Object.entries(f.narrow).map(([theirs, mine]) => [theirs, bound[mine]]));
  const target = entities.get(f.reference!)!;
  const [row] = await apiCall(s.ctx, baseUrl, `${apiOf(target)}?range=${q([0, 0])}&filter=${q(filter)}`);
  if (row) return row;
  // none yet: created below the same route parameters (a register with params takes them from its path)
  if (!target.params?.length) throw new Error(`nenhum registro de ${f.reference} com ${JSON.stringify(filter)} nos dados de demonstração`);
  return apiCall(s.ctx, baseUrl, apiOf(target), await bodyFor(target));
}

/** An ativo with an equipment linked (record tab equipamento/:serial/...) and that equipment's serial. */
let ativoComEquipamento: Promise<{ id: number; serial: string }> | undefined;
function equipamentoDeAtivo() {
  ativoComEquipamento ??= (async () => {
    for (const a of await apiCall(s.ctx, baseUrl, `/api/ativo?range=${q([0, 49])}`)) {
      const full = await apiCall(s.ctx, baseUrl, `/api/ativo/${a.id}`);
      const first = String(full.equipamentosList ?? '').split(',')[0].trim();
      if (first) return { id: a.id, serial: first };
    }
    throw new Error('nenhum ativo com equipamento nos dados de demonstração');
  })();
  return ativoComEquipamento;
}

/** The route with its parameters filled with real values. */
async function fill(r: RouteMeta): Promise<string> {
  const e = r.entity ? entities.get(r.entity) : undefined;
  let p = r.path.replace(':tecnology', tecnologia.id).replace(':model', tecnologia.modelos[0].id).replace(':companyId', String(empresaAtiva));
  if (p.includes(':serial') && p.includes(':id') && e?.key === 'ativo') {
    const { id, serial } = await equipamentoDeAtivo();
    return p.replace(':id', String(id)).replace(':serial', encodeURIComponent(serial));
  }
  if (p.includes(':serial')) {
    const by = e?.record?.by && e.record.by !== 'id' ? e : entities.get('equipamento')!;
    p = p.replace(':serial', encodeURIComponent(String((await rowOf(by.key))[by.record?.by ?? 'serial'])));
  }
  // a provider screen's route parameter naming a row (provider param `row: { entity }`): that register's first row
  const scr = r.screen && !e ? (model as unknown as { screens: ScreenRoute[] }).screens.find((x) => x.key === r.screen) : undefined;
  const prov = scr?.list ? (model as unknown as { providers: ProviderRoute[] }).providers.find((x) => x.key === scr.list!.provider) : undefined;
  for (const [name, param] of Object.entries(scr?.list?.params ?? {})) {
    const row = prov?.params?.find((x) => x.name === param)?.row;
    if (row && p.includes(`:${name}`)) p = p.replace(`:${name}`, String((await rowOf(row.entity))[row.by ?? 'id']));
  }
  if (p.includes(':id') && e) p = p.replace(':id', String((await rowOf(e.parent && r.parent ? e.parent.entity : e.key)).id));
  // edit and view routes without an id in the path name the row by ?id=
  else if (e && (r.view === 'edit' || r.view === 'show')) p += `?id=${(await rowOf(e.key)).id}`;
  return p;
}

/** The titles the metadata gives the route's screen (their start: nested lists and record tabs add the row's name);
 *  a record tab shows its label, or the plural of the register it lists. Empty: any non-empty title. */
function titlesOf(r: RouteMeta): string[] {
  if (r.hub) return [model.hubs!.find((h) => h.key === r.hub)!.label];
  // a module's screen: the label its metadata gives it (in its h1 or the app bar's title)
  if (r.screen && !r.entity) return [model.screens.find((t) => t.key === r.screen)!.label];
  const e = r.entity ? entities.get(r.entity) : undefined;
  if (!e) return [];
  const alias = r.alias !== undefined ? (e.aliases?.[r.alias] as { label?: string } | undefined) : undefined;
  if (alias?.label) return [alias.label];
  if (r.view === 'record') {
    // without a tab: its first tab's titles (it lands there)
    const name = r.tab ?? firstTab(e)?.name;
    if (!name) return [];
    let tab = e.record!.tabs.find((t) => t.name === name)!;
    if (r.sub) tab = entities.get(tab.entity!)!.record!.tabs.find((t) => t.name === r.sub)!;
    const listed = tab.entity ? entities.get(tab.entity)?.label.plural : undefined;
    return [tab.label, ...(listed ? [listed] : [])];
  }
  const t = { list: e.label.plural, create: `Adicionar ${e.label.singular}`, edit: `Editar ${e.label.singular}`, show: `Visualizar ${e.label.singular}` }[r.view];
  return t ? [t] : [];
}

/** The tab a record route without one opens (RecordPage's toIndex: the first tab that is not a route or a group). */
function firstTab(e: EntityMeta) {
  return e.record?.tabs.find((t) => t.kind !== 'route' && t.kind !== 'group');
}
/** Where the screen ends up: a record route without a tab replaces itself by its first tab's route once the row is
 *  loaded; the next screen may only be opened after that, or the late redirect would replace it. */
function landsOn(r: RouteMeta, path: string): string {
  const e = r.entity ? entities.get(r.entity) : undefined;
  const first = r.view === 'record' && !r.tab && e ? firstTab(e) : undefined;
  if (first) return `${path.split('?')[0]}/${first.name}`;
  // a provider screen with tabs, every parameter given and no tab yet, replaces itself by its first tab (ProviderScreen)
  const screen = r.screen ? (model as unknown as { screens: ScreenRoute[] }).screens.find((x) => x.key === r.screen) : undefined;
  const tabs = screen?.list?.tabs;
  const given = (r.path.match(/:[A-Za-z]+/g) ?? []).length;
  const onTab = tabs?.options.some((o) => r.path.endsWith(`/${o.path ?? o.value}`));
  if (tabs && !onTab && given === Object.keys(screen!.list!.params ?? {}).length) return `${path.split('?')[0]}/${tabs.options[0]!.path ?? tabs.options[0]!.value}`;
  return path.split('?')[0];
}
interface ScreenRoute { key: string; route: string; list?: { provider?: string; params?: Record<string, string>; tabs?: { options: { value: string; path?: string }[] } } }
interface ProviderRoute { key: string; params?: { name: string; row?: { entity: string; by?: string } }[] }

interface Failure { path: string; reason: string }
const failures: Failure[] = [];
const timings: string[] = [];
const slow: string[] = [];
/** API requests sent and not yet answered, with when they were sent (a set: nothing can drift). */
const live = new Map<object, number>();
const openCalls = () => { const now = Date.now(); let n = 0; for (const t of live.values()) if (now - t < 3_000) n++; return n; };
/** How long a screen may take to show its title and content, and then its API calls to settle (a loaded machine). */
const SCREEN_WAIT_MS = 20_000;
const QUIET_MAX_MS = 8_000;
/** No API call open for this long: the screen's calls (and the ones their answers start) are done. */
const QUIET_MS = 120;
const tick = () => new Promise((r) => setTimeout(r, 20));

/** Opens `path` inside the running app and waits for its title and content, then for its requests to settle. */
async function visit(path: string, titles: string[], lands: string): Promise<string | undefined> {
  const page = s.page;
  const before = s.errors.length;
  await goInApp(page, path);
  try {
    await page.waitForFunction(([t, at]) => {
      if (decodeURI(window.location.pathname) !== decodeURI(at)) return false;
      // the screen's title in a heading of its own or in the app bar (react-admin's <Title>); the previous screen's,
      // still shown while this one's code loads, does not count
      const shown = [...document.querySelectorAll('h1, #react-admin-title')].map((h) => (h.textContent ?? '').trim()).filter(Boolean);
      if (!shown.length || (t.length && !shown.some((h) => t.some((x) => h.startsWith(x))))) return false;
      // still loading (a determinate bar — a job's progress in the corner panel or a list — shows a value, not a wait)
      if (document.querySelector('.MuiCircularProgress-indeterminate, .MuiSkeleton-root, .MuiLinearProgress-indeterminate, .MuiLinearProgress-query')) return false;
      const main = document.querySelector('main') ?? document.body;
      return !!main.querySelector('table thead, form, input, [role="tab"], .leaflet-container, [role="list"], a[href], button')
        || /Nenhum item foi encontrado/.test(main.textContent ?? '');
    }, [titles, lands] as const, { timeout: SCREEN_WAIT_MS, polling: 50 });
  } catch {
    const h1 = await page.locator('h1, #react-admin-title').allInnerTexts().catch(() => []);
    const at = await page.evaluate(() => window.location.pathname).catch(() => '?');
    return `título esperado ${JSON.stringify(titles)} em ${lands}, na tela: ${JSON.stringify(h1)} em ${at}`;
  }
  // the screen's API calls answered (errors of failed calls arrive with them); a call open for more than 3 s (a
  // long poll) does not hold the next screen
  const until = Date.now() + QUIET_MAX_MS;
  let quietSince = openCalls() === 0 ? Date.now() : 0;
  while (Date.now() < until && !(quietSince && Date.now() - quietSince >= QUIET_MS)) {
    await tick();
    if (openCalls() > 0) quietSince = 0;
    else quietSince ||= Date.now();
  }
  const text = await page.locator('main').innerText().catch(() => '');
  if (/Página não encontrada|Something went wrong|Algo deu errado/.test(text)) return `tela de erro: ${text.slice(0, 200)}`;
  if (s.errors.length > before) return s.errors.slice(before).join(' | ');
  return undefined;
}

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  s.page.on('request', (r) => { if (r.url().includes('/api/')) live.set(r, Date.now()); });
  s.page.on('requestfinished', (r) => live.delete(r));
  s.page.on('requestfailed', (r) => live.delete(r));
  const sessao = await apiCall(s.ctx, baseUrl, '/api/auth/get_session');
  empresaAtiva = (sessao.user ?? sessao.payload?.user).empresaAtiva;
});
afterAll(async () => {
  if (timings.length) console.log(`telas por área:\n${timings.join('\n')}\nmais de 2 s:\n${slow.join('\n')}`);
  await s?.close();
  await cmsv6?.stop();
});

// Grouped by area (first segment) to report the time each takes, then cut into chunks of at most CHUNK screens: one
// test per chunk, each with a budget it keeps with room to spare on a loaded machine (a screen takes ~1 s; the
// budget allows a slow screen's full wait for each one, SCREEN_WAIT_MS + QUIET_MAX_MS). One failure list per chunk
// naming the routes.
const CHUNK = 15;
const CHUNK_BUDGET_MS = 240_000;
const groups = new Map<string, RouteMeta[]>();
for (const r of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
  const area = r.path.split('/')[1] || '/';
  groups.set(area, [...(groups.get(area) ?? []), r]);
}
const areaTime = new Map<string, number>();

describe('every screen route opens as the administrator', () => {
  it('the route table is the generated one (hundreds of screens, every area)', () => {
    expect(routes.length).toBeGreaterThan(450);
    expect([...groups.keys()].sort()).toEqual(expect.arrayContaining(['adm', 'cfg', 'esp', 'rel', 'sistema', 'tlm']));
  });
  for (const [area, list] of groups) {
    for (let from = 0; from < list.length; from += CHUNK) {
      const chunk = list.slice(from, from + CHUNK);
      const last = from + chunk.length >= list.length;
      it(`/${area}: telas ${from + 1}–${from + chunk.length} de ${list.length}`, async () => {
        const t0 = Date.now();
        const mine: Failure[] = [];
        for (const r of chunk) {
          let path = r.path;
          try {
            path = await fill(r);
          } catch (e) {
            mine.push({ path: r.path, reason: `dados: ${(e as Error).message}` });
            continue;
          }
          const t1 = Date.now();
          const reason = await visit(path, titlesOf(r), landsOn(r, path));
          if (reason) mine.push({ path, reason });
          if (Date.now() - t1 > 2000) slow.push(`    ${path}: ${((Date.now() - t1) / 1000).toFixed(1)} s`);
        }
        areaTime.set(area, (areaTime.get(area) ?? 0) + Date.now() - t0);
        if (last) timings.push(`  /${area}: ${list.length} telas em ${(areaTime.get(area)! / 1000).toFixed(1)} s`);
        failures.push(...mine);
        expect(mine.map((f) => `${f.path}: ${f.reason}`)).toEqual([]);
      }, CHUNK_BUDGET_MS);
    }
  }
});
