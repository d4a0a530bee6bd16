// The utilities over real HTTP against local doubles of the providers (node:http): CEP (ViaCEP contract, cache,
// timeout → offline table, provider off), valor por extenso, consulta de placa (both formats, token, cache, errors),
// and the pipeline: no session 401, no key 403, the read-only role without the plate key, another company's user.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let admin: Api, leitor: Api, semChave: Api, outraEmpresa: Api;
let double: http.Server;
let base: string;
const hits: { path: string; auth?: string }[] = [];
let delayMs = 0;

const VIACEP: Record<string, object> = {
  '01001000': { cep: '01001-000', logradouro: 'Praça da Sé', complemento: 'lado ímpar', unidade: '', bairro: 'Sé', localidade: 'São Paulo', uf: 'SP', estado: 'São Paulo', regiao: 'Sudeste', ibge: '3550308', gia: '1004', ddd: '11', siafi: '7107' },
};
const PLACAS: Record<string, object> = {
  ABC1D23: { MARCA: 'VW', MODELO: 'GOL 1.0', ano: '2020', anoModelo: '2021', cor: 'Branca', municipio: 'Curitiba', uf: 'pr', situacao: 'Sem restrição', chassi: '*****1234' },
  ABC1234: { marca: 'FIAT', modelo: 'UNO MILLE', ano: 2009, anoModelo: 2010, cor: 'Prata', municipio: 'Campinas', uf: 'SP', situacao: 'Roubo/Furto' },
};

const env = (o: Record<string, string | undefined>) => { for (const [k, v] of Object.entries(o)) if (v === undefined) delete process.env[k]; else process.env[k] = v; };

