// Billing through Superlógica over real HTTP against a local double of its API (node:http): the headers app_token /
// access_token, paging by path and query, the shapes read (charges, defaulters), the cache, refused credentials, a
// timeout, no configuration — and the pipeline: only platform administrators (adm.sis.plataforma) get anything.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let admin: Api, leitor: Api, gestor: Api, plataformaB: Api;
let double: http.Server;
let base: string;
const hits: { path: string; app?: string; access?: string }[] = [];
let delayMs = 0;

const CLIENTES = Array.from({ length: 7 }, (_, i) => ({
  id_sacado_sac: String(i + 1), st_nome_sac: `Transportes ${i + 1} Ltda`, st_nomeref_sac: `T${i + 1}`, st_cgc_sac: `00.000.000/000${i}-00`,
  st_email_sac: `financeiro${i + 1}@exemplo.com.br`, st_telefone_sac: '(41) 3333-0000', st_cidade_sac: 'Curitiba', st_estado_sac: 'pr', fl_status_sac: i === 6 ? '1' : '0',
}));
const COBRANCAS = [
  { id_recebimento_recb: '101', id_sacado_sac: '1', st_nome_sac: 'Transportes 1 Ltda', vl_total_recb: '1234.50', dt_vencimento_recb: '11/10/2026', dt_liquidacao_recb: '', fl_status_recb: '0', link_2via: 'https://boletos.exemplo/101' },
  { id_recebimento_recb: '102', id_sacado_sac: '2', st_nome_sac: 'Transportes 2 Ltda', vl_total_recb: 99.9, dt_vencimento_recb: '10/05/2026', dt_liquidacao_recb: '10/06/2026', fl_status_recb: '1', link_2via: '' },
];
const INADIMPLENCIA = [{ id_sacado_sac: '3', st_nome_sac: 'Transportes 3 Ltda', st_cgc_sac: '00.000.000/0002-00', recebimento: [
  { id_recebimento_recb: '201', vl_total_recb: '500.10', dt_vencimento_recb: '09/10/2026' },
  { id_recebimento_recb: '202', vl_total_recb: '250.05', dt_vencimento_recb: '08/10/2026' },
] }];

const env = (o: Record<string, string | undefined>) => { for (const [k, v] of Object.entries(o)) if (v === undefined) delete process.env[k]; else process.env[k] = v; };

