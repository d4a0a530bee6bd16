// Uploads and slow-request reports over real HTTP: magic bytes, size limit, path traversal, company boundary
// (companies A and B of the same ambiente), PNG + 500 px thumbnail, all-or-nothing, local disk and an S3 store.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { localStorage, s3Storage } from '../uploads/storage.ts';
import { MAX_FILE_BYTES, MSG_FORMAT, MSG_SIZE } from './upload.ts';

let ts: TestServer;
let admin: Api, leitor: Api, otherB: Api;
let A: number, B: number;
let uploadDir: string;

const png = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
const jpeg = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 0, g: 90, b: 200 } } }).jpeg().toBuffer();
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A zip of exactly `size` bytes (local file header, then padding): file-type reads it as application/zip. */
const zip = (size: number) => { const b = Buffer.alloc(size, 0x41); Buffer.from('504b0304140000000000', 'hex').copy(b); return b; };

function form(files: { body: Buffer; name: string; type?: string }[], field = 'file'): FormData {
  const f = new FormData();
  for (const x of files) f.append(field, new Blob([new Uint8Array(x.body)], { type: x.type ?? 'application/octet-stream' }), x.name);
  return f;
}
const upload = (api: Api, company: number, files: { body: Buffer; name: string; type?: string }[], kind = 'single') =>
  ts.fetch(`/api/upload/${kind}/${company}`, { method: 'POST', headers: api.headers(), body: form(files) });
const del = (api: Api, filename: string, company = api.empresaAtiva) => api.post('/api/upload/delete', { filename, company });
const get = (api: Api, url: string) => ts.fetch(url, { headers: api.headers() });
const count = async () => Number((await ts.em().getConnection().execute('select count(*)::int as n from arquivo'))[0].n);
/** Every file under the upload folder (relative paths). */
const stored = (): string[] => fs.existsSync(uploadDir) ? fs.readdirSync(uploadDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.relative(uploadDir, path.join(d.parentPath, d.name))).sort() : [];

beforeAll(async () => {
  uploadDir = path.resolve(import.meta.dirname, '../test/.tmp', `up-${crypto.randomBytes(4).toString('hex')}`);
  ts = await startTestServer({ storage: localStorage(uploadDir) });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  const id = await ts.createUser({ login: 'u.empresa.b', senha: 'senha-teste-123', ambienteId: admin.user.ambienteId, empresas: [B],
    permissoes: ['adm.sis.arquivo.envia', 'adm.sis.arquivo.exclui', 'adm.sis.arquivo.lista', 'adm.sis.requisicao_lenta.lista'] });
  expect(id).toBeGreaterThan(0);
  otherB = await ts.login('u.empresa.b', 'senha-teste-123');
  expect(otherB.empresaAtiva).toBe(B);
});
afterAll(async () => { await ts?.stop(); fs.rmSync(uploadDir, { recursive: true, force: true }); });

