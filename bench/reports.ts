// npm run bench:reports — the trip reports at fleet scale, through the real server (its own process, as a user runs
// them: GET /api/relatorios/… and its /exporta), each beside the same aggregation over the raw positions in the same
// run (plain SQL, pg, as the table's owner: what a server without stored trips and daily totals does per request).
// Data, generated in SQL (generate_series) in one company:
//   BENCH_VEICULOS (1,000) vehicles × BENCH_DIAS (30) whole local days (America/Sao_Paulo) before today, one fix every
//   BENCH_INTERVALO_S (30) s — 86.4 million positions at the defaults — in telemetria.posicao (monthly partitions,
//   the gateway's columns); each vehicle drives four trips a day (local 07:00–08:30, 11:00–12:00, 14:00–15:00,
//   18:00–19:30) northwards at its own speed (30–69 km/h) and is parked with the ignition off otherwise;
//   the trips (telemetria.viagem) and daily totals (telemetria.total_diario) the ingest keeps for those positions,
//   written by construction (the bench checks them against the raw aggregation).
// Measured (API: median of BENCH_RODADAS, 3, after a warm-up; raw SQL: once, the two at the same time on two
// connections — each reads every position — after the API figures and the exports, which print as they come):
//   - monthly summary of every vehicle (viagem/mensal_ativo, from the daily totals; first page of 1,000 rows and the
//     total) — target under 1 s — beside the monthly trips, distance, driving time and top speed per vehicle computed
//     from the positions (trips = runs of fixes with the ignition on and speed > 0);
//   - detailed trips of every vehicle (viagem/detalhado, from the stored trips; first page of 1,000 rows by start and
//     the total) — target under 5 s — beside the same trip list computed from the positions;
//   - XLSX of the detailed report, 100,000 rows (the days that give them), streamed: time to the last byte under
//     10 s and the server's resident memory under 300 MB (sampled every 50 ms);
//   - PDF of 10,000 rows (the first 100 vehicles): under 20 s.
// Exit code non-zero only when something fails (a request, a check of the numbers), never for a missed target.
// Database: a temp one on BENCH_DATABASE_URL / DATABASE_URL, else embedded PostgreSQL in the OS temp dir (86 M
// positions take ~15 GB); dropped at the end.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchDatabase, type BenchDatabase } from './db.ts';
import { ROOT, startServer, type BenchServer } from './server.ts';
import { median } from './stats.ts';

const VEICULOS = Number(process.env.BENCH_VEICULOS ?? 1_000);
const DIAS = Number(process.env.BENCH_DIAS ?? 30);
const INTERVALO = Number(process.env.BENCH_INTERVALO_S ?? 30);
const RODADAS = Number(process.env.BENCH_RODADAS ?? 3);
const PARALELO = Number(process.env.BENCH_CONEXOES ?? 4);
const FUSO = 'America/Sao_Paulo';
const ADMIN_PASSWORD = 'bench-reports-admin-123';
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const R = 6_371_000; // metres, the haversine of the raw aggregation
// trip windows, local seconds of the day [start, end)
const JANELAS: [number, number][] = [[7 * 3600, 8.5 * 3600], [11 * 3600, 12 * 3600], [14 * 3600, 15 * 3600], [18 * 3600, 19.5 * 3600]];
const XLSX_LINHAS = 100_000;
const PDF_LINHAS = 10_000;

if (!(VEICULOS > 0 && DIAS > 0 && INTERVALO > 0 && 86_400 % INTERVALO === 0)) throw new Error('BENCH_VEICULOS, BENCH_DIAS > 0 e BENCH_INTERVALO_S divisor de 86.400');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-reports-'));
fs.chmodSync(tmp, 0o755);
let database: BenchDatabase | undefined;
let server: BenchServer | undefined;

const s1 = (ms: number) => `${(ms / 1000).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} s`;
const int = (n: number) => n.toLocaleString('pt-BR');
const meta = (ok: boolean, txt: string) => (ok ? `✓ meta ${txt}` : `✗ fora da meta (${txt})`);
async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}
function check(ok: boolean, msg: string): void {
  if (!ok) throw new Error(`verificação falhou: ${msg}`);
}

