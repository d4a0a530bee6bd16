// Tachograph over real HTTP: a whole transfer posted as frames (out of order, with repeats, over two calls) becomes
// one file — stored, listed per asset and driver, downloaded byte for byte; a missing block fails the transfer with its
// reason; the device's own failure reason is logged; commands are queued with their request frame. Another company's
// user gets 404, a user without the keys 403, bad input 400 with a pt-BR message. The bridge takes the queued commands
// (a waiting call is woken by the command queued meanwhile) and the unit's silence or its transfer answers them.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { commandFrame, daysFromEpoch, decodeFrame, splitFile } from '../../../protocol/tacografo/index.ts';

// A silent transfer fails after TACOGRAFO_TIMEOUT_S; the server looks every TACOGRAFO_VERIFICA_MS (set before it starts).
process.env.TACOGRAFO_TIMEOUT_S = '120';
process.env.TACOGRAFO_VERIFICA_MS = '150';

let ts: TestServer;
let pool: pg.Pool;
let ponte: Api, leitor: Api, outraB: Api, semChave: Api;
let A: number, B: number;
let ativo: { id: number; descricao: string; placa: string };
let motorista: { id: number; nome: string };
const SERIAL = 'VDOTAC01';
const PW = 'senha-tacografo-123';
const KEYS = ['rel.rel.relatorios_registros.vdo_onboard', 'rel.rel.relatorios_registros.vdo_onboard.ingestao', 'rel.rel.relatorios_registros.vdo_onboard.comando',
  'rel.rel.relatorios_registros.ultimos_registros_tacografo.lista', 'rel.rel.relatorios_registros.ultimos_registros_tacografo.visualizar',
  'rel.rel.relatorios_registros.log_tacografo.lista', 'rel.rel.relatorios_registros.transferencias_tacografo.lista', 'cfg.dia.comandos_vdo_onboard',
  'rel.rel.relatorios_registros.transferencias_tacografo.comando'];

