// Firmware over real HTTP: the .bin upload of POST /api/firmware/{tecnology}/{model} (extension, 10 MB, one file,
// platform key, known technology/model, random storage key), the firmware row referring to the stored file (size
// kept by the write hook, unknown files refused), its download, and the firmware update register
// (/api/atualizacao_firmware/{tecnology}/{model}): checks of equipment and firmware, the command queued in
// fila_processamento, one update under way per equipment, the status followed in the list, company boundary.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { localStorage } from '../../../server/uploads/storage.ts';
import { MAX_FILE_BYTES, MSG_SIZE } from '../../../server/calls/upload.ts';
import { MSG_BIN } from './firmware.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api, gestor: Api, semChave: Api, outraB: Api;
let A: number, B: number;
let uploadDir: string;

const BIN = crypto.randomBytes(4096);
function form(files: { body: Buffer; name: string }[]): FormData {
  const f = new FormData();
  for (const x of files) f.append('file', new Blob([new Uint8Array(x.body)], { type: 'application/octet-stream' }), x.name);
  return f;
}
const send = (api: Api, files: { body: Buffer; name: string }[], where = 'queclink/gv50cg') =>
  ts.fetch(`/api/firmware/${where}`, { method: 'POST', headers: api.headers(), body: form(files) });
const stored = (): string[] => (fs.existsSync(uploadDir) ? fs.readdirSync(uploadDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name).sort() : []);
const fila = async () => (await pool.query(`SELECT serial, event, status, value, empresa_id FROM fila_processamento WHERE event = 'firmwareUpdate' ORDER BY id`)).rows;
const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));

beforeAll(async () => {
  uploadDir = path.resolve(import.meta.dirname, '../../../server/test/.tmp', `fw-${crypto.randomBytes(4).toString('hex')}`);
  ts = await startTestServer({ storage: localStorage(uploadDir) });
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  const ambienteId = admin.user.ambienteId;
  // A company administrator holding the firmware and update keys but not the platform key; one without the update
  // keys; one of company B.
  const keys = ['cfg.fir.lista.lista', 'cfg.fir.lista.visualizar', 'cfg.fir.lista.adicionar', 'cfg.fir.lista.editar',
    'cfg.fir.atualizar.lista', 'cfg.fir.atualizar.visualizar', 'cfg.fir.atualizar.adicionar', 'cfg.fir.atualizar.editar', 'cfg.fir.atualizar.excluir'];
  await ts.createUser({ login: 'gestor.fw', ambienteId, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'sem.chave.fw', ambienteId, empresas: [A], permissoes: ['cfg.fir.lista.lista'] });
  await ts.createUser({ login: 'empresa.b.fw', ambienteId, empresas: [B], permissoes: keys });
  gestor = await ts.login('gestor.fw', 'senha-teste-123');
  semChave = await ts.login('sem.chave.fw', 'senha-teste-123');
  outraB = await ts.login('empresa.b.fw', 'senha-teste-123');
  expect([gestor.empresaAtiva, outraB.empresaAtiva]).toEqual([A, B]);
});
afterAll(async () => { await pool?.end(); await ts?.stop(); fs.rmSync(uploadDir, { recursive: true, force: true }); });

let url = '';
let fwId = 0;