// Local midnight of today in São Paulo (UTC−3, no daylight saving time since 2019): the data ends there.
const hoje = new Date(`${new Intl.DateTimeFormat('en-CA', { timeZone: FUSO }).format(new Date())}T00:00:00-03:00`);
const inicio = new Date(hoje.getTime() - DIAS * 86_400_000);
const diaIso = (d: number) => new Date(inicio.getTime() + d * 86_400_000).toISOString();

// One trip per window: its fixes are the samples of the window; distance and duration between the first and the last.
const porJanela = JANELAS.map(([a, b]) => ({ primeira: Math.ceil(a / INTERVALO) * INTERVALO, n: Math.ceil(b / INTERVALO) - Math.ceil(a / INTERVALO) }));
const VIAGENS_DIA = JANELAS.length;
const passoM = (v: number) => ((30 + (v % 40)) * INTERVALO) / 3.6; // metres per fix while driving
const dLat = (v: number) => (passoM(v) / R) * (180 / Math.PI);

try {
  database = await benchDatabase('reports', tmp);
  server = await startServer({ url: database.url, dataDir: path.join(tmp, 'data'), adminPassword: ADMIN_PASSWORD, env: { DEMO: 'off' } });
  const pool = new pg.Pool({ connectionString: database.url, max: PARALELO + 1 });
  pool.on('error', () => undefined);
  const empresa = Number((await pool.query(`select empresa_ativa from usuario where login = 'admin'`)).rows[0].empresa_ativa);
  const seed = spawnSync(process.execPath, [TSX, 'server/seed/demo.ts', '--ativos', String(VEICULOS), '--empresa', String(empresa)], { cwd: ROOT, env: { ...process.env, DATABASE_URL: database.url }, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`seed:demo falhou: ${seed.stderr}`);
  const ativos = (await pool.query(`select id from ativo where empresa_id = $1 order by id desc limit $2`, [empresa, VEICULOS])).rows.map((r) => Number(r.id)).reverse();
  check(ativos.length === VEICULOS, `${ativos.length} ativos criados, esperados ${VEICULOS}`);

  // ---------- positions, as the gateway writes them ----------
  const t0 = performance.now();
  for (let m = new Date(inicio); m < hoje; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))) {
    await pool.query(`select telemetria.garante_particao('posicao', $1)`, [m.toISOString()]);
  }
  await pool.query(`select telemetria.garante_particao('posicao', $1)`, [new Date(hoje.getTime() - 1).toISOString()]);
  const porDia = 86_400 / INTERVALO;
  const janelaSql = JANELAS.map(([a, b]) => `WHEN l >= ${a} AND l < ${b} THEN ${Math.ceil(a / INTERVALO) * INTERVALO}`).join(' ');
  const posicoes = `insert into telemetria.posicao (serial, fix_time, tipo, received_at, empresa_id, ativo_id, lat, lon, speed, course, valid, ignition, buffered)
    select 'REL' || lpad(v::text, 6, '0'), $1::timestamptz + make_interval(secs => k * ${INTERVALO}), 'GTFRI', $1::timestamptz + make_interval(secs => k * ${INTERVALO}),
      $2, ($3::int[])[v + 1],
      -23.5 + (v % 40) * 0.05 + coalesce((l - w) / ${INTERVALO} * ((30 + v % 40) * ${INTERVALO} / 3.6 / ${R} * 180 / pi()), 0),
      -46.6 + (v / 40) * 0.05,
      case when w is null then 0 else 30 + v % 40 end, 0, true, w is not null, false
    from generate_series($4::int, $5::int) v cross join generate_series($6::int, $7::int) k
      cross join lateral (select (k * ${INTERVALO}) % 86400 as l) x
      cross join lateral (select case ${janelaSql} end as w) y`;
  // work items: a day of a group of vehicles (~500k rows each), PARALELO at once
  const grupo = Math.max(1, Math.floor(500_000 / porDia));
  const itens: [number, number, number][] = [];
  for (let d = 0; d < DIAS; d++) for (let v = 0; v < VEICULOS; v += grupo) itens.push([d, v, Math.min(VEICULOS, v + grupo) - 1]);
  let feitos = 0;
  await Promise.all(Array.from({ length: PARALELO }, async () => {
    for (let it = itens.shift(); it; it = itens.shift()) {
      const [d, v0, v1] = it;
      await pool.query(posicoes, [inicio.toISOString(), empresa, ativos, v0, v1, d * porDia, (d + 1) * porDia - 1]);
      feitos++;
      process.stderr.write(`\rposições: ${feitos} blocos (${Math.round((100 * feitos) / (DIAS * Math.ceil(VEICULOS / grupo)))} %)`);
    }
  }));
  process.stderr.write('\n');
  const cargaPos = performance.now() - t0;

  // ---------- the trips and daily totals the ingest keeps for them (by construction) ----------
  const t1 = performance.now();
  const janelas = porJanela.map((j) => `(${j.primeira}, ${j.n})`).join(', ');
  await pool.query(`insert into telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, motorista_id, lat_inicio, lon_inicio, lat_fim, lon_fim,
      distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso, em_andamento)
    select 'REL' || lpad(v::text, 6, '0'), $1::timestamptz + make_interval(days => d, secs => j.primeira),
      $1::timestamptz + make_interval(days => d, secs => j.primeira + (j.n - 1) * ${INTERVALO}), $2, ($3::int[])[v + 1], null,
      -23.5 + (v % 40) * 0.05, -46.6 + (v / 40) * 0.05,
      -23.5 + (v % 40) * 0.05 + (j.n - 1) * ((30 + v % 40) * ${INTERVALO} / 3.6 / ${R} * 180 / pi()), -46.6 + (v / 40) * 0.05,
      (j.n - 1) * (30 + v % 40) * ${INTERVALO} / 3.6, (j.n - 1) * ${INTERVALO}, 30 + v % 40, 30 + v % 40, 0, false
    from generate_series(0, $4::int - 1) v cross join generate_series(0, $5::int - 1) d cross join (values ${janelas}) j(primeira, n)`,
  [inicio.toISOString(), empresa, ativos, VEICULOS, DIAS]);
  const somaN = porJanela.reduce((s, j) => s + (j.n - 1), 0);
  await pool.query(`insert into telemetria.total_diario (ativo_id, data, motorista_id, empresa_id, serial, primeira_posicao, ultima_posicao, posicoes,
      distancia, tempo_conducao, tempo_parado, tempo_marcha_lenta, tempo_estacionado, viagens, velocidade_maxima, qtd_eventos, pontuacao)
    select ($3::int[])[v + 1], to_char(($1::timestamptz + make_interval(days => d)) at time zone '${FUSO}', 'YYYY-MM-DD'), 0, $2, 'REL' || lpad(v::text, 6, '0'),
      $1::timestamptz + make_interval(days => d), $1::timestamptz + make_interval(days => d, secs => 86400 - ${INTERVALO}), ${porDia},
      ${somaN} * (30 + v % 40) * ${INTERVALO} / 3.6, ${somaN * INTERVALO}, 0, 0, ${86_400 - somaN * INTERVALO}, ${VIAGENS_DIA}, 30 + v % 40, 0, 0
    from generate_series(0, $4::int - 1) v cross join generate_series(0, $5::int - 1) d`,
  [inicio.toISOString(), empresa, ativos, VEICULOS, DIAS]);
  await pool.query('analyze telemetria.posicao');
  await pool.query('analyze telemetria.viagem');
  await pool.query('analyze telemetria.total_diario');
  const cargaTot = performance.now() - t1;
  const total = Number((await pool.query('select count(*)::bigint as n from telemetria.posicao')).rows[0].n);
  const viagensTotal = VEICULOS * DIAS * VIAGENS_DIA;
  console.log(`Banco: ${database.embedded ? 'PostgreSQL embutido (temporário)' : 'temporário em BENCH_DATABASE_URL'}; CPUs: ${os.cpus().length}; carga do sistema (1/5/15 min): ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')}`);
  console.log(`${int(total)} posições de ${int(VEICULOS)} veículos em ${DIAS} dias (uma a cada ${INTERVALO} s) geradas em ${s1(cargaPos)}; ${int(viagensTotal)} viagens e ${int(VEICULOS * DIAS)} totais diários em ${s1(cargaTot)}`);
  check(total === VEICULOS * DIAS * porDia, `${total} posições, esperadas ${VEICULOS * DIAS * porDia}`);

  // ---------- the API, as the screen calls it ----------
  const base = server.base;
  const login = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: ADMIN_PASSWORD }) })).json();
  const headers = { authorization: `Bearer ${login.payload.token}` };
  const enc = (x: unknown) => encodeURIComponent(JSON.stringify(x));
  const periodo = (dias: number) => ({ inicio: diaIso(DIAS - dias), fim: hoje.toISOString() });
  const query = (params: Record<string, unknown>, extra = '') => `params=${enc(params)}&fuso=${encodeURIComponent(FUSO)}${extra}`;
  const pagina = async (tipo: string, params: Record<string, unknown>) => {
    const r = await fetch(`${base}/api/relatorios/viagem/${tipo}?${query(params, `&range=${enc([0, 999])}`)}`, { headers });
    const body = await r.text();
    if (r.status !== 200) throw new Error(`${tipo}: HTTP ${r.status} ${body.slice(0, 300)}`);
    const m = /\/(\d+)$/.exec(r.headers.get('content-range') ?? '');
    return { rows: JSON.parse(body) as Record<string, unknown>[], total: m ? Number(m[1]) : Number.NaN };
  };
  const todos = { periodo: periodo(DIAS) };
  const api: { mensal: number; detalhado: number }[] = [];
  let mensal!: Awaited<ReturnType<typeof pagina>>, detalhado!: Awaited<ReturnType<typeof pagina>>;
  for (let i = 0; i <= RODADAS; i++) {
    const [a, x] = await timed(() => pagina('mensal_ativo', todos));
    const [b, y] = await timed(() => pagina('detalhado', todos));
    mensal = x; detalhado = y;
    if (i > 0) api.push({ mensal: a, detalhado: b }); // the first round warms plans and caches
  }

  const mMensal = median(api.map((x) => x.mensal)), mDet = median(api.map((x) => x.detalhado));
  console.log(`\nAPI (mediana de ${RODADAS}): resumo mensal de todos os veículos (viagem/mensal_ativo, dos totais diários; ${int(mensal.total)} linhas, a 1ª página de ${mensal.rows.length}) ${s1(mMensal)} ${meta(mMensal < 1000, '< 1 s')};`
    + ` viagens detalhadas de todos os veículos (viagem/detalhado, das viagens guardadas; ${int(detalhado.total)} viagens, a 1ª página de ${detalhado.rows.length}) ${s1(mDet)} ${meta(mDet < 5000, '< 5 s')}`);

  // ---------- exports: XLSX of 100,000 rows, PDF of 10,000 ----------
  const pid = server.proc.pid!;
  const exporta = async (formato: 'xlsx' | 'pdf', params: Record<string, unknown>) => {
    await new Promise((r) => setTimeout(r, 500));
    const rssBase = rssMb(pid);
    let pico = rssBase;
    const amostra = setInterval(() => { pico = Math.max(pico, rssMb(pid)); }, 50);
    const t = performance.now();
    try {
      const r = await fetch(`${base}/api/relatorios/viagem/detalhado/exporta?${query(params, `&formato=${formato}`)}`, { headers });
      if (r.status !== 200) throw new Error(`exporta ${formato}: HTTP ${r.status} ${(await r.text()).slice(0, 300)}`);
      let bytes = 0;
      let inicioArq = '';
      for await (const chunk of r.body!) {
        if (!bytes) inicioArq = Buffer.from(chunk as Uint8Array).subarray(0, 5).toString('latin1');
        bytes += (chunk as Uint8Array).byteLength;
      }
      return { ms: performance.now() - t, bytes, linhas: Number(r.headers.get('x-total-count')), rssBase, pico: Math.max(pico, rssMb(pid)), inicioArq };
    } finally {
      clearInterval(amostra);
    }
  };
  const diasXlsx = Math.max(1, Math.min(DIAS, Math.floor(XLSX_LINHAS / (VEICULOS * VIAGENS_DIA))));
  const xlsx = await exporta('xlsx', { periodo: periodo(diasXlsx) });
  check(xlsx.linhas === VEICULOS * diasXlsx * VIAGENS_DIA && xlsx.inicioArq.startsWith('PK'), `XLSX: ${xlsx.linhas} linhas, início ${JSON.stringify(xlsx.inicioArq)}`);
  const pdfAtivos = Math.min(VEICULOS, 100);
  const diasPdf = Math.max(1, Math.min(DIAS, Math.floor(PDF_LINHAS / (pdfAtivos * VIAGENS_DIA))));
  const pdf = await exporta('pdf', { periodo: periodo(diasPdf), ativos: ativos.slice(0, pdfAtivos) });
  check(pdf.linhas === pdfAtivos * diasPdf * VIAGENS_DIA && pdf.inicioArq === '%PDF-', `PDF: ${pdf.linhas} linhas, início ${JSON.stringify(pdf.inicioArq)}`);
  const mb = (n: number) => `${n.toFixed(0)} MB`;
  console.log(`XLSX do detalhado, ${int(xlsx.linhas)} linhas (${diasXlsx} dias), ${(xlsx.bytes / 1e6).toFixed(1)} MB transmitidos: ${s1(xlsx.ms)} ${meta(xlsx.ms < 10_000, '< 10 s')}; memória do servidor ${mb(xlsx.rssBase)} → pico ${mb(xlsx.pico)} (+${mb(xlsx.pico - xlsx.rssBase)}) ${meta(xlsx.pico < 300, 'pico < 300 MB')}`);
  console.log(`PDF do detalhado, ${int(pdf.linhas)} linhas (${pdfAtivos} veículos, ${diasPdf} dias), ${(pdf.bytes / 1e6).toFixed(1)} MB: ${s1(pdf.ms)} ${meta(pdf.ms < 20_000, '< 20 s')}; memória do servidor ${mb(pdf.rssBase)} → pico ${mb(pdf.pico)}`);
  // ---------- the same aggregations over the raw positions ----------
  const passos = `select p.serial, p.ativo_id, p.fix_time, p.speed, (p.ignition and p.speed > 0) as mov,
      lag(p.ignition and p.speed > 0) over w as mov0,
      case when lag(p.ignition and p.speed > 0) over w and p.ignition and p.speed > 0
        then 2 * ${R} * asin(sqrt(sin(radians(p.lat - lag(p.lat) over w) / 2) ^ 2
          + cos(radians(lag(p.lat) over w)) * cos(radians(p.lat)) * sin(radians(p.lon - lag(p.lon) over w) / 2) ^ 2))
        else 0 end as metros,
      case when lag(p.ignition and p.speed > 0) over w and p.ignition and p.speed > 0 then extract(epoch from p.fix_time - lag(p.fix_time) over w) else 0 end as segundos
    from telemetria.posicao p
    where p.empresa_id = $1 and p.fix_time >= $2 and p.fix_time < $3
    window w as (partition by p.serial order by p.fix_time)`;
  // both at once (one connection each): each reads every position
  console.log('\nAgregações sobre as posições (SQL puro; as duas ao mesmo tempo, uma conexão cada)…');
  const [[brutoMensalMs, brutoMensal], [brutoDetMs, brutoDet]] = await Promise.all([timed(() => pool.query(`with s as (${passos})
    select ativo_id, to_char(fix_time at time zone '${FUSO}', 'YYYY-MM') as mes,
      count(*) filter (where mov and not coalesce(mov0, false))::int as viagens, sum(metros) as distancia, sum(segundos)::bigint as conducao,
      max(speed) filter (where mov) as vmax
    from s group by 1, 2 order by 1, 2`, [empresa, inicio.toISOString(), hoje.toISOString()])), timed(() => pool.query(`with s as (${passos}),
      n as (select *, count(*) filter (where mov and not coalesce(mov0, false)) over (partition by serial order by fix_time) as viagem from s)
    select serial, ativo_id, min(fix_time) as inicio, max(fix_time) as fim, sum(metros) as distancia, max(speed) as vmax, count(*) over () as total
    from n where mov group by serial, ativo_id, viagem order by inicio, serial limit 1000`, [empresa, inicio.toISOString(), hoje.toISOString()]))]);

  // the reports' numbers are the raw positions' numbers
  const bruto = new Map(brutoMensal.rows.map((r) => [`${r.ativo_id}|${r.mes}`, r]));
  check(brutoMensal.rows.reduce((s, r) => s + Number(r.viagens), 0) === viagensTotal, 'viagens por mês das posições ≠ viagens geradas');
  check(mensal.rows.length > 0 && mensal.total === brutoMensal.rowCount, `linhas do mensal: API ${mensal.total}, posições ${brutoMensal.rowCount}`);
  for (const row of mensal.rows) {
    const b = bruto.get(String(row.id));
    check(!!b, `mês ${row.id} ausente das posições`);
    check(Number(row.qtdViagens) === Number(b!.viagens), `viagens de ${row.id}: API ${row.qtdViagens}, posições ${b!.viagens}`);
    check(Math.abs(Number(row.distancia) - Number(b!.distancia) / 1000) <= 0.01 + 1e-4 * Number(row.distancia), `distância de ${row.id}: API ${row.distancia}, posições ${Number(b!.distancia) / 1000}`);
    check(Math.abs(Number(row.tempoConducaoHoras) - Number(b!.conducao) / 3600) <= 0.01, `condução de ${row.id}`);
  }
  check(detalhado.total === viagensTotal && Number(brutoDet.rows[0]?.total) === viagensTotal, `viagens do detalhado: API ${detalhado.total}, posições ${brutoDet.rows[0]?.total}, geradas ${viagensTotal}`);

  console.log(`\nResumo mensal de todos os veículos (viagem/mensal_ativo, dos totais diários; ${int(mensal.total)} linhas, a 1ª página de ${mensal.rows.length}; mediana de ${RODADAS}):`);
  console.log(`  API ${s1(mMensal)} · a mesma agregação sobre as ${int(total)} posições (SQL puro) ${s1(brutoMensalMs)} → ${(brutoMensalMs / mMensal).toFixed(0)}× mais rápido ${meta(mMensal < 1000, '< 1 s')}`);
  console.log(`Viagens detalhadas de todos os veículos (viagem/detalhado, das viagens guardadas; ${int(detalhado.total)} viagens, a 1ª página de ${detalhado.rows.length}):`);
  console.log(`  API ${s1(mDet)} · as mesmas viagens calculadas das posições (SQL puro) ${s1(brutoDetMs)} → ${(brutoDetMs / mDet).toFixed(0)}× mais rápido ${meta(mDet < 5000, '< 5 s')}`);

  console.log(JSON.stringify({
    veiculos: VEICULOS, dias: DIAS, intervaloS: INTERVALO, posicoes: total, viagens: viagensTotal, cargaS: Math.round((cargaPos + cargaTot) / 1000), rodadas: RODADAS,
    mensal: { linhas: mensal.total, apiMs: Math.round(mMensal), brutoMs: Math.round(brutoMensalMs), razao: +(brutoMensalMs / mMensal).toFixed(1) },
    detalhado: { linhas: detalhado.total, apiMs: Math.round(mDet), brutoMs: Math.round(brutoDetMs), razao: +(brutoDetMs / mDet).toFixed(1) },
    xlsx: { linhas: xlsx.linhas, ms: Math.round(xlsx.ms), bytes: xlsx.bytes, rssBaseMb: Math.round(xlsx.rssBase), rssPicoMb: Math.round(xlsx.pico) },
    pdf: { linhas: pdf.linhas, ms: Math.round(pdf.ms), bytes: pdf.bytes, rssPicoMb: Math.round(pdf.pico) },
    cpus: os.cpus().length, carga: os.loadavg(),
  }));
  await pool.end();
} finally {
  await server?.stop();
  await database?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
