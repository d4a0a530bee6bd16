// Recalcular período (action of parametro_viagem): a background job (server/jobs) that deletes and recomputes the
// trips and stops of a period from telemetria.posicao with the parameters in force now, one device at a time (one
// transaction each, under the same advisory lock as the ingest detector), reading positions a day at a time.
// Window per device: from the restart point before the period (the start of the segment before the last one that
// ended by then, detector.ts restartPoint) to the end of the first segment the new detector closes after the period (segments
// stored after that are kept); when the data ends first, the open trip is written as em_andamento. Idempotent.
import type { ActionHandler } from '../../../server/crud/actions.ts';
import { defineJob, JobError, startJob } from '../../../server/jobs/index.ts';
import { HttpError } from '../../../server/http/envelope.ts';
import { companySql, pgParams, qParams } from '../../../server/tenancy/scope.ts';
import { TripDetector, type Segment } from './detector.ts';
import { FIX_SELECT, fixOfRow, paramsOf, SQL_ANCHOR, writeSegments, type FixRow } from './processor.ts';

export interface RecalculoData { ativos: number[] | null; inicio: string; fim: string; rotulo: string }

const DAY = 86_400_000;
const MAX_DAYS = 366;
// the server's time zone (TZ), like the rest of its pt-BR texts
const fmt = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' });