// A 90-day file of 10,000 bytes in 1,000-byte blocks: first, 8 middles, last.
const FILE = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 31 + 7) & 0xff));
const DAY = daysFromEpoch('2026-11-20');
const frames = (transferId: number, file = FILE, fileType: '24h' | '7d' | '90d_supressao' | '24h_dia_atual' = '90d_supressao') =>
  splitFile(file, { transferId, fileType, referenceDate: DAY, blockSize: 1000 }).map((b) => b.toString('hex'));

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  const admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  const ambienteId = admin.user.ambienteId;
  await ts.createUser({ login: 'taco.ponte', senha: PW, ambienteId, empresas: [A], permissoes: KEYS });
  await ts.createUser({ login: 'taco.leitor', senha: PW, ambienteId, empresas: [A], permissoes: ['rel.rel.relatorios_registros.ultimos_registros_tacografo.lista'] });
  await ts.createUser({ login: 'taco.b', senha: PW, ambienteId, empresas: [B], permissoes: KEYS });
  await ts.createUser({ login: 'taco.sem', senha: PW, ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
  [ponte, leitor, outraB, semChave] = await Promise.all(['taco.ponte', 'taco.leitor', 'taco.b', 'taco.sem'].map((l) => ts.login(l, PW)));
  ativo = (await pool.query('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A])).rows[0];
  expect(ativo.placa).toMatch(/^[A-Z]{3}-?\d[A-Z0-9]\d{2}$/); // the plate checks below compare a real plate, not null with null
  motorista = (await pool.query('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A])).rows[0];
  await ts.insert('equipamento', { empresaId: A, serial: SERIAL, tecnologia: 'vdo', modelo: 'vdo_telemetria', ativado: true });
  await ts.insert('equipamento', { empresaId: A, serial: '865300000000077', tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await ts.insert('equipamento', { empresaId: B, serial: 'VDOTAC09', tecnologia: 'vdo', modelo: 'mix', ativado: true });
  await ts.insert('equipamento_ativo', { empresaId: A, serial: SERIAL, ativoId: ativo.id, dataInicio: new Date(Date.now() - 86_400_000) });
  await pool.query(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, motorista_id, protocolo, modelo, ultima_comunicacao)
    VALUES ($1, $2, $3, $4, 'vdo', 'vdo_telemetria', now() - interval '2 minutes')`, [SERIAL, A, ativo.id, motorista.id]);
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

const post = async (api: Api, quadros: string[], serial = SERIAL) => {
  const res = await api.post('/api/tacografo/quadros', { serial, quadros });
  return { status: res.status, body: await json(res) };
};

describe('a whole transfer through POST /api/tacografo/quadros', () => {
  let fileId = 0;

  it('blocks out of order and repeated, over two calls, give one file', async () => {
    const q = frames(41);
    const first = await post(ponte, [q[3], q[0], q[0], q[5], q[1]]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.payload.transferencias).toEqual([{ transferencia: '41', situacao: 'recebendo', blocosRecebidos: 4, duplicados: 1, ultimoBloco: null, ultimoQuadroEm: expect.any(String), motivo: null, arquivo: null }]);
    expect(first.body.payload.respostas).toEqual([]);
    const second = await post(ponte, [q[9], q[2], q[4], q[8], q[6], q[7], q[3]]);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const [t] = second.body.payload.transferencias;
    expect(t).toMatchObject({ transferencia: '41', situacao: 'concluida', blocosRecebidos: 10, duplicados: 2, ultimoBloco: 9, motivo: null });
    expect(t.arquivo).toMatchObject({ nomeArquivo: 'VDOTAC01_90d_supressao_20261120_41.ddd', tamanho: 10_000, tipoArquivo: '90d_supressao', dataReferencia: '2026-11-20' });
    fileId = t.arquivo.id;
    const ack = decodeFrame(Buffer.from(second.body.payload.respostas[0], 'hex')).frame;
    expect([ack.service, ack.subCommand, ack.responseType, ack.transferId, ack.reasonCode, ack.blockSequence]).toEqual(['upload', 'response', 'ack', 41, 0, 9]);
  });

  it('the file downloads over HTTP with the same bytes (bearer and the front end cookie)', async () => {
    const res = await ponte.get(`/api/tacografo/arquivo/${fileId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''VDOTAC01_90d_supressao_20261120_41.ddd");
    expect(Buffer.from(await res.arrayBuffer()).equals(FILE)).toBe(true);
    const byCookie = await ts.fetch(`/api/tacografo/arquivo/${fileId}`, { headers: { cookie: `rastro_token=${leitor.token}` } });
    expect(byCookie.status).toBe(200);
    expect(Buffer.from(await byCookie.arrayBuffer()).equals(FILE)).toBe(true);
  });

  it('another company gets 404, a user without the key 403, no session 401', async () => {
    const other = await outraB.get(`/api/tacografo/arquivo/${fileId}`);
    expect(other.status).toBe(404);
    expect((await json(other)).msg).toBe('Arquivo não encontrado');
    expect((await outraB.get(`/api/arquivo_tacografo/${fileId}`)).status).toBe(404);
    const none = await semChave.get(`/api/tacografo/arquivo/${fileId}`);
    expect(none.status).toBe(403);
    expect((await json(none)).msg).toBe('Você não tem permissão para fazer isso');
    expect((await ts.fetch(`/api/tacografo/arquivo/${fileId}`)).status).toBe(401);
    expect((await ponte.get('/api/tacografo/arquivo/999999')).status).toBe(404);
    expect((await ponte.get('/api/tacografo/arquivo/abc')).status).toBe(404);
  });

  it('one row per file with asset, driver, type, reference date and size; B sees none', async () => {
    const res = await leitor.get('/api/arquivo_tacografo');
    expect(res.status).toBe(200);
    const rows = await json(res);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: fileId, serial: SERIAL, ativo: ativo.id, motorista: motorista.id, tipoArquivo: '90d_supressao', dataReferencia: '2026-11-20', tamanho: 10_000,
      placa: ativo.placa, download: `/api/tacografo/arquivo/${fileId}`, _labels: { ativo: expect.stringContaining(ativo.descricao), motorista: expect.stringContaining(motorista.nome) } });
    expect(rows[0].chave).toBeUndefined();
    expect(await json(await outraB.get('/api/arquivo_tacografo'))).toEqual([]);
  });

  it('a missing block fails the transfer with its reason; a single frame file; the device reason', async () => {
    const q = frames(42);
    const r = await post(ponte, [q[0], q[1], q[2], q[4], q[5], q[6], q[7], q[9]]);
    expect(r.body.payload.transferencias[0]).toMatchObject({ situacao: 'falhou', motivo: 'Transferência incompleta: blocos 3, 8 ausentes', arquivo: null });
    expect(decodeFrame(Buffer.from(r.body.payload.respostas[0], 'hex')).frame.responseType).toBe('nack');
    const single = await post(ponte, frames(43, Buffer.from('VDR 24h'), '24h'));
    expect(single.body.payload.transferencias[0]).toMatchObject({ situacao: 'concluida', arquivo: { tamanho: 7, tipoArquivo: '24h' } });
    const interrupted = frames(44, FILE, '7d').slice(0, 2);
    const stop = commandFrame({ command: 'interrupt', fileType: '7d', referenceDate: DAY, transferId: 44, cancel: 'usb' });
    stop[13] = 3; // reason: USB restarted (CRC recomputed by reencode)
    expect(decodeFrame(reencode(stop)).frame.reasonCode).toBe(3);
    const r2 = await post(ponte, [...interrupted, reencode(stop).toString('hex')]);
    expect(r2.body.payload.transferencias[0]).toMatchObject({ situacao: 'falhou', motivo: 'USB reiniciado' });
    const stale = await post(ponte, [frames(42)[3]]);
    expect(stale.body.payload.transferencias[0]).toMatchObject({ situacao: 'falhou', duplicados: 1 });
  });

  it('every transfer is logged (evento, descricao, time, arquivoVDR, mensagem)', async () => {
    const rows = await json(await ponte.get(`/api/log_tacografo?sort=${encodeURIComponent('["id","ASC"]')}`));
    expect(rows.map((r: any) => [r.evento, r.transferencia, r.descricao, r.arquivoVDR, r.mensagem])).toEqual([
      ['transferencia_iniciada', '41', 'Arquivo 90 dias com supressão de 20/11/2026', null, null],
      ['arquivo_recebido', '41', 'Arquivo 90 dias com supressão de 20/11/2026', 'VDOTAC01_90d_supressao_20261120_41.ddd', '10000 bytes em 10 blocos'],
      ['transferencia_iniciada', '42', 'Arquivo 90 dias com supressão de 20/11/2026', null, null],
      ['transferencia_falhou', '42', 'Arquivo 90 dias com supressão de 20/11/2026', 'VDOTAC01_90d_supressao_20261120_42.ddd', 'Transferência incompleta: blocos 3, 8 ausentes'],
      ['transferencia_iniciada', '43', 'Arquivo 24 horas de 20/11/2026', null, null],
      ['arquivo_recebido', '43', 'Arquivo 24 horas de 20/11/2026', 'VDOTAC01_24h_20261120_43.ddd', '7 bytes em 1 blocos'],
      ['transferencia_iniciada', '44', 'Arquivo 7 dias de 20/11/2026', null, null],
      ['transferencia_falhou', '44', 'Arquivo 7 dias de 20/11/2026', 'VDOTAC01_7d_20261120_44.ddd', 'USB reiniciado'],
    ]);
    expect(rows.every((r: any) => r.ativo === ativo.id && r.placa === ativo.placa && typeof r.time === 'string')).toBe(true);
    expect(await json(await outraB.get('/api/log_tacografo'))).toEqual([]);
  });

  it('the processing list (vdo_onboard): the company VDO devices with processing, last read, last frame and files', async () => {
    // a transfer under way
    await post(ponte, frames(45).slice(0, 2));
    const res = await ponte.get('/api/tacografo/processamento');
    const rows = await json(res);
    expect(res.status, JSON.stringify(rows)).toBe(200);
    // the demo's tachograph trucks (server/seed/demo-data.ts DEMO_TACOGRAFOS) are VDO devices of A too, without files here
    expect(rows.map((r: any) => [r.serial, r.files])).toEqual([['VDO100004', 0], ['VDO100008', 0], [SERIAL, 2]]);
    expect(rows.filter((r: any) => r.serial === SERIAL)).toEqual([expect.objectContaining({ id: SERIAL, serial: SERIAL, ativoDescricao: ativo.descricao, ativoPlaca: ativo.placa, tacografo: 'VDO Telemetria',
      processing: true, files: 2, ultimaComunicacao: expect.any(String), lastRead: expect.any(String), lastLoad: expect.any(String) })]);
    const b = await json(await outraB.get('/api/tacografo/processamento'));
    expect(b.map((r: any) => [r.serial, r.processing, r.files])).toEqual([['VDOTAC09', false, 0]]);
    expect((await semChave.get('/api/tacografo/processamento')).status).toBe(403);
  });

  it('refuses bad input (400, pt-BR), another company device (404), a non-VDO device (422), no key (403)', async () => {
    expect((await post(ponte, ['zz'])).body.msg).toBe('Quadro 1 inválido: esperado texto hexadecimal');
    const bad = Buffer.from(frames(46)[0], 'hex'); bad[bad.length - 1] ^= 1;
    const crc = await post(ponte, [bad.toString('hex')]);
    expect([crc.status, crc.body.msg]).toEqual([400, 'Quadro 1 inválido: CRC do quadro não confere']);
    expect((await ponte.post('/api/tacografo/quadros', { serial: SERIAL })).status).toBe(400);
    expect((await json(await ponte.post('/api/tacografo/quadros', { quadros: frames(47) }))).msg).toBe('O campo Serial é obrigatório (até 20 caracteres)');
    const alien = await post(ponte, frames(48), 'VDOTAC09');
    expect([alien.status, alien.body.msg]).toEqual([404, 'Equipamento não encontrado']);
    const gv = await post(ponte, frames(49), '865300000000077');
    expect([gv.status, gv.body.msg]).toEqual([422, 'O equipamento 865300000000077 não é de vídeo telemetria (VDO)']);
    expect((await post(semChave, frames(50))).status).toBe(403);
    expect((await post(leitor, frames(50))).status).toBe(403);
    const n = (await pool.query('SELECT count(*)::int AS n FROM transferencia_tacografo WHERE transferencia IN ($1, $2, $3, $4, $5)', ['46', '47', '48', '49', '50'])).rows[0].n;
    expect(n).toBe(0);
  });
});

describe('POST /api/tacografo/comando', () => {
  it('queues upload, download and interrupt (USB, RS232) with their request frames; the file that arrives settles the upload', async () => {
    const send = (b: Record<string, unknown>) => ponte.post('/api/tacografo/comando', { serial: SERIAL, ...b });
    const up = await send({ comando: 'upload', tipoArquivo: '7d', dataReferencia: '2026-11-27' });
    const upBody = await json(up);
    expect(up.status, JSON.stringify(upBody)).toBe(201);
    expect(upBody.payload).toMatchObject({ event: 'tacografoUpload', status: 'pendente' });
    const f = decodeFrame(Buffer.from(upBody.payload.quadro, 'hex')).frame;
    expect([f.service, f.subCommand, f.fileType, f.referenceDate]).toEqual(['upload', 'request', '7d', 20784]);
    expect((await send({ comando: 'download', tipoArquivo: '24h_dia_atual', dataReferencia: '2026-11-27' })).status).toBe(201);
    for (const cancelamento of ['usb', 'rs232']) {
      const r = await json(await send({ comando: 'interrupt', dataReferencia: '2026-11-27', cancelamento, transferencia: 45 }));
      expect(decodeFrame(Buffer.from(r.payload.quadro, 'hex')).frame).toMatchObject({ service: 'interrupt', subCommand: cancelamento === 'usb' ? 'cancelUsb' : 'cancelRs232', transferId: 45 });
    }
    const queued = await json(await ponte.get(`/api/diagnostico/comandos_vdo/processando?sort=${encodeURIComponent('["id","ASC"]')}`));
    expect(queued.map((r: any) => r.event)).toEqual(['Tacógrafo: enviar arquivo', 'Tacógrafo: ler do VDR', 'Tacógrafo: interromper transferência', 'Tacógrafo: interromper transferência']);
    expect(queued[0]).toMatchObject({ usuario: expect.any(String), value: { tipoArquivo: '7d', dataReferencia: '2026-11-27' } });
    // a file arrives: the oldest open upload/download command is answered
    await post(ponte, frames(60, Buffer.from('semana'), '7d'));
    const [done] = (await pool.query(`SELECT status, resposta FROM fila_processamento WHERE serial = $1 AND event = 'tacografoUpload'`, [SERIAL])).rows;
    expect(done).toEqual({ status: 'concluido', resposta: 'Arquivo recebido: VDOTAC01_7d_20261120_60.ddd' });
  });

  it('refuses bad input and other devices', async () => {
    const send = async (api: Api, b: Record<string, unknown>) => { const r = await api.post('/api/tacografo/comando', b); return [r.status, (await json(r)).msg]; };
    expect(await send(ponte, { serial: SERIAL, comando: 'formatar', dataReferencia: '2026-11-27' })).toEqual([400, 'O campo Comando deve ser upload, download ou interrupt']);
    expect(await send(ponte, { serial: SERIAL, comando: 'upload', tipoArquivo: '30d', dataReferencia: '2026-11-27' })).toEqual([400, 'O campo Tipo de arquivo deve ser um de: 24h, 7d, 90d_supressao, 24h_dia_atual']);
    expect(await send(ponte, { serial: SERIAL, comando: 'upload' })).toEqual([400, 'O campo Data de referência é obrigatório (AAAA-MM-DD)']);
    expect(await send(ponte, { serial: SERIAL, comando: 'interrupt', dataReferencia: '2026-11-27' })).toEqual([400, 'O campo Tipo de cancelamento deve ser usb ou rs232']);
    expect(await send(ponte, { serial: 'VDOTAC09', comando: 'upload', dataReferencia: '2026-11-27' }))
      .toEqual([422, 'O equipamento VDOTAC09 não está cadastrado nesta empresa: o comando não foi enfileirado']);
    expect((await send(semChave, { serial: SERIAL, comando: 'upload', dataReferencia: '2026-11-27' }))[0]).toBe(403);
    expect((await send(outraB, { serial: SERIAL, comando: 'upload', dataReferencia: '2026-11-27' }))[0]).toBe(422);
  });
});

const until = async <T>(what: () => Promise<T>, done: (v: T) => boolean, ms = 5000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('a transfer that stops receiving frames', () => {
  it('times out after TACOGRAFO_TIMEOUT_S: falhou with its state, logged, its command answered erro; late frames are repeats', async () => {
    const cmd = await ponte.post('/api/tacografo/comando', { serial: SERIAL, comando: 'download', tipoArquivo: '7d', dataReferencia: '2026-11-20' });
    expect(cmd.status).toBe(201);
    const cmdId = (await json(cmd)).payload.id;
    const q = frames(70, FILE, '7d');
    const r = await post(ponte, [q[0], q[1], q[2]]);
    expect(r.body.payload.transferencias[0]).toMatchObject({ transferencia: '70', situacao: 'recebendo', blocosRecebidos: 3 });
    const list = async () => (await json(await ponte.get(`/api/transferencia_tacografo?filter=${encodeURIComponent('{"transferencia":"70"}')}`))) as any[];
    // still within the timeout: the sweep leaves it alone
    await new Promise((res) => setTimeout(res, 400));
    expect((await list())[0]).toMatchObject({ situacao: 'recebendo', motivo: null, placa: ativo.placa });
    // the last frame came 3 minutes ago (> 120 s)
    await pool.query(`UPDATE transferencia_tacografo SET ultimo_quadro_em = '2026-11-27T10:00:00Z' WHERE serial = $1 AND transferencia = '70'`, [SERIAL]);
    const [row] = await until(list, (rows) => rows[0]?.situacao === 'falhou');
    expect(row).toMatchObject({ situacao: 'falhou', blocosRecebidos: 3,
      motivo: 'Tempo esgotado: nenhum quadro em 120 s (3 blocos recebidos, último quadro não recebido, último quadro em 27/11/2026 10:00:00 UTC)' });
    expect((await pool.query(`SELECT blocos FROM transferencia_tacografo WHERE serial = $1 AND transferencia = '70'`, [SERIAL])).rows[0].blocos).toBeNull();
    const logs = await json(await ponte.get(`/api/log_tacografo?filter=${encodeURIComponent('{"transferencia":"70"}')}&sort=${encodeURIComponent('["id","ASC"]')}`));
    expect(logs.map((l: any) => [l.evento, l.descricao, l.mensagem])).toEqual([
      ['transferencia_iniciada', 'Arquivo 7 dias de 20/11/2026', null],
      ['transferencia_falhou', 'Arquivo 7 dias de 20/11/2026', row.motivo],
    ]);
    // the device's oldest open upload/download command is answered with the reason (as a finished transfer does)
    const open = (await pool.query(`SELECT min(id) AS id FROM fila_processamento WHERE serial = $1 AND event IN ('tacografoUpload', 'tacografoDownload') AND (status IN ('pendente', 'enviado') OR resposta = $2)`, [SERIAL, row.motivo])).rows[0].id;
    expect((await pool.query('SELECT status, resposta FROM fila_processamento WHERE resposta = $1', [row.motivo])).rows).toEqual([{ status: 'erro', resposta: row.motivo }]);
    expect((await pool.query('SELECT resposta FROM fila_processamento WHERE id = $1', [open])).rows[0].resposta).toBe(row.motivo);
    expect(cmdId).toBeGreaterThanOrEqual(open);
    // the rest arriving now (within 60 s of the end) are late repeats: no file
    const late = await post(ponte, q.slice(3));
    expect(late.body.payload.transferencias[0]).toMatchObject({ situacao: 'falhou', arquivo: null });
    // another company sees neither the transfer nor its log
    expect(await json(await outraB.get(`/api/transferencia_tacografo?filter=${encodeURIComponent('{"transferencia":"70"}')}`))).toEqual([]);
  });
});

describe('Enviar comando on a transfer row (POST /api/transferencia_tacografo/{id}/comando)', () => {
  let id = 0;
  beforeAll(async () => {
    await post(ponte, frames(80, FILE, '24h').slice(0, 2));
    id = (await pool.query(`SELECT id FROM transferencia_tacografo WHERE serial = $1 AND transferencia = '80'`, [SERIAL])).rows[0].id;
  });

  it('interrupt with a reason code of catalogues 3.7: says what it queued for which vehicle; the frame carries the reason', async () => {
    const res = await ponte.post(`/api/transferencia_tacografo/${id}/comando`, { comando: 'interrupt', cancelamento: 'rs232', motivo: 2 });
    expect(res.status).toBe(201);
    const [out] = await json(res);
    expect(out).toMatchObject({ serial: SERIAL, event: 'tacografoInterrupt', status: 'pendente' });
    expect(out.resumo).toBe(`Interromper transferência (cancelamento RS232, motivo VDR interrompido) — arquivo 24 horas de 20/11/2026, transferência 80: enfileirado para o veículo ${[ativo.descricao, ativo.placa].filter(Boolean).join(' — ')} (equipamento ${SERIAL}), comando nº ${out.id}, situação pendente`);
    const f = decodeFrame(Buffer.from(out.quadro, 'hex')).frame;
    expect([f.service, f.subCommand, f.transferId, f.fileType, f.referenceDate, f.reasonCode]).toEqual(['interrupt', 'cancelRs232', 80, '24h', DAY, 2]);
    const [row] = (await pool.query('SELECT event, status, value FROM fila_processamento WHERE id = $1', [out.id])).rows;
    expect(row).toMatchObject({ event: 'tacografoInterrupt', status: 'pendente', value: { cancelamento: 'rs232', motivo: 2, transferencia: 80, tipoArquivo: '24h', dataReferencia: '2026-11-20' } });
    const logs = await json(await ponte.get(`/api/log_tacografo?filter=${encodeURIComponent('{"transferencia":"80"}')}&sort=${encodeURIComponent('["id","ASC"]')}`));
    expect(logs.at(-1)).toMatchObject({ evento: 'comando_enfileirado', descricao: 'Interromper transferência', mensagem: 'Arquivo 24 horas de 20/11/2026; cancelamento RS232; motivo VDR interrompido' });
  });

  it('upload and download for the row; the reason codes and the cancel type are checked', async () => {
    const up = await json(await ponte.post(`/api/transferencia_tacografo/${id}/comando`, { comando: 'upload' }));
    expect(up[0].resumo).toMatch(/^Enviar arquivo \(upload\) — arquivo 24 horas de 20\/11\/2026, transferência 80: enfileirado para o veículo /);
    expect(decodeFrame(Buffer.from(up[0].quadro, 'hex')).frame).toMatchObject({ service: 'upload', subCommand: 'request', reasonCode: 0 });
    const bad = await ponte.post(`/api/transferencia_tacografo/${id}/comando`, { comando: 'interrupt', cancelamento: 'usb', motivo: 9 });
    expect(bad.status).toBe(400);
    const noCancel = await ponte.post(`/api/transferencia_tacografo/${id}/comando`, { comando: 'interrupt' });
    expect([noCancel.status, (await json(noCancel)).msg]).toEqual([400, 'O campo Tipo de cancelamento deve ser usb ou rs232']);
    // the direct route takes the reason too
    const direct = await json(await ponte.post('/api/tacografo/comando', { serial: SERIAL, comando: 'interrupt', dataReferencia: '2026-11-27', cancelamento: 'usb', motivo: 5, transferencia: 80 }));
    expect(decodeFrame(Buffer.from(direct.payload.quadro, 'hex')).frame.reasonCode).toBe(5);
    const badDirect = await ponte.post('/api/tacografo/comando', { serial: SERIAL, comando: 'interrupt', dataReferencia: '2026-11-27', cancelamento: 'usb', motivo: 'x' });
    expect((await json(badDirect)).msg).toBe('O campo Motivo deve ser um de: 0 (Sem erro), 1 (Operação abortada), 2 (VDR interrompido), 3 (USB reiniciado), 4 (USB abortado), 5 (USB: BVDR ocupado)');
  });

  it('another company gets 404, a user without the key 403', async () => {
    expect((await outraB.post(`/api/transferencia_tacografo/${id}/comando`, { comando: 'upload' })).status).toBe(404);
    expect((await semChave.post(`/api/transferencia_tacografo/${id}/comando`, { comando: 'upload' })).status).toBe(403);
    expect((await leitor.post(`/api/transferencia_tacografo/${id}/comando`, { comando: 'upload' })).status).toBe(403);
  });
});

describe('the bridge takes the queued commands (POST /api/tacografo/comandos/retirar and the answer to /quadros)', () => {
  const retirar = async (api: Api, b: Record<string, unknown>) => { const r = await api.post('/api/tacografo/comandos/retirar', b); return { status: r.status, body: await json(r) }; };
  const fila = async (id: number) => (await pool.query('SELECT status, processing, tentativas, enviado_em IS NOT NULL AS enviado, resposta FROM fila_processamento WHERE id = $1', [id])).rows[0];
  const lastLog = async (serial: string) => (await pool.query('SELECT evento, descricao, mensagem, ativo FROM log_tacografo WHERE serial = $1 ORDER BY id DESC LIMIT 1', [serial])).rows[0];

  it('a waiting bridge gets the command queued meanwhile: enviado, logged; then nothing is left to take', async () => {
    // what the earlier tests left queued (the transfer row's commands) is taken first, oldest first
    const left = await retirar(ponte, {});
    expect(left.status).toBe(200);
    expect(left.body.payload.comandos.map((c: any) => [c.comando, c.transferencia])).toEqual([['interrupt', 80], ['upload', 80], ['interrupt', 80]]);
    const waiting = retirar(ponte, { seriais: [SERIAL], aguardarSegundos: 20 });
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    const q = await json(await ponte.post('/api/tacografo/comando', { serial: SERIAL, comando: 'download', tipoArquivo: '7d', dataReferencia: '2026-11-25' }));
    const got = await waiting;
    expect(Date.now() - t0).toBeLessThan(15_000); // woken by the queued command, not by the end of its 20 s
    expect(got.status).toBe(200);
    expect(got.body.msg).toBe('1 comando(s) entregue(s)');
    expect(got.body.payload.comandos).toEqual([{ id: q.payload.id, serial: SERIAL, comando: 'download', quadro: q.payload.quadro, tipoArquivo: '7d', dataReferencia: '2026-11-25', transferencia: null }]);
    expect(await fila(q.payload.id)).toEqual({ status: 'enviado', processing: true, tentativas: 1, enviado: true, resposta: null });
    expect(await lastLog(SERIAL)).toEqual({ evento: 'comando_entregue', descricao: 'Ler do VDR (download)', mensagem: `Comando nº ${q.payload.id} entregue à ponte para o equipamento`, ativo: ativo.id });
    const again = await retirar(ponte, { seriais: [SERIAL] });
    expect([again.body.msg, again.body.payload.comandos]).toEqual(['Nenhum comando pendente', []]);
  });

  it('the unit posting frames gets its commands back; the interrupt is answered when the transfer it stops ends', async () => {
    const send = async (b: Record<string, unknown>) => (await json(await ponte.post('/api/tacografo/comando', { serial: SERIAL, dataReferencia: '2026-11-26', ...b }))).payload.id as number;
    const dl = await send({ comando: 'download', tipoArquivo: '24h' });
    const stopIt = await send({ comando: 'interrupt', cancelamento: 'usb', transferencia: 90 });
    const r = await post(ponte, frames(90, FILE, '24h').slice(0, 2));
    expect(r.body.payload.transferencias[0]).toMatchObject({ transferencia: '90', situacao: 'recebendo' });
    expect(r.body.payload.comandos.map((c: any) => [c.id, c.comando])).toEqual([[dl, 'download'], [stopIt, 'interrupt']]);
    expect(decodeFrame(Buffer.from(r.body.payload.comandos[1].quadro, 'hex')).frame).toMatchObject({ service: 'interrupt', subCommand: 'cancelUsb', transferId: 90 });
    expect((await fila(stopIt)).status).toBe('enviado');
    // the unit stops transfer 90 (its cancel frame, reason 1)
    const end = await post(ponte, [commandFrame({ command: 'interrupt', fileType: '24h', referenceDate: DAY, transferId: 90, cancel: 'usb' }).toString('hex')]);
    expect(end.body.payload.transferencias[0]).toMatchObject({ situacao: 'falhou', motivo: 'Operação abortada' });
    expect(end.body.payload.comandos).toEqual([]);
    expect(await fila(stopIt)).toMatchObject({ status: 'concluido', processing: false, resposta: 'Transferência 90 interrompida: Operação abortada' });
  });

  it('a unit that never answers: its command ends erro after TACOGRAFO_TIMEOUT_S, logged', async () => {
    await ts.insert('equipamento', { empresaId: A, serial: 'VDOTAC02', tecnologia: 'vdo', modelo: 'vdo_compact', ativado: true });
    const id = (await json(await ponte.post('/api/tacografo/comando', { serial: 'VDOTAC02', comando: 'upload', tipoArquivo: '90d_supressao', dataReferencia: '2026-11-26' }))).payload.id;
    expect((await retirar(ponte, { seriais: ['VDOTAC02'] })).body.payload.comandos.map((c: any) => c.id)).toEqual([id]);
    await new Promise((r) => setTimeout(r, 400));
    expect((await fila(id)).status).toBe('enviado'); // within the timeout: left alone
    await pool.query(`UPDATE fila_processamento SET enviado_em = now() - interval '10 minutes' WHERE id = $1`, [id]);
    const row = await until(() => fila(id), (r) => r.status !== 'enviado');
    expect(row).toEqual({ status: 'erro', processing: false, tentativas: 1, enviado: true, resposta: 'Sem resposta do equipamento em 120 s' });
    expect(await lastLog('VDOTAC02')).toEqual({ evento: 'comando_sem_resposta', descricao: 'Enviar arquivo (upload)', mensagem: `Comando nº ${id}: Sem resposta do equipamento em 120 s`, ativo: null });
  });

  it('another company takes nothing of A; the keys, the device and the input are checked', async () => {
    const id = (await json(await ponte.post('/api/tacografo/comando', { serial: SERIAL, comando: 'upload', tipoArquivo: '24h', dataReferencia: '2026-11-26' }))).payload.id;
    expect(await retirar(outraB, { seriais: [SERIAL] })).toMatchObject({ status: 404, body: { msg: `Equipamento não encontrado: ${SERIAL}` } });
    expect((await retirar(outraB, {})).body.payload.comandos).toEqual([]);
    expect((await fila(id)).status).toBe('pendente');
    expect((await retirar(semChave, {})).status).toBe(403);
    expect((await retirar(leitor, {})).status).toBe(403);
    expect((await ts.fetch('/api/tacografo/comandos/retirar', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(401);
    expect(await retirar(ponte, { seriais: ['865300000000077'] })).toMatchObject({ status: 422, body: { msg: 'O equipamento 865300000000077 não é de vídeo telemetria (VDO)' } });
    expect(await retirar(ponte, { seriais: 'VDOTAC01' })).toMatchObject({ status: 400, body: { msg: 'O campo Seriais deve ser uma lista de 1 a 500 seriais' } });
    expect(await retirar(ponte, { aguardarSegundos: 99 })).toMatchObject({ status: 400, body: { msg: 'O campo Aguardar (segundos) deve ser um inteiro de 0 a 25' } });
    expect((await fila(id)).status).toBe('pendente');
    expect((await retirar(ponte, { seriais: [SERIAL] })).body.payload.comandos.map((c: any) => c.id)).toEqual([id]);
  });

  it('the routes are in the OpenAPI with their keys', async () => {
    const doc = await json(await ponte.get('/api/openapi.json'));
    expect(['/api/tacografo/quadros', '/api/tacografo/comando', '/api/tacografo/comandos/retirar'].map((p) => doc.paths[p]?.post?.['x-permission'])).toEqual([
      'rel.rel.relatorios_registros.vdo_onboard.ingestao', 'rel.rel.relatorios_registros.vdo_onboard.comando', 'rel.rel.relatorios_registros.vdo_onboard.ingestao']);
    expect(doc.paths['/api/tacografo/arquivo/{id}'].get.operationId).toBe('tacografo_arquivo');
  });
});

/** The frame with its CRC recomputed (after a byte was changed by hand). */
function reencode(buf: Buffer): Buffer {
  const f = Buffer.from(buf);
  const n = f.length - 2;
  let crc = 0xffff;
  for (let i = 0; i < n; i++) { crc ^= f[i] << 8; for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff; }
  f.writeUInt16BE(crc, n);
  return f;
}
