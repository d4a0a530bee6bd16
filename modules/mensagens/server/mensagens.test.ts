// Cloud messages over real HTTP against a local double of a push service (plain HTTP on loopback, allowed only by
// WEB_PUSH_ALLOW_HTTP/WEB_PUSH_HOSTS): browsers subscribe with topics, /adm/cloudMessage/send delivers an aes128gcm
// request signed with VAPID (the double checks the JWT and decrypts the body with the browser's keys) and writes the
// in-app notification; a 410 removes the subscription; another company sees and reaches nothing; keys and input checked.
import crypto from 'node:crypto';
import http from 'node:http';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

interface Got { path: string; headers: http.IncomingHttpHeaders; body: Buffer }
const got: Got[] = [];
let push: http.Server;
let pushBase = '';
let ts: TestServer;
let admin: Api;
let leitor: Api;
let outra: Api;

/** A browser's subscription keys (what PushManager.subscribe makes). */
function browser() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

/** RFC 8291 decryption, as the browser does. */
function decrypt(b: ReturnType<typeof browser>, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const data = body.subarray(21 + idlen);
  const secret = b.ecdh.computeSecret(asPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), b.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', secret, b.auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(data.subarray(data.length - 16));
  const plain = Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]);
  return plain.subarray(0, plain.lastIndexOf(2)).toString('utf8');
}

beforeAll(async () => {
  push = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = req.url!.includes('expirado') ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((r) => push.listen(0, '127.0.0.1', r));
  pushBase = `http://127.0.0.1:${(push.address() as { port: number }).port}`;
  process.env.WEB_PUSH_ALLOW_HTTP = '1';
  process.env.WEB_PUSH_HOSTS = '127.0.0.1';
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  const other = admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== admin.empresaAtiva);
  await ts.createUser({ login: 'push.outra', senha: 'push-outra-123', ambienteId: admin.user.ambienteId, empresas: [other], roles: ['dev'] });
  outra = await ts.login('push.outra', 'push-outra-123');
});
afterAll(async () => {
  delete process.env.WEB_PUSH_ALLOW_HTTP; delete process.env.WEB_PUSH_HOSTS;
  await ts?.stop();
  await new Promise((r) => push?.close(r));
});