describe('POST /api/firmware/{tecnology}/{model} (multipart)', () => {
  it('stores one .bin under a random key and answers its URL', async () => {
    const res = await send(admin, [{ body: BIN, name: '../../../etc/GV50CG_R01A07.bin' }]);
    const j = await json(res);
    expect(res.status, JSON.stringify(j)).toBe(201);
    expect(j.payload).toMatchObject({ nome: 'GV50CG_R01A07.bin', tamanho: 4096, mime: 'application/octet-stream' });
    expect(j.payload.filename).toMatch(/^[0-9a-f]{32}\.bin$/);
    expect(j.payload.file).toBe(`/api/firmware/arquivo/${j.payload.filename}`);
    expect(stored()).toEqual([j.payload.filename]);
    url = j.payload.file;
  });

  it('refuses another extension (415), more than 10 MB (413), two files, none, an empty one (400), with pt-BR messages', async () => {
    const before = stored();
    let res = await send(admin, [{ body: BIN, name: 'firmware.zip' }]);
    expect(res.status).toBe(415);
    expect((await json(res)).msg).toBe(MSG_BIN);
    res = await send(admin, [{ body: Buffer.alloc(MAX_FILE_BYTES + 1, 1), name: 'grande.bin' }]);
    expect(res.status).toBe(413);
    expect((await json(res)).msg).toBe(MSG_SIZE);
    res = await send(admin, [{ body: BIN, name: 'a.bin' }, { body: BIN, name: 'b.bin' }]);
    expect(res.status).toBe(400);
    expect((await json(res)).msg).toBe('Envie um único arquivo de firmware');
    res = await ts.fetch('/api/firmware/queclink/gv50cg', { method: 'POST', headers: admin.headers(), body: new FormData() });
    expect(res.status).toBe(400);
    expect((await json(res)).msg).toBe('Nenhum arquivo enviado no campo file');
    res = await send(admin, [{ body: Buffer.alloc(0), name: 'vazio.bin' }]);
    expect(res.status).toBe(400);
    expect((await json(res)).msg).toBe('O arquivo está vazio');
    expect(stored()).toEqual(before);
  });

  it('is 404 for an unknown technology or model, 403 without the platform key or without the keys', async () => {
    const before = stored();
    let res = await send(admin, [{ body: BIN, name: 'x.bin' }], 'nokia/gv50cg');
    expect(res.status).toBe(404);
    expect((await json(res)).msg).toMatch(/^Tecnologia desconhecida: nokia/);
    res = await send(admin, [{ body: BIN, name: 'x.bin' }], 'queclink/vdo_telemetria');
    expect(res.status).toBe(404);
    expect((await json(res)).msg).toMatch(/^Modelo desconhecido para a tecnologia/);
    for (const api of [gestor, semChave]) {
      res = await send(api, [{ body: BIN, name: 'x.bin' }]);
      expect(res.status).toBe(403);
      expect((await json(res)).msg).toBe('Você não tem permissão para fazer isso');
    }
    expect((await ts.fetch('/api/firmware/queclink/gv50cg', { method: 'POST', body: form([{ body: BIN, name: 'x.bin' }]) })).status).toBe(401);
    expect(stored()).toEqual(before);
  });
});