export const recalculoViagens = defineJob<RecalculoData>({
  name: 'recalculo_viagens',
  permission: 'cfg.map.parametros_viagem.recalcula',
  describe: (d) => `Recalcular viagens — ${d.rotulo}, ${fmt.format(new Date(d.inicio))} a ${fmt.format(new Date(d.fim))}`,
  prepare: async (raw) => {
    const d = raw as Partial<RecalculoData>;
    const inicio = Date.parse(String(d.inicio)), fim = Date.parse(String(d.fim));
    if (!Number.isFinite(inicio) || !Number.isFinite(fim)) throw new HttpError(400, 'Informe o início e o fim do período');
    if (fim <= inicio) throw new HttpError(400, 'O fim do período deve ser depois do início');
    if (fim - inicio > MAX_DAYS * DAY) throw new HttpError(400, `O período pode ter no máximo ${MAX_DAYS} dias`);
    const ativos = Array.isArray(d.ativos) ? d.ativos.map(Number).filter(Number.isSafeInteger) : null;
    return { ativos, inicio: new Date(inicio).toISOString(), fim: new Date(fim).toISOString(), rotulo: String(d.rotulo ?? 'todos os ativos') };
  },
  handler: async (ctx) => {
    const { data } = ctx;
    const inicio = Date.parse(data.inicio), fim = Date.parse(data.fim);
    // the company's devices with positions in the period (RLS: the job's company)
    const q = qParams();
    const devices = await ctx.sql(`SELECT p.serial, max(p.ativo_id) AS ativo_id FROM telemetria.posicao p
      WHERE ${companySql('p', ctx.empresa, q)} AND p.fix_time >= ${q.add(data.inicio)} AND p.fix_time <= ${q.add(data.fim)}
        ${data.ativos ? `AND p.ativo_id IN (${data.ativos.map((a) => q.add(a)).join(', ') || 'NULL'})` : ''}
      GROUP BY p.serial ORDER BY p.serial`, q.values) as { serial: string; ativo_id: number | null }[];
    const days = Math.max(1, Math.ceil((fim - inicio) / DAY));
    const total = devices.length * days;
    await ctx.progress(0, total, devices.length ? `${devices.length} equipamento(s) com posições no período` : 'Nenhuma posição no período');
    let viagens = 0, paradas = 0, done = 0;
    for (const dev of devices) {
      const c = await ctx.system.connect();
      try {
        await c.query('BEGIN');
        await c.query(`SELECT pg_advisory_xact_lock(hashtext('telemetria.viagem'), hashtext($1))`, [dev.serial]);
        const params = await paramsOf(c, ctx.empresa, dev.ativo_id);
        const { rows: [a] } = await c.query<{ anchor: Date | null; oldest: Date | null }>(SQL_ANCHOR, [dev.serial, data.inicio]);
        const from = a?.anchor?.getTime() ?? Math.min(inicio, a?.oldest?.getTime() ?? inicio);
        const det = new TripDetector(params);
        const closed: { serial: string; seg: Segment; open?: boolean }[] = [];
        let until: number | null = null; // end of the first segment closed after the period
        let step = 0;
        for (let t = from; until === null; t += DAY) {
          const p = pgParams([dev.serial, new Date(t).toISOString(), new Date(t + DAY).toISOString()]);
          const { rows } = await c.query<FixRow>(`SELECT ${FIX_SELECT}
            FROM telemetria.posicao p WHERE p.serial = $1 AND p.fix_time >= $2 AND p.fix_time < $3 AND p.valid AND ${companySql('p', ctx.empresa, p)}
            ORDER BY p.fix_time, p.tipo`, p.values);
          for (const r of rows) {
            for (const seg of det.push(fixOfRow(r))) {
              if (until !== null) break;
              closed.push({ serial: dev.serial, seg });
              if (seg.end.t > fim) until = seg.end.t;
            }
          }
          if (t + DAY <= fim + DAY && step < days) { step++; done++; await ctx.progress(done, total, `Equipamento ${dev.serial}: ${fmt.format(new Date(Math.min(t + DAY, fim)))}`); }
          if (until === null && t + DAY > fim) {
            // past the period: stop when no later position exists
            const { rows: [more] } = await c.query('SELECT 1 FROM telemetria.posicao p WHERE p.serial = $1 AND p.fix_time >= $2 AND p.valid LIMIT 1', [dev.serial, new Date(t + DAY).toISOString()]);
            if (!more) break;
          }
        }
        if (until === null) { const open = det.openTrip(); if (open) closed.push({ serial: dev.serial, seg: open, open: true }); }
        for (const table of ['viagem', 'parada']) {
          const p = pgParams([dev.serial, new Date(from).toISOString()]);
          await c.query(`DELETE FROM telemetria.${table} x WHERE x.serial = $1 AND x.inicio >= $2 ${until !== null ? `AND x.inicio < ${p.add(new Date(until).toISOString())}` : ''}
              AND ${companySql('x', ctx.empresa, p)}`, p.values);
        }
        await writeSegments(c, closed);
        await c.query('COMMIT');
        for (const x of closed) if (x.seg.start.t <= fim && x.seg.end.t >= inicio) { if (x.seg.kind === 'viagem') viagens++; else paradas++; }
        while (step < days) { step++; done++; }
        await ctx.progress(done, total, `Equipamento ${dev.serial} recalculado`);
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        c.release();
      }
    }
    if (!devices.length) return 'Nenhuma posição no período: nada a recalcular';
    return `${devices.length} equipamento(s): ${viagens} viagem(ns) e ${paradas} parada(s) no período`;
  },
});

/** Recalcular período (metadata/cfg/parametro_viagem.yaml): the row's asset, or every asset of the company. */
export const recalcula: ActionHandler = async (ctx) => {
  const ativo = ctx.row.ativo as { id?: number } | number | null;
  const ativoId = ativo == null ? null : typeof ativo === 'object' ? Number(ativo.id) : Number(ativo);
  let rotulo = 'todos os ativos';
  if (ativoId) {
    const [r] = await ctx.tx.getConnection().execute('SELECT a.placa, a.descricao FROM ativo a WHERE a.id = ?', [ativoId]) as { placa: string | null; descricao: string | null }[];
    rotulo = r?.placa || r?.descricao || `ativo ${ativoId}`;
  }
  if (!ctx.payload.inicio || !ctx.payload.fim) throw new JobError('Informe o início e o fim do período');
  const { row, change } = await startJob(ctx.tx, ctx.session, 'recalculo_viagens', { ativos: ativoId ? [ativoId] : null, inicio: ctx.payload.inicio, fim: ctx.payload.fim, rotulo });
  return { status: 201, body: row, changes: [change] };
};