describe('POST /api/upload/single/{company}', () => {
  it('stores an image as PNG with a 500 px thumbnail; only the owner reads it', async () => {
    const res = await upload(admin, A, [{ body: await jpeg(1200, 1000), name: 'foto do motorista.jpg', type: 'image/jpeg' }]);
    const j = await json(res);
    expect(res.status, JSON.stringify(j)).toBe(201);
    const p = j.payload;
    expect(p.nome).toBe('foto do motorista.jpg');
    expect(p.mime).toBe('image/png');
    expect([p.largura, p.altura]).toEqual([1200, 1000]);
    expect(p.filename).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(p.file).toBe(`/api/upload/file/${p.filename}`);
    expect(p.urlResized).toBe(`/api/upload/file/${p.filename.replace('.png', '_500.png')}`);

    const full = await get(admin, p.file);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('image/png');
    const fullBody = Buffer.from(await full.arrayBuffer());
    expect(fullBody.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    expect(await sharp(fullBody).metadata()).toMatchObject({ format: 'png', width: 1200, height: 1000 });
    const thumb = await get(admin, p.urlResized);
    expect(thumb.status).toBe(200);
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 500, height: 417 });

    const row = (await ts.em().getConnection().execute('select * from arquivo where chave = ?', [p.filename]))[0];
    expect(row).toMatchObject({ empresa_id: A, nome: 'foto do motorista.jpg', mime: 'image/png', tamanho: fullBody.length, miniatura: p.filename.replace('.png', '_500.png') });

    // Company B of the same ambiente: neither the file nor its thumbnail, nor deleting it.
    expect((await get(otherB, p.file)).status).toBe(404);
    expect((await get(otherB, p.urlResized)).status).toBe(404);
    const d = await del(otherB, p.filename);
    expect(d.status).toBe(404);
    expect((await json(d)).msg).toBe('Arquivo não encontrado');
    expect((await get(admin, p.file)).status).toBe(200);
    // Without a session: 401. An <img> sends the front end's cookie instead of a bearer header.
    expect((await ts.fetch(p.file)).status).toBe(401);
    const cookie = (api: Api) => ({ cookie: `rastro_token=${encodeURIComponent(api.token)}` });
    expect((await ts.fetch(p.urlResized, { headers: cookie(admin) })).status).toBe(200);
    expect((await ts.fetch(p.urlResized, { headers: cookie(otherB) })).status).toBe(404);
    expect((await ts.fetch(p.urlResized, { headers: { cookie: 'rastro_token=forjado' } })).status).toBe(401);
  });

  it('a square image gets a 500×500 thumbnail; a small one is not enlarged', async () => {
    const big = (await json(await upload(admin, A, [{ body: await png(1000, 1000), name: 'q.png' }]))).payload;
    expect(await sharp(Buffer.from(await (await get(admin, big.urlResized)).arrayBuffer())).metadata()).toMatchObject({ width: 500, height: 500 });
    const small = (await json(await upload(admin, A, [{ body: await png(200, 200), name: 'p.png' }]))).payload;
    expect(await sharp(Buffer.from(await (await get(admin, small.urlResized)).arrayBuffer())).metadata()).toMatchObject({ width: 200, height: 200 });
  });

  it('refuses content that is not what it claims (magic bytes), with an empty path', async () => {
    const before = await count();
    const files = stored();
    const cases = [
      { body: Buffer.from('<script>alert(1)</script>'), name: 'logo.png', type: 'image/png' },
      { body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), name: 'logo.svg', type: 'image/svg+xml' },
      { body: Buffer.concat([PNG_MAGIC, Buffer.from('não é uma imagem de verdade')]), name: 'quebrada.png', type: 'image/png' },
      { body: Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff'), name: 'relatorio.pdf', type: 'application/pdf' },
    ];
    for (const c of cases) {
      const res = await upload(admin, A, [c]);
      const j = await json(res);
      expect(res.status, c.name).toBe(415);
      expect(j.msg).toBe(MSG_FORMAT);
      expect(j.payload).toEqual({ file: '', path: '' });
    }
    expect(await count()).toBe(before);
    expect(stored()).toEqual(files);
  });

  it('accepts exactly 10 MB and refuses one byte more', async () => {
    const okRes = await upload(admin, A, [{ body: zip(MAX_FILE_BYTES), name: 'pacote.zip' }]);
    const okJ = await json(okRes);
    expect(okRes.status, JSON.stringify(okJ)).toBe(201);
    expect(okJ.payload).toMatchObject({ mime: 'application/zip', tamanho: MAX_FILE_BYTES, urlResized: null });
    expect(okJ.payload.filename).toMatch(/^[0-9a-f]{32}\.zip$/);
    const back = await get(admin, okJ.payload.file);
    expect(back.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''pacote.zip");
    expect((await back.arrayBuffer()).byteLength).toBe(MAX_FILE_BYTES);

    const before = await count();
    const res = await upload(admin, A, [{ body: zip(MAX_FILE_BYTES + 1), name: 'grande.zip' }]);
    expect(res.status).toBe(413);
    expect((await json(res)).msg).toBe(MSG_SIZE);
    // A body far over the route's limit is cut off by its Content-Length.
    const huge = await upload(admin, A, [{ body: zip(MAX_FILE_BYTES * 2), name: 'enorme.zip' }]);
    expect(huge.status).toBe(413);
    expect(await count()).toBe(before);
  });

  it('never builds a path from the client: traversal names are labels only, traversal keys are not found', async () => {
    const res = await upload(admin, A, [{ body: await png(10, 10), name: '../../../etc/passwd' }]);
    const p = (await json(res)).payload;
    expect(res.status).toBe(201);
    expect(p.nome).toBe('passwd');
    expect(p.filename).toMatch(/^[0-9a-f]{32}\.png$/);
    for (const evil of ['..%2F..%2F..%2Fetc%2Fpasswd', '..%2Fuploads', '%2e%2e%2f%2e%2e%2fpackage.json', `${p.filename.slice(0, 2)}%2F${p.filename}`, 'C%3A%5Cwindows%5Cwin.ini']) {
      const r = await get(admin, `/api/upload/file/${evil}`);
      expect([400, 404], evil).toContain(r.status);
    }
    for (const evil of ['../../../etc/passwd', `../${p.filename}`, `${p.filename}/../x`, '/etc/passwd', `${p.filename.slice(0, 2)}/${p.filename}`]) {
      const r = await del(admin, evil);
      expect(r.status, evil).toBe(404);
    }
    // Everything in the store has a random name, in the store's folder.
    const all = stored();
    expect(all.length).toBeGreaterThan(0);
    for (const f of all) expect(f).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}(_500)?\.(png|zip)$/);
    expect((await get(admin, p.file)).status).toBe(200);
  });

  it('the {company} must be the active company; the keys are required', async () => {
    const body = await png(20, 20);
    const r = await upload(admin, B, [{ body, name: 'x.png' }]);
    expect(r.status).toBe(403);
    expect((await json(r)).msg).toBe('A empresa informada não corresponde à empresa ativa da sessão');
    const l = await upload(leitor, A, [{ body, name: 'x.png' }]);
    expect(l.status).toBe(403);
    expect((await json(l)).msg).toBe('Você não tem permissão para fazer isso');
    const none = await ts.fetch(`/api/upload/single/${A}`, { method: 'POST', headers: admin.headers(), body: new FormData() });
    expect(none.status).toBe(400);
    expect((await json(none)).msg).toBe('Nenhum arquivo enviado no campo file');
  });
});