describe('firmware row with its file', () => {
  it('the JSON create of the same path keeps working; the row keeps the stored size; a file never stored is refused', async () => {
    const fabricante = (await json(await admin.post('/api/fabricante', { nome: `Queclink ${crypto.randomBytes(3).toString('hex')}` }))).id;
    expect(fabricante).toBeGreaterThan(0);
    let res = await admin.post('/api/firmware/queclink/gv50cg', { versao: 'R01A07', fabricante, padrao: true, arquivo: url });
    const fw = await json(res);
    expect(res.status, JSON.stringify(fw)).toBe(201);
    expect(fw).toMatchObject({ versao: 'R01A07', tecnologia: 'queclink', modelo: 'gv50cg', arquivo: url, tamanho: 4096 });
    fwId = fw.id;
    res = await admin.post('/api/firmware/queclink/gv50cg', { versao: 'R01A08', fabricante, padrao: false, arquivo: `/api/firmware/arquivo/${'0'.repeat(32)}.bin` });
    expect(res.status).toBe(400);
    expect((await json(res)).msg).toBe('Arquivo de firmware não encontrado: envie o arquivo .bin novamente');
    res = await admin.post('/api/firmware/queclink/gv50cg', { versao: 'R01A08', fabricante, padrao: false, arquivo: '/etc/passwd' });
    expect(res.status).toBe(400);
    expect((await json(res)).msg).toBe('Envie o arquivo .bin do firmware pelo botão Selecionar arquivo');
  });

  it('downloads the file to holders of a firmware key; 404 for a key of no firmware; 403 without a key', async () => {
    let res = await ts.fetch(url, { headers: gestor.headers() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="queclink_gv50cg_R01A07.bin"');
    expect(Buffer.from(await res.arrayBuffer()).equals(BIN)).toBe(true);
    res = await ts.fetch(`/api/firmware/arquivo/${'a'.repeat(32)}.bin`, { headers: gestor.headers() });
    expect(res.status).toBe(404);
    const nobody = await ts.createUser({ login: 'nenhuma.chave.fw', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
    expect(nobody).toBeGreaterThan(0);
    const api = await ts.login('nenhuma.chave.fw', 'senha-teste-123');
    expect((await ts.fetch(url, { headers: api.headers() })).status).toBe(403);
  });
});

describe('atualizacao_firmware (/cfg/fir/atualizar/{tecnology}/{model})', () => {
  let eqA = 0, eqOutroModelo = 0, eqB = 0, fwOutroModelo = 0, upd = 0;
  const base = '/api/atualizacao_firmware/queclink/gv50cg';

  beforeAll(async () => {
    eqA = (await json(await admin.post('/api/equipamento', { serial: '865200000000001', tecnologia: 'queclink', modelo: 'gv50cg', firmware: 'R01A05' }))).id;
    eqOutroModelo = (await json(await admin.post('/api/equipamento', { serial: '865200000000002', tecnologia: 'queclink', modelo: 'gv58cg' }))).id;
    eqB = Number((await ts.insert('equipamento', { empresaId: B, serial: '865200000000003', tecnologia: 'queclink', modelo: 'gv50cg', ativado: true })).id);
    const fab = Number((await ts.insert('fabricante', { nome: 'Outro fabricante' })).id);
    fwOutroModelo = Number((await ts.insert('firmware', { versao: 'G58-1', fabricante: fab, padrao: false, tecnologia: 'queclink', modelo: 'gv58cg' })).id);
    expect(Math.min(eqA, eqOutroModelo, eqB, fwOutroModelo)).toBeGreaterThan(0);
  });

  it('queues the firmwareUpdate command for the equipment and fills versions, size and sequence', async () => {
    const res = await gestor.post(base, { equipamento: eqA, firmware: fwId, observacao: 'Correção de GPS' });
    const j = await json(res);
    expect(res.status, JSON.stringify(j)).toBe(201);
    expect(j).toMatchObject({ equipamento: eqA, firmware: fwId, versaoOrigem: 'R01A05', versaoDestino: 'R01A07', tamanho: 4096, sequencia: 1, tecnologia: 'queclink', modelo: 'gv50cg', empresaId: A });
    upd = j.id;
    const queued = await fila();
    expect(queued).toEqual([{ serial: '865200000000001', event: 'firmwareUpdate', status: 'pendente', empresa_id: A, value: { firmwareId: fwId, versao: 'R01A07', arquivo: url, tamanho: 4096 } }]);
    const [cmd] = (await pool.query(`SELECT id FROM fila_processamento WHERE event = 'firmwareUpdate'`)).rows;
    expect(j.comando).toBe(cmd.id);
  });

  it('lists the update with the status of its command, which follows the queue', async () => {
    const list = async () => (await json(await gestor.get(`${base}?filter=${q({ id: [upd] })}`)))[0];
    expect(await list()).toMatchObject({ id: upd, situacao: 'Pendente', tentativas: 0, resposta: null, enviadaEm: null, respondidaEm: null, veiculo: null });
    // sent and answered: the command's times; the vehicle is the one the equipment was in when the update was asked
    const ativo = await ts.insert('ativo', { empresaId: A, descricao: 'Caminhão do firmware', placa: 'FRM1A23' });
    await ts.insert('equipamento_ativo', { empresaId: A, serial: '865200000000001', ativoId: ativo.id, dataInicio: new Date(Date.now() - 86_400_000) });
    await pool.query(`UPDATE fila_processamento SET enviado_em = '2026-11-20T10:00:00Z', concluido_em = '2026-11-20T10:05:00Z' WHERE event = 'firmwareUpdate'`);
    expect(await list()).toMatchObject({ veiculo: 'Caminhão do firmware (FRM1A23)', enviadaEm: '2026-11-20T10:00:00.000Z', respondidaEm: '2026-11-20T10:05:00.000Z' });
    await pool.query(`UPDATE fila_processamento SET status = 'erro', tentativas = 3, resposta = 'Sem resposta do equipamento' WHERE event = 'firmwareUpdate'`);
    expect(await list()).toMatchObject({ situacao: 'Erro', tentativas: 3, resposta: 'Sem resposta do equipamento' });
    await pool.query(`UPDATE fila_processamento SET status = 'enviado', tentativas = 1, resposta = null WHERE event = 'firmwareUpdate'`);
    expect(await list()).toMatchObject({ situacao: 'Enviado', tentativas: 1 });
  });

  it('refuses a second update while one is under way (409), then takes it with the next sequence', async () => {
    let res = await gestor.post(base, { equipamento: eqA, firmware: fwId });
    expect(res.status).toBe(409);
    expect((await json(res)).msg).toBe('O equipamento 865200000000001 já tem uma atualização de firmware em andamento');
    expect(await fila()).toHaveLength(1);
    await pool.query(`UPDATE fila_processamento SET status = 'concluido', processing = false WHERE event = 'firmwareUpdate'`);
    res = await gestor.post(base, { equipamento: eqA, firmware: fwId });
    expect(res.status).toBe(201);
    expect((await json(res)).sequencia).toBe(2);
    expect(await fila()).toHaveLength(2);
  });

  it('refuses firmware or equipment of another model, and changing them once queued', async () => {
    let res = await gestor.post(base, { equipamento: eqOutroModelo, firmware: fwId });
    expect(res.status).toBe(400);
    expect((await json(res)).msg).toBe('O campo Equipamento deve referenciar um registro com Tecnologia queclink e Modelo gv50cg');
    res = await gestor.post(base, { equipamento: eqA, firmware: fwOutroModelo });
    expect(res.status).toBe(400);
    expect((await json(res)).msg).toBe('O campo Firmware deve referenciar um registro com Tecnologia queclink e Modelo gv50cg');
    const fab = Number((await ts.insert('fabricante', { nome: 'Fabricante da outra versão' })).id);
    const outraVersao = Number((await ts.insert('firmware', { versao: 'R01A09', fabricante: fab, padrao: false, tecnologia: 'queclink', modelo: 'gv50cg' })).id);
    res = await gestor.put(`${base}/${upd}`, { equipamento: eqA, firmware: outraVersao });
    expect(res.status).toBe(409);
    expect((await json(res)).msg).toMatch(/^A atualização já foi enfileirada: o campo Firmware não pode ser alterado/);
    res = await gestor.put(`${base}/${upd}`, { equipamento: eqA, firmware: fwId, observacao: 'Revisado' });
    expect(res.status).toBe(200);
    expect((await json(res)).observacao).toBe('Revisado');
    expect(await fila()).toHaveLength(2);
  });

  it("company boundary: another company's equipment is not found; B neither sees nor changes A's update; no key: 403", async () => {
    let res = await gestor.post(base, { equipamento: eqB, firmware: fwId });
    expect(res.status).toBe(400);
    expect((await json(res)).msg).toBe('O campo Equipamento referencia um registro inexistente');
    expect((await outraB.get(`${base}/${upd}`)).status).toBe(404);
    expect((await outraB.put(`${base}/${upd}`, { observacao: 'x' })).status).toBe(404);
    expect((await outraB.del(`${base}/${upd}`)).status).toBe(404);
    expect(await json(await outraB.get(base))).toEqual([]);
    res = await outraB.post(base, { equipamento: eqA, firmware: fwId });
    expect(res.status).toBe(400);
    for (const r of [await semChave.get(base), await semChave.post(base, { equipamento: eqA, firmware: fwId })]) {
      expect(r.status).toBe(403);
      expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    }
    expect((await gestor.get('/api/atualizacao_firmware/nokia/gv50cg')).status).toBe(404);
    expect(await fila()).toHaveLength(2);
  });
});