beforeAll(async () => {
  double = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    hits.push({ path: u.pathname + u.search, app: req.headers.app_token as string, access: req.headers.access_token as string });
    setTimeout(() => {
      const send = (b: unknown, st = 200) => res.writeHead(st, { 'content-type': 'application/json' }).end(JSON.stringify(b));
      if (req.headers.app_token !== 'app-1' || req.headers.access_token !== 'acc-1') { send({ status: '401', msg: 'Token inválido' }); return; }
      const p = Number(u.searchParams.get('pagina')), n = Number(u.searchParams.get('itensPorPagina'));
      const slice = <T>(a: T[]) => a.slice((p - 1) * n, p * n);
      if (u.pathname === '/v2/financeiro/clientes') return send(slice(CLIENTES));
      if (u.pathname === '/v2/financeiro/clientes/adimplentes') return send(slice(CLIENTES.filter((c) => c.id_sacado_sac !== '3')));
      if (u.pathname === '/v2/financeiro/inadimplencia') return send(slice(INADIMPLENCIA));
      if (u.pathname === '/v2/financeiro/cobranca') {
        const st = u.searchParams.get('status');
        return send(slice(COBRANCAS.filter((c) => st === 'todos' || (st === 'pendentes' ? c.fl_status_recb === '0' : st === 'liquidadas' ? c.fl_status_recb === '1' : false))));
      }
      send({ status: '404', msg: 'não existe' }, 404);
    }, delayMs);
  });
  await new Promise<void>((r) => double.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(double.address() as AddressInfo).port}/v2/financeiro`;
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  const [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  // A company administrator with every key but the platform's.
  const keys = ts.model.permissions.map((p) => p.key).filter((k) => !k.startsWith('adm.sis.plataforma'));
  await ts.createUser({ login: 'slg.gestor', senha: 'slg-gestor-123', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: keys });
  gestor = await ts.login('slg.gestor', 'slg-gestor-123');
  await ts.createUser({ login: 'slg.plataforma.b', senha: 'slg-plat-b-123', ambienteId: admin.user.ambienteId, empresas: [B], permissoes: ['adm.sis.plataforma'] });
  plataformaB = await ts.login('slg.plataforma.b', 'slg-plat-b-123');
});
afterAll(async () => {
  env({ SUPERLOGICA_URL: undefined, SUPERLOGICA_APP_TOKEN: undefined, SUPERLOGICA_ACCESS_TOKEN: undefined, SUPERLOGICA_TIMEOUT_MS: undefined, SUPERLOGICA_CACHE_TTL_MS: undefined });
  await ts?.stop();
  await new Promise<void>((r) => double.close(() => r()));
});
beforeEach(() => {
  delayMs = 0;
  hits.length = 0;
  env({ SUPERLOGICA_URL: base, SUPERLOGICA_APP_TOKEN: 'app-1', SUPERLOGICA_ACCESS_TOKEN: 'acc-1', SUPERLOGICA_TIMEOUT_MS: '400', SUPERLOGICA_CACHE_TTL_MS: String(60_000 + Math.random()) });
});

describe('/api/wkd/adm/superlogica', () => {
  it('clients by page and items per page (path), with both tokens in the headers, then from the cache', async () => {
    const p1 = await json(await admin.get('/api/wkd/adm/superlogica/clientes/1/5'));
    expect(p1.status).toBe(200);
    expect(p1.payload.map((c: any) => c.id)).toEqual([1, 2, 3, 4, 5]);
    expect(p1.payload[0]).toEqual({ id: 1, nome: 'Transportes 1 Ltda', nomeFantasia: 'T1', documento: '00.000.000/0000-00', email: 'financeiro1@exemplo.com.br', telefone: '(41) 3333-0000', cidade: 'Curitiba', uf: 'PR', ativo: true });
    const p2 = await json(await admin.get('/api/wkd/adm/superlogica/clientes/2/5'));
    expect(p2.payload.map((c: any) => [c.id, c.ativo])).toEqual([[6, true], [7, false]]);
    await admin.get('/api/wkd/adm/superlogica/clientes/1/5');
    expect(hits).toEqual([
      { path: '/v2/financeiro/clientes?pagina=1&itensPorPagina=5', app: 'app-1', access: 'acc-1' },
      { path: '/v2/financeiro/clientes?pagina=2&itensPorPagina=5', app: 'app-1', access: 'acc-1' },
    ]);
    for (const [p, msg] of [['0/5', 'Valor inválido para Página: 0'], ['1/0', 'Valor inválido para Itens por página: 0'], ['1/201', 'Itens por página: de 1 a 200'], ['x/5', 'Valor inválido para Página: x']]) {
      const r = await admin.get(`/api/wkd/adm/superlogica/clientes/${p}`);
      expect([r.status, (await json(r)).msg]).toEqual([400, msg]);
    }
  });

  it('charges by situation, defaulters with their overdue sum, paid-up clients', async () => {
    expect((await json(await admin.get('/api/wkd/adm/superlogica/cobrancas'))).payload).toEqual([
      { id: 101, clienteId: 1, cliente: 'Transportes 1 Ltda', valor: 1234.5, vencimento: '2026-11-10', liquidacao: null, situacao: 'pendente', link: 'https://boletos.exemplo/101' },
    ]);
    expect((await json(await admin.get('/api/wkd/adm/superlogica/cobrancas?status=liquidadas'))).payload).toMatchObject([{ id: 102, valor: 99.9, vencimento: '2026-10-05', liquidacao: '2026-10-06', situacao: 'liquidada' }]);
    const bad = await admin.get('/api/wkd/adm/superlogica/cobrancas?status=abertas');
    expect([bad.status, (await json(bad)).msg]).toEqual([400, 'Situação inválida: use pendentes, liquidadas, canceladas, todos']);
    expect((await json(await admin.get('/api/wkd/adm/superlogica/inadimplentes'))).payload).toEqual([
      { clienteId: 3, cliente: 'Transportes 3 Ltda', documento: '00.000.000/0002-00', cobrancas: 2, valorDevido: 750.15, vencimentoMaisAntigo: '2026-08-10' },
    ]);
    const ad = await json(await admin.get('/api/wkd/adm/superlogica/adimplentes?pagina=1&itensPorPagina=50'));
    expect(ad.payload.map((c: any) => c.id)).toEqual([1, 2, 4, 5, 6, 7]);
    expect(hits.map((h) => h.path)).toContain('/v2/financeiro/cobranca?status=pendentes&pagina=1&itensPorPagina=50');
  });

  it('token: configured and accepted, refused, not configured; errors of the lists in pt-BR', async () => {
    expect((await json(await admin.get('/api/wkd/adm/superlogica/token'))).payload).toEqual({ configurado: true, valido: true, mensagem: 'Credenciais aceitas pela Superlógica' });
    env({ SUPERLOGICA_ACCESS_TOKEN: 'errado' });
    expect((await json(await admin.get('/api/wkd/adm/superlogica/token'))).payload).toEqual({ configurado: true, valido: false, mensagem: 'A Superlógica recusou as credenciais configuradas (app_token/access_token)' });
    const refused = await admin.get('/api/wkd/adm/superlogica/clientes/1/10');
    expect([refused.status, (await json(refused)).msg]).toEqual([502, 'A Superlógica recusou as credenciais configuradas (app_token/access_token)']);
    env({ SUPERLOGICA_ACCESS_TOKEN: 'acc-1' });
    delayMs = 2000;
    const slow = await admin.get('/api/wkd/adm/superlogica/inadimplentes');
    expect([slow.status, (await json(slow)).msg]).toEqual([502, 'A Superlógica não respondeu; tente de novo em instantes']);
    delayMs = 0;
    env({ SUPERLOGICA_APP_TOKEN: undefined });
    expect((await json(await admin.get('/api/wkd/adm/superlogica/token'))).payload).toMatchObject({ configurado: false, valido: false });
    const off = await admin.get('/api/wkd/adm/superlogica/cobrancas');
    expect([off.status, (await json(off)).msg]).toEqual([503, 'Integração com a Superlógica não configurada (SUPERLOGICA_APP_TOKEN e SUPERLOGICA_ACCESS_TOKEN)']);
    // the tokens are never in an answer
    const all = JSON.stringify(await json(await admin.get('/api/wkd/adm/superlogica/token')));
    expect(all).not.toContain('acc-1');
  });

  it('only platform administrators: the company administrator, the read-only role and no session are refused, nothing asked', async () => {
    const paths = ['/api/wkd/adm/superlogica/clientes/1/10', '/api/wkd/adm/superlogica/cobrancas', '/api/wkd/adm/superlogica/inadimplentes',
      '/api/wkd/adm/superlogica/adimplentes', '/api/wkd/adm/superlogica/token'];
    for (const p of paths) {
      expect((await ts.fetch(p)).status).toBe(401);
      for (const u of [gestor, leitor]) {
        const r = await u.get(p);
        expect([r.status, (await json(r)).msg]).toEqual([403, 'Você não tem permissão para fazer isso']);
      }
    }
    expect(hits).toEqual([]);
    // A platform administrator of the other company reads the same platform-wide billing.
    expect((await json(await plataformaB.get('/api/wkd/adm/superlogica/clientes/1/2'))).payload.map((c: any) => c.id)).toEqual([1, 2]);
  });

  it('the OpenAPI lists the calls under the platform key, only for its holders', async () => {
    const doc = await json(await admin.get('/api/openapi.json'));
    for (const p of ['/api/wkd/adm/superlogica/clientes/{pagina}/{itensPorPagina}', '/api/wkd/adm/superlogica/cobrancas', '/api/wkd/adm/superlogica/inadimplentes', '/api/wkd/adm/superlogica/adimplentes', '/api/wkd/adm/superlogica/token'])
      expect(doc.paths[p].get['x-permission']).toBe('adm.sis.plataforma');
    const mine = await json(await gestor.get('/api/openapi.json'));
    expect(Object.keys(mine.paths).filter((p) => p.includes('superlogica'))).toEqual([]);
  });
});
