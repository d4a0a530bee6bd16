// bench:map's replay part: a 30-day track of one vehicle (BENCH_REPLAY_PONTOS, 250,000 positions: one fix every ~10 s,
// driving 6–20 h on a winding random walk around São Paulo at a speed rising and falling smoothly (25–81 km/h), in telemetria.posicao as the gateway writes it) opened in
// /tlm/ras/historico_rastreamento. Measured per round (the page loaded anew each time, BENCH_REPLAY_RODADAS, 3):
//   - drawn: from the screen's call for the track to the coloured track on the map (the first frame painted after
//     it) — target under 1.5 s —, and from the navigation's start (the app's own loading included);
//   - settled: no call left (a second one comes only if the map's zoom differs from the first answer's) and painted;
//   - each /api/historico/trajetos answer: points, bytes over the wire, time.
import type { Page } from 'playwright-core';
import type pg from 'pg';
import { median } from './stats.ts';

export interface ReplayResult { pontos: number; desenhoMs: number; chamadaMs: number; estavelMs: number; respostas: { zoom: string; pontos: number; kb: number; ms: number }[] }

const DIAS = 30;

/** Writes the track of one vehicle of the company; answers its id. */
export async function seedTrack(db: pg.Client, empresa: number, pontos: number): Promise<number> {
  const ativo = Number((await db.query(`select id from ativo where empresa_id = $1 order by id limit 1`, [empresa])).rows[0].id);
  const passo = (DIAS * 86_400) / pontos;
  // heading: a running sum of small turns; a step of ~14 m/s × passo while driving (6–20 h), none while parked
  await db.query(`insert into telemetria.posicao (serial, fix_time, tipo, received_at, empresa_id, ativo_id, lat, lon, speed, course, valid, ignition, buffered)
    select 'REPLAY000001', t, 'GTFRI', t, $1, $2, -23.55 + sum(dlat) over w, -46.63 + sum(dlon) over w, speed, mod(((h * 57.3)::int % 360 + 360), 360), true, anda, false
    from (
      select k, t, anda, h, case when anda then 50 + 25 * sin(k / 40.0) + 6 * random() else 0 end as speed,
             case when anda then cos(h) * $4 else 0 end as dlat, case when anda then sin(h) * $4 else 0 end as dlon
      from (
        select k, t, extract(hour from t) between 6 and 19 as anda, sum((random() - 0.5) * 0.5) over (order by k) as h
        from (select k, now() - interval '${DIAS} days' + k * make_interval(secs => $3) as t from generate_series(0, $5::int - 1) k) s
      ) s2
    ) s3
    window w as (order by k)`, [empresa, ativo, passo, 14 * passo / 111_000, pontos]);
  // vacuum: the visibility map autovacuum keeps for an insert-only table (the replay reads the covering index alone)
  await db.query('vacuum analyze telemetria.posicao');
  return ativo;
}

export async function replayRound(page: Page, base: string, ativo: number): Promise<Omit<ReplayResult, 'pontos'>> {
  const hoje = new Date(), de = new Date(hoje.getTime() - DIAS * 86_400_000);
  const dia = (d: Date) => d.toISOString().slice(0, 10);
  const respostas: ReplayResult['respostas'] = [];
  const pending: Promise<void>[] = [];
  const onResponse = (r: import('playwright-core').Response) => {
    if (!r.url().includes('/api/historico/trajetos')) return;
    pending.push((async () => {
      const body = await r.body();
      const sizes = await r.request().sizes();
      const t = r.request().timing();
      const j = JSON.parse(body.toString('utf8')) as { payload: { ativos: { pontos: unknown[] }[] } };
      respostas.push({ zoom: String((j.payload as { zoom?: number | null }).zoom ?? 'nenhum'), pontos: j.payload.ativos[0]?.pontos.length ?? 0,
        kb: Math.round(sizes.responseBodySize / 1024), ms: Math.round(t.responseEnd) });
    })());
  };
  page.on('response', onResponse);
  await page.goto(`${base}/home`);
  await page.waitForLoadState('networkidle');
  const t0 = Date.now();
  await page.goto(`${base}/tlm/ras/historico_rastreamento?ativoId=${ativo}&inicio=${dia(de)}&fim=${dia(hoje)}`);
  await page.waitForFunction("document.querySelectorAll('path.rastro-trajeto').length > 0", undefined, { timeout: 60_000, polling: 'raf' });
  // the paint after it, and when the screen asked for the track (the navigation's own time aside)
  const pagina = await page.evaluate(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r({
    agora: performance.now(), pedido: performance.getEntriesByType('resource').find((e) => e.name.includes('/api/historico/trajetos'))?.startTime ?? NaN }))))`) as { agora: number; pedido: number };
  const desenhoMs = Date.now() - t0;
  const chamadaMs = Math.round(pagina.agora - pagina.pedido);
  // a refinement, if the map's zoom differs from the answer's (asked 300 ms after the zoom settles), and its paint
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  const estavelMs = Date.now() - t0 - 500; // networkidle waits 500 ms of quiet
  page.off('response', onResponse);
  return { desenhoMs, chamadaMs, estavelMs: Math.max(desenhoMs, estavelMs), respostas };
}

export async function replayBench(o: { db: pg.Client; page: Page; base: string; empresa: number; pontos: number; rodadas: number }): Promise<ReplayResult> {
  const t = performance.now();
  const ativo = await seedTrack(o.db, o.empresa, o.pontos);
  const n = Number((await o.db.query(`select count(*)::int as n from telemetria.posicao where ativo_id = $1`, [ativo])).rows[0].n);
  console.log(`Trajeto de ${DIAS} dias: ${n} posições do veículo ${ativo} gravadas em ${Math.round(performance.now() - t)} ms`);
  const rounds = [];
  for (let i = 0; i < o.rodadas; i++) rounds.push(await replayRound(o.page, o.base, ativo));
  return { pontos: n, desenhoMs: median(rounds.map((r) => r.desenhoMs)), chamadaMs: median(rounds.map((r) => r.chamadaMs)), estavelMs: median(rounds.map((r) => r.estavelMs)), respostas: rounds.at(-1)!.respostas };
}