describe('cloud messages (Web Push, VAPID)', () => {
  const leitorBrowser = browser();
  const adminBrowser = browser();
  it('browsers subscribe (default topics, chosen topics); topics list their subscribers', async () => {
    expect((await admin.post('/api/topico_mensagem', { nome: 'manutencao', descricao: 'Avisos de manutenção', padrao: true })).status).toBe(201);
    expect((await admin.post('/api/topico_mensagem', { nome: 'financeiro', padrao: false })).status).toBe(201);
    const a = await leitor.post('/api/cloudMessage/inscricao', { endpoint: `${pushBase}/push/leitor`, keys: leitorBrowser.keys });
    expect(a.status).toBe(201);
    expect((await json(a)).payload.topicos).toEqual(['manutencao']);
    expect((await json(await admin.post('/api/cloudMessage/inscricao', { endpoint: `${pushBase}/push/admin`, keys: adminBrowser.keys, topicos: ['manutencao', 'financeiro'] }))).payload.topicos).toEqual(['manutencao', 'financeiro']);
    expect((await admin.post('/api/cloudMessage/inscricao', { endpoint: `${pushBase}/push/expirado`, keys: browser().keys, topicos: ['manutencao'] })).status).toBe(201);
    // another company's subscriber of a topic of the same name
    await json(await outra.post('/api/topico_mensagem', { nome: 'manutencao' }));
    expect((await outra.post('/api/cloudMessage/inscricao', { endpoint: `${pushBase}/push/outra`, keys: browser().keys })).status).toBe(201);

    const topicos = await json(await admin.get('/api/adm/cloudMessage/topicos'));
    expect(topicos.payload.map((t: any) => [t.nome, t.inscricoes, t.usuarios])).toEqual([['financeiro', 1, 1], ['manutencao', 3, 2]]);
  });

  it('send: an encrypted, VAPID-signed request to each browser of the topic, in-app notifications, a gone browser removed', async () => {
    const vapid = (await json(await leitor.get('/api/cloudMessage/vapid'))).payload.publicKey as string;
    got.length = 0;
    const res = await json(await admin.post('/api/adm/cloudMessage/send', { topico: 'manutencao', titulo: 'Manutenção', mensagem: 'Sistema em manutenção às 22 h', url: '/home' }));
    expect(res).toMatchObject({ status: 200, msg: 'Mensagem enviada', payload: { topico: 'manutencao', inscricoes: 3, enviados: 2, falhas: 1, removidas: 1, notificacoes: 2 } });
    expect(got.map((g) => g.path).sort()).toEqual(['/push/admin', '/push/expirado', '/push/leitor']);
    const g = got.find((x) => x.path === '/push/leitor')!;
    expect(g.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(g.headers.ttl)).toBe(86400);
    const m = /^vapid t=([^,]+), k=(.+)$/.exec(String(g.headers.authorization));
    expect(m?.[2]).toBe(vapid);
    const pub = Buffer.from(vapid, 'base64url');
    const key = await importJWK({ kty: 'EC', crv: 'P-256', x: pub.subarray(1, 33).toString('base64url'), y: pub.subarray(33).toString('base64url') }, 'ES256');
    const { payload: jwt } = await jwtVerify(m![1], key);
    expect(jwt.aud).toBe(pushBase);
    expect(jwt.sub).toBe('mailto:suporte@rastro.local');
    expect(JSON.parse(decrypt(leitorBrowser, g.body))).toEqual({ titulo: 'Manutenção', mensagem: 'Sistema em manutenção às 22 h', url: '/home', topico: 'manutencao' });
    expect(() => decrypt(adminBrowser, g.body)).toThrow(); // only that browser can read it

    // in-app: each subscriber's own notification
    const notes = await json(await leitor.get('/api/notificacao'));
    expect(notes.map((n: any) => [n.notificacao, n.lido])).toEqual([['Manutenção: Sistema em manutenção às 22 h', false]]);
    // the gone browser is no longer a subscriber; the other company got nothing
    expect((await json(await admin.get('/api/adm/cloudMessage/topicos'))).payload.find((t: any) => t.nome === 'manutencao').inscricoes).toBe(2);
    expect((await json(await outra.get('/api/notificacao')))).toEqual([]);
  });

  it('another company cannot send to this company\'s topic or remove its browsers; keys and input are checked', async () => {
    got.length = 0;
    const o = await json(await outra.post('/api/adm/cloudMessage/send', { topico: 'financeiro', titulo: 'x', mensagem: 'y' }));
    expect(o).toMatchObject({ status: 404, msg: 'Tópico não encontrado' });
    expect(got).toEqual([]);
    const r = await ts.fetch('/api/cloudMessage/inscricao', { method: 'DELETE', headers: { ...outra.headers(), 'content-type': 'application/json' }, body: JSON.stringify({ endpoint: `${pushBase}/push/admin` }) });
    expect(r.status).toBe(404);
    // without the keys
    expect((await leitor.post('/api/adm/cloudMessage/send', { topico: 'manutencao', titulo: 'x', mensagem: 'y' })).status).toBe(403);
    await ts.createUser({ login: 'push.sem', senha: 'push-sem-123', ambienteId: admin.user.ambienteId, empresas: [admin.empresaAtiva], permissoes: ['tlm.fro.ativo.lista'] });
    const sem = await ts.login('push.sem', 'push-sem-123');
    expect((await sem.get('/api/adm/cloudMessage/topicos')).status).toBe(403);
    expect((await ts.fetch('/api/cloudMessage/vapid')).status).toBe(401);
    // an endpoint outside the push services is refused (the server would POST to it)
    const ssrf = await sem.post('/api/cloudMessage/inscricao', { endpoint: 'http://169.254.169.254/latest', keys: browser().keys });
    expect(ssrf.status).toBe(400);
    expect((await json(ssrf)).msg).toBe('Endereço de push inválido: use o endereço do serviço de push do navegador');
    expect((await json(await sem.post('/api/cloudMessage/inscricao', { endpoint: `${pushBase}/push/sem`, keys: { p256dh: 'abc', auth: 'def' } }))).msg).toBe('Chaves de push inválidas');
    expect((await json(await sem.post('/api/cloudMessage/inscricao', { endpoint: `${pushBase}/push/sem`, keys: browser().keys, topicos: ['nao_existe'] }))).msg).toBe('Tópico desconhecido: nao_existe');
    expect((await json(await admin.post('/api/adm/cloudMessage/send', { topico: 'manutencao', mensagem: 'y' }))).msg).toBe('O campo Título é obrigatório');
    expect((await json(await admin.post('/api/adm/cloudMessage/send', { topico: 'manutencao', titulo: 'x', mensagem: 'y', url: 'https://fora' }))).msg).toBe('URL inválida: informe uma tela do sistema (ex.: /tlm/fro/ativo)');
  });
});