beforeAll(async () => {
  double = http.createServer((req, res) => {
    hits.push({ path: req.url!, auth: req.headers.authorization });
    setTimeout(() => {
      let m = /^\/ws\/(\d{8})\/json\/$/.exec(req.url!);
      if (m) { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(VIACEP[m[1]] ?? { erro: 'true' })); return; }
      m = /^\/consulta\/([A-Z0-9]+)\/tok-123$/.exec(req.url!);
      if (m && req.headers.authorization === 'Bearer tok-123') {
        const v = PLACAS[m[1]];
        res.writeHead(v ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(v ?? { erro: 'não encontrada' }));
        return;
      }
      res.writeHead(500).end('falha');
    }, delayMs);
  });
  await new Promise<void>((r) => double.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(double.address() as AddressInfo).port}`;
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  const [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  await ts.createUser({ login: 'util.sem.chave', senha: 'util-sem-chave-1', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
  semChave = await ts.login('util.sem.chave', 'util-sem-chave-1');
  await ts.createUser({ login: 'util.outra', senha: 'util-outra-123', ambienteId: admin.user.ambienteId, empresas: [B], permissoes: ['adm.sis.integracao.utilitarios', 'adm.sis.integracao.utilitarios.placas'] });
  outraEmpresa = await ts.login('util.outra', 'util-outra-123');
});
afterAll(async () => {
  env({ CEP_URL: undefined, CEP_TIMEOUT_MS: undefined, PLACAS_URL: undefined, PLACAS_TOKEN: undefined, PLACAS_TIMEOUT_MS: undefined });
  await ts?.stop();
  await new Promise<void>((r) => double.close(() => r()));
});
beforeEach(() => {
  delayMs = 0;
  hits.length = 0;
  env({ CEP_URL: `${base}/ws/{cep}/json/`, CEP_TIMEOUT_MS: '400', PLACAS_URL: `${base}/consulta/{placa}/{token}`, PLACAS_TOKEN: 'tok-123', PLACAS_TIMEOUT_MS: '400' });
});

describe('GET /api/util/cep/{cep}', () => {
  it("answers the provider's address once, then from the cache", async () => {
    const a = await json(await admin.get('/api/util/cep/01001-000'));
    expect(a).toEqual({ status: 200, msg: 'OK', errorMsg: null, payload: {
      cep: '01001-000', logradouro: 'Praça da Sé', complemento: 'lado ímpar', bairro: 'Sé', localidade: 'São Paulo', uf: 'SP', estado: 'São Paulo', ibge: '3550308', ddd: '11', fonte: 'provedor',
    } });
    expect((await json(await leitor.get('/api/util/cep/01001000'))).payload.logradouro).toBe('Praça da Sé');
    expect(hits.map((h) => h.path)).toEqual(['/ws/01001000/json/']);
  });

  it('a code the provider does not know is 404; a malformed one 400, nothing asked', async () => {
    const r = await admin.get('/api/util/cep/99999-998');
    expect(r.status).toBe(404);
    expect((await json(r)).msg).toBe('CEP não encontrado');
    for (const bad of ['abc', '0100100', '01001-0000', '01001_000']) {
      const b = await admin.get(`/api/util/cep/${bad}`);
      expect(b.status).toBe(400);
      expect((await json(b)).msg).toBe('CEP inválido: informe 8 dígitos (ex.: 01001-000)');
    }
    expect(hits.length).toBe(1);
  });

  it('a slow provider times out into the offline table (UF, and the capital in its range); off = the table at once', async () => {
    delayMs = 2000;
    const t0 = Date.now();
    const a = await json(await admin.get('/api/util/cep/80010-000'));
    expect(Date.now() - t0).toBeLessThan(1800);
    expect(a.payload).toEqual({ cep: '80010-000', logradouro: '', complemento: '', bairro: '', localidade: 'Curitiba', uf: 'PR', estado: 'Paraná', ibge: '4106902', ddd: '41', fonte: 'tabela' });
    env({ CEP_URL: 'off' });
    delayMs = 0;
    hits.length = 0;
    expect((await json(await admin.get('/api/util/cep/13010-000'))).payload).toMatchObject({ uf: 'SP', localidade: '', fonte: 'tabela' });
    expect((await json(await admin.get('/api/util/cep/70040-010'))).payload).toMatchObject({ uf: 'DF', localidade: 'Brasília', fonte: 'tabela' });
    const none = await admin.get('/api/util/cep/00100-000');
    expect(none.status).toBe(404);
    expect(hits).toEqual([]);
  });

  it('a provider error falls back to the table too', async () => {
    env({ CEP_URL: `${base}/quebrado/{cep}` });
    expect((await json(await admin.get('/api/util/cep/30110-000'))).payload).toMatchObject({ uf: 'MG', localidade: 'Belo Horizonte', fonte: 'tabela' });
  });
});

describe('GET /api/util/extenso/{valor}', () => {
  it('writes the amount; invalid or negative values are 400 in pt-BR', async () => {
    expect(await json(await admin.get('/api/util/extenso/1234.50'))).toEqual({ status: 200, msg: 'OK', errorMsg: null, payload: { valor: 1234.5, extenso: 'mil duzentos e trinta e quatro reais e cinquenta centavos' } });
    expect((await json(await leitor.get('/api/util/extenso/1000000'))).payload.extenso).toBe('um milhão de reais');
    expect((await json(await admin.get('/api/util/extenso/0,07'))).payload.extenso).toBe('sete centavos');
    for (const bad of ['-1', 'abc', '1.234', '1e5']) {
      const r = await admin.get(`/api/util/extenso/${bad}`);
      expect(r.status).toBe(400);
      expect((await json(r)).msg).toBe('Valor inválido: informe um número não negativo com até duas casas decimais (ex.: 1234.50), até 999 trilhões');
    }
  });
});

describe('GET /api/wkd/adm/api_placas/consulta/{placa}', () => {
  it('answers both plate formats with the token, then from the cache', async () => {
    expect(await json(await admin.get('/api/wkd/adm/api_placas/consulta/abc1d23'))).toEqual({ status: 200, msg: 'OK', errorMsg: null, payload: {
      placa: 'ABC1D23', formato: 'mercosul', marca: 'VW', modelo: 'GOL 1.0', ano: '2020', anoModelo: '2021', cor: 'Branca', municipio: 'Curitiba', uf: 'PR', situacao: 'Sem restrição', chassi: '*****1234',
    } });
    expect((await json(await admin.get('/api/wkd/adm/api_placas/consulta/ABC-1234'))).payload).toMatchObject({ placa: 'ABC1234', formato: 'antigo', marca: 'FIAT', ano: '2009', situacao: 'Roubo/Furto' });
    await admin.get('/api/wkd/adm/api_placas/consulta/ABC1D23');
    expect(hits).toEqual([{ path: '/consulta/ABC1D23/tok-123', auth: 'Bearer tok-123' }, { path: '/consulta/ABC1234/tok-123', auth: 'Bearer tok-123' }]);
  });

  it('refuses malformed plates (400), answers 404 for unknown ones, 502 on timeout, 503 without a provider', async () => {
    for (const bad of ['AB12345', 'ABCD123', 'ABC12D3', '1234ABC', 'ABC1D2']) {
      const r = await admin.get(`/api/wkd/adm/api_placas/consulta/${bad}`);
      expect(r.status).toBe(400);
      expect((await json(r)).msg).toBe('Placa inválida: use o formato ABC1234 ou ABC1D23 (Mercosul)');
    }
    const nf = await admin.get('/api/wkd/adm/api_placas/consulta/XYZ9Z99');
    expect([nf.status, (await json(nf)).msg]).toEqual([404, 'Placa não encontrada']);
    delayMs = 2000;
    const slow = await admin.get('/api/wkd/adm/api_placas/consulta/QWE1R23');
    expect([slow.status, (await json(slow)).msg]).toEqual([502, 'O serviço de consulta de placas não respondeu; tente de novo em instantes']);
    env({ PLACAS_URL: undefined });
    const off = await admin.get('/api/wkd/adm/api_placas/consulta/QWE1R24');
    expect([off.status, (await json(off)).msg]).toEqual([503, 'Consulta de placas não configurada (PLACAS_URL)']);
  });
});

describe('the pipeline', () => {
  const paths = ['/api/util/cep/01001-000', '/api/util/extenso/10', '/api/wkd/adm/api_placas/consulta/ABC1D23'];
  it('no session: 401; no key: 403; the read-only role reads CEP and extenso but not plates', async () => {
    for (const p of paths) {
      expect((await ts.fetch(p)).status).toBe(401);
      const r = await semChave.get(p);
      expect(r.status).toBe(403);
      expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    }
    expect((await leitor.get(paths[0])).status).toBe(200);
    expect((await leitor.get(paths[1])).status).toBe(200);
    expect((await leitor.get(paths[2])).status).toBe(403);
    expect(hits.filter((h) => h.path.startsWith('/consulta')).length).toBeLessThanOrEqual(1);
  });

  it("another company's user with the keys gets the same public data (nothing of a company is involved)", async () => {
    expect((await json(await outraEmpresa.get(paths[1]))).payload.extenso).toBe('dez reais');
    expect((await json(await outraEmpresa.get('/api/wkd/adm/api_placas/consulta/ABC1234'))).payload.marca).toBe('FIAT');
  });

  it('the OpenAPI lists the calls with their keys, for those who hold them', async () => {
    const doc = await json(await admin.get('/api/openapi.json'));
    expect(doc.paths['/api/util/cep/{cep}'].get['x-permission']).toBe('adm.sis.integracao.utilitarios');
    expect(doc.paths['/api/util/extenso/{valor}'].get['x-permission']).toBe('adm.sis.integracao.utilitarios');
    expect(doc.paths['/api/wkd/adm/api_placas/consulta/{placa}'].get['x-permission']).toBe('adm.sis.integracao.utilitarios.placas');
    const mine = await json(await leitor.get('/api/openapi.json'));
    expect(mine.paths['/api/util/cep/{cep}']).toBeDefined();
    expect(mine.paths['/api/wkd/adm/api_placas/consulta/{placa}']).toBeUndefined();
  });
});