describe('image fields', () => {
  it('hold the URL of an uploaded image only (no outside address)', async () => {
    const p = (await json(await upload(admin, A, [{ body: await png(64, 64), name: 'logo.png' }]))).payload;
    const empresa = await (await admin.get(`/api/empresa/${A}`)).json();
    for (const bad of ['https://exemplo.com/rastreador.png', `/api/upload/file/${p.filename.replace('.png', '_500.png')}`, '/api/upload/file/../../etc/passwd', 'javascript:alert(1)']) {
      const r = await admin.put(`/api/empresa/${A}`, { ...empresa, logo: bad });
      expect(r.status, bad).toBe(400);
      expect(JSON.stringify(await json(r))).toContain('Envie a imagem do campo Logotipo pelo botão Selecionar imagem');
    }
    const r = await admin.put(`/api/empresa/${A}`, { ...empresa, logo: p.file });
    expect(r.status).toBe(200);
    expect((await (await admin.get(`/api/empresa/${A}`)).json()).logo).toBe(p.file);
  });
});

describe('POST /api/upload/many/{company} and /api/upload/delete', () => {
  it('stores several files, all or none', async () => {
    const before = await count();
    const files = stored();
    const bad = await upload(admin, A, [{ body: await png(30, 30), name: 'a.png' }, { body: Buffer.from('texto'), name: 'b.png' }], 'many');
    expect(bad.status).toBe(415);
    expect(await count()).toBe(before);
    expect(stored()).toEqual(files);

    const res = await upload(admin, A, [{ body: await png(30, 30), name: 'a.png' }, { body: await jpeg(40, 40), name: 'b.jpg' }], 'many');
    const j = await json(res);
    expect(res.status, JSON.stringify(j)).toBe(201);
    expect(j.payload.map((x: any) => [x.nome, x.mime, x.largura])).toEqual([['a.png', 'image/png', 30], ['b.jpg', 'image/png', 40]]);
    expect(await count()).toBe(before + 2);
  });

  it('deletes the file, its thumbnail and its row (owner only)', async () => {
    const p = (await json(await upload(otherB, B, [{ body: await png(600, 600), name: 'b.png' }]))).payload;
    const files = stored();
    expect(files).toContain(`${p.filename.slice(0, 2)}/${p.filename}`);
    // The admin's active company is A: B's file is not found from there, and company B is not the active one.
    expect((await del(admin, p.filename)).status).toBe(404);
    expect((await del(admin, p.filename, B)).status).toBe(403);
    const r = await del(otherB, p.file);
    expect(r.status).toBe(200);
    expect((await json(r)).payload.filename).toBe(p.filename);
    expect((await get(otherB, p.file)).status).toBe(404);
    expect((await get(otherB, p.urlResized)).status).toBe(404);
    expect(stored()).toEqual(files.filter((f) => !f.includes(p.filename.slice(0, 32))));
    expect((await ts.em().getConnection().execute('select count(*)::int as n from arquivo where chave = ?', [p.filename]))[0].n).toBe(0);
  });

  it('the file register lists only the company\'s files', async () => {
    const a = (await (await admin.get('/api/arquivo?range=[0,999]')).json()) as { empresaId: number; nome: string }[];
    expect(a.length).toBeGreaterThan(3);
    expect(a.every((x) => x.empresaId === A)).toBe(true);
    const b = (await (await otherB.get('/api/arquivo?range=[0,999]')).json()) as { empresaId: number }[];
    expect(b.every((x) => x.empresaId === B)).toBe(true);
  });
});

