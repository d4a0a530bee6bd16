// Spool, sharing and scheduled e-mails over real HTTP, a real socket and a real SMTP server on loopback (smtp-server):
// a background export with progress pushed to the user's socket, the file listed and downloaded (another user's or
// company's: 404), expiry (row and file gone), sharing inside the company only (+ notificacao), a due schedule
// e-mailed with the file attached and a pt-BR subject/body, and the keys (403).
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { io as connectIo, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let smtp: SMTPServer;
const inbox: { to: string[]; raw: string }[] = [];
let A: number, B: number;
let userA: Api, colegaA: Api, userB: Api, semChave: Api;
let colegaId: number, userBId: number;
let sock: Socket;
const pushes: any[] = [];
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const PERIODO = { inicio: '2026-03-10T00:00:00-03:00', fim: '2026-03-11T23:59:59.999-03:00' };

async function trip(serial: string, empresa: number, ativo: number, inicio: string, metros: number) {
  const fim = new Date(Date.parse(inicio) + 3600_000).toISOString();
  await q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
    VALUES ($1, $2, $3, $4, $5, -23.55, -46.63, -23.6, -46.7, $6, 3600, 80, 40, 0)`, [serial, inicio, fim, empresa, ativo, metros]);
}
const waitTarefa = async (id: number) => {
  await expect.poll(async () => (await q('SELECT estado FROM tarefa WHERE id = $1', [id]))[0].estado, { timeout: 20_000 }).toMatch(/concluido|falhou/);
  return (await q('SELECT * FROM tarefa WHERE id = $1', [id]))[0];
};
const gera = async (api: Api, formato = 'csv') => api.post('/api/tarefa/inicia/relatorio_gera', { familia: 'viagem', tipo: 'detalhado', params: { periodo: PERIODO }, formato });

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (d) => { raw += d.toString(); });
      stream.on('end', () => { inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw }); cb(); });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  process.env.AGENDAMENTO_TICK_MS = '300';
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  const [a1] = await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]);
  const [b1] = await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  await trip('sp-a1', A, a1.id, '2026-03-10T08:00:00-03:00', 50_000);
  await trip('sp-a1', A, a1.id, '2026-03-10T14:00:00-03:00', 20_000);
  await trip('sp-a1', A, a1.id, '2026-03-11T10:00:00-03:00', 30_000);
  await trip('sp-b1', B, b1.id, '2026-03-10T09:00:00-03:00', 99_000);
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['rel.rel.relatorios', 'rel.rel.relatorios.viagem', 'rel.rel.relatorios.gerados.lista', 'rel.rel.relatorios.gerados.visualizar',
    'rel.rel.relatorios.gerados.compartilhar', 'rel.rel.agendamento.lista', 'rel.rel.agendamento.adicionar', 'rel.rel.agendamento.editar', 'adm.sis.notificacao.lista'];
  await ts.createUser({ login: 'sp_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  colegaId = await ts.createUser({ login: 'sp_colega', ambienteId: ambiente, empresas: [A], permissoes: keys });
  userBId = await ts.createUser({ login: 'sp_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'sp_sem', ambienteId: ambiente, empresas: [A], permissoes: ['rel.rel.relatorios', 'rel.rel.relatorios.viagem'] });
  userA = await ts.login('sp_a', 'senha-teste-123');
  colegaA = await ts.login('sp_colega', 'senha-teste-123');
  userB = await ts.login('sp_b', 'senha-teste-123');
  semChave = await ts.login('sp_sem', 'senha-teste-123');
  sock = connectIo(ts.url, { path: '/socket_server', auth: { token: userA.token }, transports: ['websocket'] });
  sock.on('tarefa', (m) => pushes.push(m));
  await new Promise<void>((r, j) => { sock.on('connect', () => r()); sock.on('connect_error', j); });
}, 120_000);

afterAll(async () => {
  sock?.close();
  await pool?.end();
  await ts?.stop();
  await new Promise<void>((r) => smtp?.close(() => r()));
  delete process.env.SMTP_URL;
  delete process.env.AGENDAMENTO_TICK_MS;
});

let spoolId: number;

describe('spool', () => {
  it('runs the export as a job with progress pushed, lists it and downloads it', async () => {
    const r = await gera(userA, 'csv');
    expect(r.status).toBe(201);
    const tarefa = await json(r);
    expect(tarefa.descricao).toBe('Gerar relatório Viagem — Detalhado (CSV)');
    const t = await waitTarefa(tarefa.id);
    expect(t, String(t.erro)).toMatchObject({ estado: 'concluido', progresso: 100, feito: 3, total: 3 });
    expect(t.resultado).toMatch(/^Relatório gerado: 3 linhas, \d+ B$/);
    await expect.poll(() => pushes.filter((p) => p.id === tarefa.id).map((p) => p.estado).at(-1)).toBe('concluido');
    expect(pushes.some((p) => p.id === tarefa.id && p.total === 3 && p.feito === 3)).toBe(true);

    const list = await userA.get('/api/relatorio_gerado?sort=["geradoEm","DESC"]');
    expect(list.status).toBe(200);
    const rows = await list.json();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ titulo: 'Relatório de Viagem — Detalhado', formato: 'csv', linhas: 3, situacao: 'disponivel', nomeArquivo: 'relatorio_viagem_detalhado.csv' });
    expect(rows[0].parametros).toBe('Período: 10/03/2026 00:00:00 até 11/03/2026 23:59:59; Ativos: Todos; Motoristas: Todos; Garagens: Todos; Grupos genéricos: Todos');
    spoolId = rows[0].id;
    const dl = await userA.get(`/api/spool/get/${spoolId}/csv`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toBe('attachment; filename="relatorio_viagem_detalhado.csv"');
    const text = (await dl.text()).replace(/^\uFEFF/, '');
    expect(rows[0].tamanho).toBe(Buffer.byteLength('\uFEFF' + text));
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(4);
    expect(text).toContain('50,00');
    expect(text).not.toContain('99,00');
  });

  it('another user, another company, a wrong format: 404; no key: 403', async () => {
    expect((await colegaA.get(`/api/spool/get/${spoolId}/csv`)).status).toBe(404);
    const b = await userB.get(`/api/spool/get/${spoolId}/csv`);
    expect(b.status).toBe(404);
    expect((await json(b)).msg).toBe('Relatório gerado não encontrado');
    expect((await userA.get(`/api/spool/get/${spoolId}/doc`)).status).toBe(404);
    expect((await semChave.get(`/api/spool/get/${spoolId}/csv`)).status).toBe(403);
    expect((await semChave.get('/api/relatorio_gerado')).status).toBe(403);
    expect((await gera(semChave)).status).toBe(403);
    expect(await (await userB.get('/api/relatorio_gerado')).json()).toEqual([]);
  });

  it('refuses bad requests in pt-BR before queueing', async () => {
    const r = await userA.post('/api/tarefa/inicia/relatorio_gera', { familia: 'viagem', tipo: 'detalhado', params: { periodo: PERIODO }, formato: 'doc' });
    expect(r.status).toBe(400);
    expect((await json(r)).msg).toBe('Formato de exportação inválido: use xlsx, csv ou pdf');
  });
});

describe('sharing', () => {
  it('shares with a colleague of the same company (own row + notification), never across companies', async () => {
    const cross = await userA.post(`/api/spool/share/${spoolId}`, { usuarios: [userBId] });
    expect(cross.status).toBe(400);
    expect((await json(cross)).msg).toBe(`Usuário não encontrado nesta empresa: ${userBId}`);
    expect((await userB.post(`/api/spool/share/${spoolId}`, { usuarios: [userBId] })).status).toBe(404);
    expect((await semChave.post(`/api/spool/share/${spoolId}`, { usuarios: [colegaId] })).status).toBe(403);

    const r = await userA.post(`/api/spool/share/${spoolId}`, { usuarios: [colegaId] });
    expect(r.status).toBe(200);
    expect((await json(r)).msg).toBe('Relatório compartilhado com 1 usuário');
    const rows = await (await colegaA.get('/api/relatorio_gerado')).json();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ situacao: 'compartilhado', titulo: 'Relatório de Viagem — Detalhado' });
    expect(rows[0]._labels.compartilhadoPor).toBe('sp_a');
    const dl = await colegaA.get(`/api/spool/get/${rows[0].id}/csv`);
    expect(dl.status).toBe(200);
    expect((await dl.text())).toContain('50,00');
    const notes = await (await colegaA.get('/api/notificacao')).json();
    expect(notes.map((n: any) => n.notificacao)).toContain('sp_a compartilhou com você o relatório "Relatório de Viagem — Detalhado" (CSV). Veja em Relatórios gerados.');
    // B sees nothing of it
    expect(await (await userB.get('/api/relatorio_gerado')).json()).toEqual([]);
    expect((await userB.get(`/api/spool/get/${rows[0].id}/csv`)).status).toBe(404);
  });
});

describe('expiry', () => {
  it('deletes expired rows and, once nobody names it, the file', async () => {
    const [{ arquivo }] = await q('SELECT arquivo FROM relatorio_gerado WHERE id = $1', [spoolId]);
    await q(`UPDATE relatorio_gerado SET expira_em = now() - interval '1 minute' WHERE id = $1`, [spoolId]);
    await expect.poll(async () => (await q('SELECT count(*)::int AS n FROM relatorio_gerado WHERE id = $1', [spoolId]))[0].n, { timeout: 10_000 }).toBe(0);
    // the colleague's shared row still names the file
    const [shared] = await q('SELECT id FROM relatorio_gerado WHERE arquivo = $1', [arquivo]);
    expect((await colegaA.get(`/api/spool/get/${shared.id}/csv`)).status).toBe(200);
    await q(`UPDATE relatorio_gerado SET expira_em = now() - interval '1 minute' WHERE id = $1`, [shared.id]);
    await expect.poll(async () => (await q('SELECT count(*)::int AS n FROM relatorio_gerado WHERE arquivo = $1', [arquivo]))[0].n, { timeout: 10_000 }).toBe(0);
    expect((await colegaA.get(`/api/spool/get/${shared.id}/csv`)).status).toBe(404);
  });
});

describe('schedules', () => {
  const body = { descricao: 'Viagens de ontem', familia: 'viagem', tipo: 'detalhado', periodo: 'ontem', formato: 'csv', frequencia: 'diario', horaEnvio: '07:00',
    assuntoEmail: 'Relatório diário de viagens', destinatario: 'frota@cliente.com.br; gestor@cliente.com.br', ativo: true };

  it('checks the report and the e-mails, computes the next send; 403 without the key', async () => {
    const bad = await userA.post('/api/agendamento_relatorio', { ...body, destinatario: 'frota@cliente.com.br, nao-e-email' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).msg).toBe('E-mail inválido: nao-e-email');
    expect((await semChave.post('/api/agendamento_relatorio', body)).status).toBe(403);
    const r = await userA.post('/api/agendamento_relatorio', body);
    expect(r.status).toBe(201);
    const row = await r.json();
    expect(row.destinatario).toBe('frota@cliente.com.br, gestor@cliente.com.br');
    // next 07:00 in São Paulo (10:00 UTC)
    expect(new Date(row.dataEnvio).toISOString()).toMatch(/T10:00:00\.000Z$/);
    expect(Date.parse(row.dataEnvio) - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(await (await userB.get('/api/agendamento_relatorio')).json()).toEqual([]);
  });

  it('a due schedule is e-mailed with the file attached (pt-BR subject and body) and kept in the author’s spool', async () => {
    const [a] = await q(`SELECT id FROM agendamento_relatorio WHERE descricao = 'Viagens de ontem'`);
    // due "yesterday" = 10/03/2026 in São Paulo: the schedule's time was 11/03 07:00
    await q(`UPDATE agendamento_relatorio SET data_envio = '2026-03-11T10:00:00Z' WHERE id = $1`, [a.id]);
    await expect.poll(() => inbox.length, { timeout: 20_000 }).toBe(1);
    const mail = inbox[0];
    expect(mail.to.sort()).toEqual(['frota@cliente.com.br', 'gestor@cliente.com.br']);
    const raw = mail.raw;
    expect(raw).toContain('Subject: =?UTF-8?Q?Relat=C3=B3rio_di=C3=A1rio_de_viagens?=');
    const qp = /Content-Transfer-Encoding: quoted-printable\r?\n\r?\n([\s\S]*?)\r?\n----/.exec(raw)![1].replace(/=\r?\n/g, '');
    const decoded = Buffer.from(qp.replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
    expect(decoded.split(/\r?\n/)).toEqual([
      'Olá,', '', 'Segue em anexo o relatório agendado "Viagens de ontem".', '',
      'Relatório: Relatório de Viagem — Detalhado',
      'Período: 10/03/2026 00:00:00 até 10/03/2026 23:59:59',
      'Ativos: Todos', 'Motoristas: Todos', 'Garagens: Todos', 'Grupos genéricos: Todos',
      'Formato: CSV (2 linhas)', '',
      'Este e-mail foi enviado automaticamente pelo Rastro. Para alterar ou cancelar o envio, acesse Relatórios › Agendamentos.',
    ]);
    expect(raw).toContain('filename=relatorio_viagem_detalhado.csv');
    const att = /filename=relatorio_viagem_detalhado\.csv\r?\n\r?\n([\s\S]*?)\r?\n--/.exec(raw)![1];
    const csv = Buffer.from(att.replace(/\s/g, ''), 'base64').toString('utf8');
    expect(csv).toContain('50,00');
    expect(csv).toContain('20,00');
    expect(csv).not.toContain('30,00');
    await expect.poll(async () => (await q('SELECT ultimo_envio IS NOT NULL AS ok, ultimo_erro FROM agendamento_relatorio WHERE id = $1', [a.id]))[0]).toEqual({ ok: true, ultimo_erro: null });
    const [next] = await q('SELECT data_envio FROM agendamento_relatorio WHERE id = $1', [a.id]);
    expect(new Date(next.data_envio).getTime()).toBeGreaterThan(Date.now());
    const spooled = await (await userA.get('/api/relatorio_gerado')).json();
    expect(spooled.map((r: any) => [r.formato, r.linhas])).toContainEqual(['csv', 2]);
  });
});
