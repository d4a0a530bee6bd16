// The demo's tachograph trucks (server/seed/demo-data.ts DEMO_TACOGRAFOS) after the demo seed and one round of the
// demo VDO bridge (server/ingest/tacografo-demo.ts): each truck's 24-hour files of the last 3 days are asked for,
// handed to the units, sent, stored in the uploads storage, listed with the truck and its driver and downloadable over
// HTTP with the same bytes; each upload command is answered (concluído) and every step logged. A second round sends
// nothing again. Then the units listening: an operator's download of the 7-day file gets its transfer, and an
// interrupt stops a 90-day transfer under way with the reason the operator chose.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysFromEpoch, dateFromDays } from '../../protocol/tacografo/index.ts';
import { migrateTelemetria } from './migrate.ts';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { DEMO_TACOGRAFOS, vdoSerial } from '../seed/demo-data.ts';
import { DIAS, PONTE, demoBridge, demoTachographFile } from './tacografo-demo.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
let A: number;
let bridge: ReturnType<typeof demoBridge>;
const NOW = Date.now();
const today = daysFromEpoch(new Date(NOW));
const days = Array.from({ length: DIAS }, (_, k) => dateFromDays(today - DIAS + k));
const SERIALS = DEMO_TACOGRAFOS.map(vdoSerial);

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  await migrateTelemetria(pool);
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  A = (await pool.query('SELECT id FROM empresa ORDER BY id LIMIT 1')).rows[0].id;
  bridge = demoBridge({ db: pool, apiUrl: ts.url.replace('localhost', '127.0.0.1'), paceMs: 0 });
});
afterAll(async () => { await bridge?.stop(); await pool?.end(); await ts?.stop(); });