describe('POST /api/request_time', () => {
  it('stores a slow request of the active company, listed by administrators of that company only', async () => {
    const body = { duracao: 12345.6, url: '/api/ativo?range=[0,24]', method: 'get', parametros: '{"q":"abc"}', idEmpresa: A };
    const res = await admin.post('/api/request_time', body);
    const j = await json(res);
    expect(res.status, JSON.stringify(j)).toBe(201);
    const rows = (await (await admin.get('/api/requisicao_lenta?range=[0,99]')).json()) as any[];
    expect(rows.map((r) => [r.duracao, r.url, r.method, r.parametros, r.empresaId, r.usuario])).toEqual([[12346, body.url, 'GET', body.parametros, A, admin.user.id]]);
    expect((await (await otherB.get('/api/requisicao_lenta?range=[0,99]')).json())).toEqual([]);
    expect((await leitor.post('/api/request_time', { ...body, idEmpresa: A })).status).toBe(201);
  });

  it('refuses bad reports with a pt-BR message', async () => {
    const cases: [unknown, number, string][] = [
      [{ duracao: 500, url: '/api/x', method: 'GET' }, 400, 'Só são registradas requisições acima de 10000 ms'],
      [{ duracao: 'muito', url: '/api/x', method: 'GET' }, 400, 'O campo duracao deve ser um número de milissegundos'],
      [{ duracao: 20000, method: 'GET' }, 400, 'O campo url é obrigatório (até 2000 caracteres)'],
      [{ duracao: 20000, url: '/api/x', method: 'TRACE' }, 400, 'O campo method deve ser um método HTTP'],
      [{ duracao: 20000, url: '/api/x', method: 'GET', idEmpresa: B }, 403, 'A empresa informada não corresponde à empresa ativa da sessão'],
    ];
    for (const [b, status, msg] of cases) {
      const r = await admin.post('/api/request_time', b);
      expect(r.status, msg).toBe(status);
      expect((await json(r)).msg).toBe(msg);
    }
    expect((await ts.fetch('/api/request_time', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"duracao":20000}' })).status).toBe(401);
  });
});

describe('S3-compatible store', () => {
  // A minimal S3 endpoint (path-style PUT/GET/DELETE of objects) in this process: the SDK's real requests reach it.
  const objects = new Map<string, { body: Buffer; type: string }>();
  let s3: http.Server;
  let s3ts: TestServer;
  beforeAll(async () => {
    s3 = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
        if (req.method === 'PUT') { objects.set(key, { body: Buffer.concat(chunks), type: String(req.headers['content-type']) }); res.writeHead(200, { etag: '"1"' }).end(); return; }
        if (req.method === 'DELETE') { objects.delete(key); res.writeHead(204).end(); return; }
        const o = objects.get(key);
        if (req.method === 'GET' && o) { res.writeHead(200, { 'content-type': o.type, 'content-length': o.body.length }).end(o.body); return; }
        res.writeHead(404, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>not found</Message></Error>');
      });
    });
    await new Promise<void>((r) => s3.listen(0, '127.0.0.1', () => r()));
    const endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
    s3ts = await startTestServer({ storage: s3Storage({ bucket: 'rastro', endpoint, accessKeyId: 'k', secretAccessKey: 's', prefix: 'uploads/' }) });
  });
  afterAll(async () => { await s3ts?.stop(); await new Promise((r) => s3?.close(r)); });

  it('stores, reads and deletes through the S3 API under the random key', async () => {
    const api = await s3ts.login(ADMIN.login, ADMIN.senha);
    const res = await s3ts.fetch(`/api/upload/single/${api.empresaAtiva}`, { method: 'POST', headers: api.headers(), body: form([{ body: await png(800, 800), name: '../logo.png' }]) });
    const p = (await json(res)).payload;
    expect(res.status).toBe(201);
    expect([...objects.keys()].sort()).toEqual([`/rastro/uploads/${p.filename}`, `/rastro/uploads/${p.filename.replace('.png', '_500.png')}`]);
    expect(objects.get(`/rastro/uploads/${p.filename}`)!.type).toBe('image/png');
    const thumb = await s3ts.fetch(p.urlResized, { headers: api.headers() });
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ width: 500, height: 500, format: 'png' });
    const d = await s3ts.fetch('/api/upload/delete', { method: 'POST', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify({ filename: p.filename, company: api.empresaAtiva }) });
    expect(d.status).toBe(200);
    expect(objects.size).toBe(0);
  });
});