describe('demo tachographs', () => {
  it('the seed: Veículo 004 and Veículo 008 of the first company carry a VDO unit besides their tracker', async () => {
    const rows = (await pool.query(`SELECT e.serial, e.empresa_id, e.tecnologia, e.modelo, a.descricao,
        (SELECT count(*)::int FROM equipamento_ativo x WHERE x.ativo_id = a.id AND x.data_fim IS NULL) AS devices
      FROM equipamento e JOIN equipamento_ativo ea ON ea.serial = e.serial AND ea.data_fim IS NULL JOIN ativo a ON a.id = ea.ativo_id
      WHERE e.tecnologia = 'vdo' ORDER BY e.serial`)).rows;
    expect(rows).toEqual([
      { serial: 'VDO100004', empresa_id: A, tecnologia: 'vdo', modelo: 'vdo_telemetria', descricao: 'Veículo 004', devices: 2 },
      { serial: 'VDO100008', empresa_id: A, tecnologia: 'vdo', modelo: 'vdo_telemetria', descricao: 'Veículo 008', devices: 2 },
    ]);
    expect(SERIALS).toEqual(['VDO100004', 'VDO100008']);
  });

  it('one round: 3 files per truck through the API, listed with the truck and its driver, downloadable with the same bytes', async () => {
    const r = await bridge.round(NOW);
    expect(r.arquivos.map((a) => [a.serial, a.dataReferencia, a.situacao]).sort()).toEqual(
      SERIALS.flatMap((serial) => days.map((d) => [serial, d, 'concluida'])));
    // the two units send at once: by truck, then day
    const list = (await json(await admin.get(`/api/arquivo_tacografo?range=${encodeURIComponent('[0,49]')}&sort=${encodeURIComponent('["dataReferencia","ASC"]')}`)))
      .sort((a: any, b: any) => a.serial.localeCompare(b.serial));
    expect(list).toHaveLength(6);
    const drivers = (await pool.query(`SELECT a.descricao, a.placa, m.nome FROM motorista_temporario t JOIN ativo a ON a.id = t.ativo_id JOIN motorista m ON m.id = t.motorista_id
      WHERE a.descricao IN ('Veículo 004', 'Veículo 008') AND t.data_fim > now() ORDER BY a.descricao`)).rows;
    expect(drivers).toHaveLength(2);
    for (const [k, f] of list.entries()) {
      const serial = SERIALS[Math.floor(k / DIAS)]!, dia = days[k % DIAS]!;
      const bytes = demoTachographFile(serial, daysFromEpoch(dia));
      const who = drivers[Math.floor(k / DIAS)];
      expect(f).toMatchObject({ serial, tipoArquivo: '24h', dataReferencia: dia, tamanho: bytes.length, nomeArquivo: `${serial}_24h_${dia.replaceAll('-', '')}_${daysFromEpoch(dia)}.ddd`,
        download: `/api/tacografo/arquivo/${f.id}`, _labels: { ativo: expect.stringContaining(who.descricao), motorista: expect.stringContaining(who.nome) } });
      expect(bytes.length).toBeGreaterThan(4096 * 4); // first, middle and last frames
      const res = await admin.get(f.download);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${f.nomeArquivo}`);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    }
    // the commands (comandos_vdo_onboard), answered; the log; the processing screen; the bridge's key
    const cmds = (await pool.query(`SELECT serial, event, status, resposta FROM fila_processamento WHERE serial = ANY($1) ORDER BY id`, [SERIALS])).rows;
    expect(cmds).toHaveLength(6);
    expect(cmds.every((c) => c.event === 'tacografoUpload' && c.status === 'concluido' && /^Arquivo recebido: VDO1000\d{2}_24h_\d{8}_\d+\.ddd$/.test(c.resposta))).toBe(true);
    const log = (await pool.query(`SELECT evento, count(*)::int AS n FROM log_tacografo WHERE serial = ANY($1) GROUP BY evento ORDER BY evento`, [SERIALS])).rows;
    expect(log).toEqual([{ evento: 'arquivo_recebido', n: 6 }, { evento: 'comando_enfileirado', n: 6 }, { evento: 'comando_entregue', n: 6 }, { evento: 'transferencia_iniciada', n: 6 }]);
    const proc = await json(await admin.get('/api/tacografo/processamento'));
    // a VDO unit reports no position: its last communication is its last tachograph frame
    expect(proc.map((p: any) => [p.serial, p.ativoDescricao, p.tacografo, p.processing, p.files, p.ultimaComunicacao === p.lastLoad && Date.parse(p.lastLoad) > NOW - 60_000])).toEqual([
      ['VDO100004', 'Veículo 004', 'VDO Telemetria', false, 3, true], ['VDO100008', 'Veículo 008', 'VDO Telemetria', false, 3, true]]);
    // 6 commands, 2 calls taking them (6, then none), 6 calls of frames (a 24-hour file is at most 8 frames)
    expect((await pool.query('SELECT empresa_id, descricao, usos, ativa FROM chave_de_api')).rows).toEqual([{ empresa_id: A, descricao: PONTE, usos: 14, ativa: true }]);
  });

  it('a second round sends nothing again', async () => {
    expect(await bridge.round(NOW)).toEqual({ arquivos: [] });
    expect((await pool.query('SELECT count(*)::int AS n FROM arquivo_tacografo')).rows[0].n).toBe(6);
  });

  it("listening: an operator's download gets the unit's 7-day file; an interrupt stops a 90-day transfer with its reason", async () => {
    const units = demoBridge({ db: pool, apiUrl: ts.url.replace('localhost', '127.0.0.1'), paceMs: 150 });
    await units.listen();
    try {
      const serial = SERIALS[0]!, dia = days[DIAS - 1]!;
      const queue = async (b: object) => {
        const res = await admin.post('/api/tacografo/comando', { serial, dataReferencia: dia, ...b });
        expect(res.status).toBe(201);
        return (await json(res)).payload.id as number;
      };
      const until = async <T>(what: string, f: () => Promise<T | undefined>) => {
        for (let i = 0; i < 300; i++) { const v = await f(); if (v !== undefined) return v; await new Promise((r) => setTimeout(r, 100)); }
        throw new Error(`esperando: ${what}`);
      };
      const cmd = async (id: number) => (await pool.query('SELECT status, resposta FROM fila_processamento WHERE id = $1', [id])).rows[0];
      const settled = (id: number) => until(`comando ${id}`, async () => { const c = await cmd(id); return c.status === 'pendente' || c.status === 'enviado' ? undefined : c; });

      // download: the unit reads the 7-day file and sends it (42 frames, 6 calls)
      const down = await queue({ comando: 'download', tipoArquivo: '7d' });
      expect(await settled(down)).toEqual({ status: 'concluido', resposta: expect.stringMatching(new RegExp(`^Arquivo recebido: ${serial}_7d_${dia.replaceAll('-', '')}_\\d+\\.ddd$`)) });
      const file = (await pool.query(`SELECT id, tamanho FROM arquivo_tacografo WHERE serial = $1 AND tipo_arquivo = '7d'`, [serial])).rows;
      const bytes = demoTachographFile(serial, daysFromEpoch(dia), '7d');
      expect(file).toEqual([{ id: expect.any(Number), tamanho: bytes.length }]);
      expect(bytes.length).toBeGreaterThan(7 * 18_000);
      expect(Buffer.from(await (await admin.get(`/api/tacografo/arquivo/${file[0].id}`)).arrayBuffer()).equals(bytes)).toBe(true);

      // a 90-day file takes the unit seconds; the interrupt (USB, VDR interrompido) stops it
      const big = await queue({ comando: 'upload', tipoArquivo: '90d_supressao' });
      const t = await until('transferência em curso', async () => (await pool.query(
        `SELECT transferencia FROM transferencia_tacografo WHERE serial = $1 AND tipo_arquivo = '90d_supressao' AND situacao = 'recebendo' AND blocos_recebidos >= 8`, [serial])).rows[0]);
      const stop = await queue({ comando: 'interrupt', tipoArquivo: '90d_supressao', cancelamento: 'usb', motivo: 2 });
      expect(await settled(stop)).toEqual({ status: 'concluido', resposta: `Transferência ${t.transferencia} interrompida: VDR interrompido` });
      expect(await cmd(big)).toEqual({ status: 'erro', resposta: 'VDR interrompido' });
      const row = (await pool.query(`SELECT situacao, motivo, blocos_recebidos < 180 AS parcial FROM transferencia_tacografo WHERE serial = $1 AND transferencia = $2`, [serial, t.transferencia])).rows;
      expect(row).toEqual([{ situacao: 'falhou', motivo: 'VDR interrompido', parcial: true }]);
      expect((await pool.query(`SELECT count(*)::int AS n FROM arquivo_tacografo WHERE tipo_arquivo = '90d_supressao'`)).rows[0].n).toBe(0);
    } finally { await units.stop(); }
  });
});
