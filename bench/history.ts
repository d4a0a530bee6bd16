// npm run bench:history — the replay's reads at scale, against the real server (its own process) and the plain SQL of
// the same rows in the same run:
//   BENCH_POSICOES (50,000,000) positions of BENCH_DISPOSITIVOS (1,000) devices over the last 30 days (one fix every
//   30 days × devices ÷ positions, moving), in telemetria.posicao (monthly partitions, in time order as the gateway
//   writes), with a trip, a stop and two events a day per device;
//   BENCH_ATIVOS_AO_VIVO (10,000) vehicles with a latest state.
// Measured (median of BENCH_RODADAS, 5):
//   - the 30-day track of one asset: GET /api/historico/trajetos (all fixes, no zoom: every position of the period,
//     plus its trips, stops, events and totals) against the plain SQL query of the same positions (pg, the same
//     columns, rows fetched) — target ≤ 1.5× and under 300 ms; also the same call simplified for zoom 12 (what the
//     screen asks for a whole-track view);
//   - the live state of every vehicle as the live map loads it (URL_AO_VIVO: its 13 columns as a table, read back
//     into objects) while the fleet reports — BENCH_REPORTES_S (333) states a second written as the gateway does, every
//     vehicle each 30 s — and an operator has the map open (a socket in the live room: the pushes keep the server's
//     kept list current) — target under 50 ms; also with nobody watching (only the load reads what changed), the
//     first load (nothing kept: server/read/snapshot.ts), unchanged, and every column as objects.
// Database: a temp one on BENCH_DATABASE_URL / DATABASE_URL, else embedded PostgreSQL (the data stays in the OS temp
// dir until the end; 50 M positions take ~10 GB).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchDatabase, type BenchDatabase } from './db.ts';
import { ROOT, startServer, type BenchServer } from './server.ts';
import { median } from './stats.ts';
import { io as ioClient } from 'socket.io-client';
import { COLUNAS_AO_VIVO, PUSH_EVENT, URL_AO_VIVO } from '../modules/rastreamento/screens/estado.ts';
import { SOCKET_PATH } from '../server/realtime/index.ts';
import { linhasDe, type Tabela } from '../shared/tabela.ts';

const POSICOES = Number(process.env.BENCH_POSICOES ?? 50_000_000);
const DISPOSITIVOS = Number(process.env.BENCH_DISPOSITIVOS ?? 1_000);
const AO_VIVO = Number(process.env.BENCH_ATIVOS_AO_VIVO ?? 10_000);
const RODADAS = Number(process.env.BENCH_RODADAS ?? 5);
const REPORTES_S = Number(process.env.BENCH_REPORTES_S ?? 333);
const CARGAS = Number(process.env.BENCH_CARGAS ?? 15);
const DIAS = 30;
const ADMIN_PASSWORD = 'bench-history-admin-123';
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-history-'));
fs.chmodSync(tmp, 0o755);
let database: BenchDatabase | undefined;
let server: BenchServer | undefined;

const ms = (n: number) => `${n.toFixed(1)} ms`;
async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}

try {
  database = await benchDatabase('history', tmp);
  server = await startServer({ url: database.url, dataDir: path.join(tmp, 'data'), adminPassword: ADMIN_PASSWORD, env: { DEMO: 'off' } });
  const db = new pg.Client({ connectionString: database.url });
  db.on('error', () => undefined);
  await db.connect();
  const empresa = Number((await db.query(`select empresa_ativa from usuario where login = 'admin'`)).rows[0].empresa_ativa);
  const seed = spawnSync(process.execPath, [TSX, 'server/seed/demo.ts', '--ativos', String(Math.max(AO_VIVO, DISPOSITIVOS)), '--empresa', String(empresa)], { cwd: ROOT, env: { ...process.env, DATABASE_URL: database.url }, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`seed:demo falhou: ${seed.stderr}`);
  const ativos = (await db.query(`select id from ativo where empresa_id = $1 order by id limit $2`, [empresa, Math.max(AO_VIVO, DISPOSITIVOS)])).rows.map((r) => Number(r.id));

  // Positions: device i drives around its own point (a slow circle), one fix every `passo` seconds, ignition on
  // from 6 to 20 h; coordinates with 6 decimals, as the trackers send them. Written in time order, as the gateway
  // writes them (each instant's fixes of every device, then the next instant), so one asset's month lies spread over
  // the table's pages as in production, not packed together.
  // The partitions are made unlogged for the load: no WAL for ~10 GB of rows (the reads measured are the same).
  const porDispositivo = Math.floor(POSICOES / DISPOSITIVOS);
  const passo = (DIAS * 86_400) / porDispositivo;
  const t0 = performance.now();
  const fim = new Date();
  const inicio = new Date(fim.getTime() - DIAS * 86_400_000);
  const particoes = (await db.query(`select inhrelid::regclass::text as t from pg_inherits where inhparent = 'telemetria.posicao'::regclass`)).rows.map((r) => String(r.t));
  for (const t of particoes) await db.query(`alter table ${t} set unlogged`);
  // The primary key and the index are built after the load (as CREATE INDEX does: sorted, leaves full) instead of
  // grown by 50 M inserts in time order (~1 M rows a minute here); their definitions are the migrations' own.
  const chave = (await db.query(`select conname, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'telemetria.posicao'::regclass and contype = 'p'`)).rows[0] as { conname: string; def: string };
  const indices = (await db.query(`select pg_get_indexdef(i.indexrelid) as def, c.relname as nome from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = 'telemetria.posicao'::regclass and not i.indisprimary`)).rows as { def: string; nome: string }[];
  for (const x of indices) await db.query(`drop index telemetria.${x.nome}`);
  await db.query(`alter table telemetria.posicao drop constraint ${chave.conname}`);
  const PASSOS = Math.max(1, Math.floor(2_000_000 / DISPOSITIVOS));
  for (let k0 = 0; k0 < porDispositivo; k0 += PASSOS) {
    const k1 = Math.min(porDispositivo, k0 + PASSOS) - 1;
    // `lateral … 0 * k`: the devices loop inside the instants loop (time order)
    await db.query(`insert into telemetria.posicao (serial, fix_time, tipo, received_at, empresa_id, ativo_id, lat, lon, speed, course, valid, satellites, ignition, buffered, attributes)
      select 'HIST' || lpad(d::text, 6, '0'), t, 'GTFRI', t, $3, ($4::int[])[d + 1],
             round((-23.5 + (d % 40) * 0.05 + 0.02 * sin(k / 500.0))::numeric, 6), round((-46.6 + (d / 40) * 0.05 + 0.02 * cos(k / 500.0))::numeric, 6),
             case when h between 6 and 19 then 20 + (k % 60) else 0 end, (k % 360), true, 9, h between 6 and 19, false,
             jsonb_build_object('odometer', round((d * 1000 + k * 0.4)::numeric, 1), 'power', 12.6, 'gsmSignal', 3)
      from generate_series($5::int, $6::int) k
      cross join lateral (select $1::timestamptz + k * make_interval(secs => $2) as t) i
      cross join lateral (select extract(hour from i.t at time zone 'America/Sao_Paulo')::int as h) j
      cross join lateral generate_series(0 * k, $7::int - 1) d`,
      [inicio.toISOString(), passo, empresa, ativos.slice(0, DISPOSITIVOS), k0, k1, DISPOSITIVOS]);
    process.stderr.write(`\r${((k1 + 1) * DISPOSITIVOS).toLocaleString('pt-BR')}/${(porDispositivo * DISPOSITIVOS).toLocaleString('pt-BR')} posições`);
  }
  process.stderr.write('\n');
  await db.query(`set maintenance_work_mem = '1GB'`);
  await db.query(`alter table telemetria.posicao add constraint ${chave.conname} ${chave.def}`);
  // (the partitioned index's definition says ON ONLY: here it is built on every partition, as the migration did)
  for (const x of indices) await db.query(x.def.replace(' ON ONLY ', ' ON '));
  // The trips, stops and events the replay reads beside the positions: one trip a day (6–20 h), the night's stop,
  // ignition on and off.
  await db.query(`insert into telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
    select 'HIST' || lpad(d::text, 6, '0'), dia + interval '6 hours', dia + interval '20 hours', $1, ($2::int[])[d + 1],
           -23.5 + (d % 40) * 0.05, -46.6 + (d / 40) * 0.05, -23.5 + (d % 40) * 0.05, -46.6 + (d / 40) * 0.05, 690, 50400, 79, 49.3, 1800
    from generate_series(0, $3::int - 1) d
    cross join generate_series(date_trunc('day', $4::timestamptz at time zone 'America/Sao_Paulo') at time zone 'America/Sao_Paulo', $5::timestamptz - interval '20 hours', interval '1 day') dia`,
    [empresa, ativos.slice(0, DISPOSITIVOS), DISPOSITIVOS, inicio.toISOString(), fim.toISOString()]);
  await db.query(`insert into telemetria.parada (serial, inicio, fim, empresa_id, ativo_id, lat, lon, duracao, ignicao, tempo_ligado)
    select serial, fim, fim + interval '10 hours', empresa_id, ativo_id, lat_fim, lon_fim, 36000, false, 0 from telemetria.viagem where serial like 'HIST%'`);
  await db.query(`insert into telemetria.evento (serial, fix_time, code, key, description, empresa_id, ativo_id, lat, lon, speed)
    select serial, inicio, 'GTIGN', 'ignitionOn', 'Ignição ligada', empresa_id, ativo_id, lat_inicio, lon_inicio, 0 from telemetria.viagem where serial like 'HIST%'
    union all
    select serial, fim, 'GTIGF', 'ignitionOff', 'Ignição desligada', empresa_id, ativo_id, lat_fim, lon_fim, 0 from telemetria.viagem where serial like 'HIST%'`);
  // vacuum: the visibility map autovacuum keeps for an insert-only table (what lets the replay read the covering index
  // without visiting the table); analyze: the planner's statistics
  await db.query('vacuum analyze telemetria.posicao');
  await db.query('analyze telemetria.viagem; analyze telemetria.parada; analyze telemetria.evento');
  const total = Number((await db.query('select count(*)::bigint as n from telemetria.posicao')).rows[0].n);
  const carga = performance.now() - t0;

  // Latest states: every vehicle, near São Paulo, with what a tracker reports (6 decimals, speed in tenths, course in
  // degrees, altitude, battery, power) and a driver on every other one.
  await db.query(`insert into telemetria.ultimo_estado (serial, empresa_id, ativo_id, motorista_id, protocolo, modelo, fix_time, lat, lon, speed, course, altitude, valid, ignition, battery, power, ultimo_tipo, ultimo_evento, ultima_comunicacao, attributes)
    select 'VIVO' || lpad(n::text, 6, '0'), $1, a, case when n % 2 = 0 then (select id from motorista where empresa_id = $1 order by id offset (n / 2) % greatest(1, (select count(*) from motorista where empresa_id = $1)) limit 1) end,
      'queclink', 'GV350CEU', now(), round((-23.5 + random())::numeric, 6), round((-46.6 + random())::numeric, 6), round((random() * 90)::numeric, 1), floor(random() * 360), 760, true, true, 100, 12.6, 'GTFRI', 'Posição', now(),
      jsonb_build_object('odometer', floor(random() * 500000), 'hours', floor(random() * 9000), 'satellites', 9)
    from unnest($2::int[]) with ordinality u(a, n)`, [empresa, ativos.slice(0, AO_VIVO)]);
  await db.query('analyze telemetria.ultimo_estado');
  console.log(`Banco: ${database.embedded ? 'PostgreSQL embutido (temporário)' : 'servidor'}; CPUs: ${os.cpus().length}; ${total.toLocaleString('pt-BR')} posições de ${DISPOSITIVOS} dispositivos em ${DIAS} dias (uma a cada ${passo.toFixed(0)} s) carregadas em ${(carga / 1000).toFixed(0)} s; ${AO_VIVO} veículos com estado`);

  const base = server.base;
  const login = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: ADMIN_PASSWORD }) })).json();
  const headers = { authorization: `Bearer ${login.payload.token}` };
  const get = async (p: string) => {
    const r = await fetch(base + p, { headers });
    const body = await r.text();
    if (r.status !== 200) throw new Error(`${p}: ${r.status} ${body.slice(0, 300)}`);
    return JSON.parse(body);
  };
  // The plain SQL: the same positions with the columns the replay reads, in its order (so from the same covering
  // index), as the table's owner, rows fetched.
  const sql = `select p.ativo_id, p.fix_time, p.lat, p.lon, p.speed, p.course, p.ignition, p.rpm
    from telemetria.posicao p where p.empresa_id = $1 and p.ativo_id = any($2) and p.fix_time >= $3 and p.fix_time <= $4
    order by p.ativo_id, p.fix_time, p.serial, p.tipo`;

  const rodadas: { api: number; zoom: number; sql: number; fixos: number; simplificados: number; linhas: number }[] = [];
  for (let i = 0; i < RODADAS + 1; i++) {
    const ativo = ativos[(i * 97) % DISPOSITIVOS]!;
    const q = `ativos=${ativo}&inicio=${encodeURIComponent(inicio.toISOString())}&fim=${encodeURIComponent(fim.toISOString())}`;
    const [sqlMs, r] = await timed(() => db.query(sql, [empresa, [ativo], inicio.toISOString(), fim.toISOString()]));
    const [apiMs, a] = await timed(() => get(`/api/historico/trajetos?${q}`));
    const [zoomMs, z] = await timed(() => get(`/api/historico/trajetos?${q}&zoom=12`));
    const pontos = (x: { payload: { ativos: { pontos: unknown[] }[] } }) => x.payload.ativos.reduce((n, t) => n + t.pontos.length, 0);
    const [fixos, simplificados] = [pontos(a), pontos(z)];
    // the first round warms caches and plans
    if (i > 0) rodadas.push({ api: apiMs, zoom: zoomMs, sql: sqlMs, fixos, simplificados, linhas: r.rowCount ?? 0 });
  }

  // The live state. The map's load: the call and its rows as objects, as the screen reads them.
  const mapa = async () => linhasDe((await get(URL_AO_VIVO)).payload as Tabela);
  const [primeira, frota] = await timed(mapa);
  // The fleet reporting as the gateway writes: a statement every 100 ms with the states of REPORTES_S / 10 vehicles.
  const seriais = (await db.query(`select serial from telemetria.ultimo_estado where serial like 'VIVO%'`)).rows.map((x) => String(x.serial));
  let reportando = true;
  let reportes = 0;
  const gateway = (async () => {
    const w = new pg.Client({ connectionString: database!.url });
    await w.connect();
    for (let k = 0; reportando; k++) {
      const lote = Array.from({ length: Math.max(1, Math.round(REPORTES_S / 10)) }, () => seriais[Math.floor(Math.random() * seriais.length)]!);
      await w.query(`update telemetria.ultimo_estado set lat = round((lat + 0.0001)::numeric, 6), speed = round((random() * 90)::numeric, 1),
        fix_time = now(), ultima_comunicacao = now() where serial = any($1)`, [lote]);
      reportes += lote.length;
      await new Promise((res) => setTimeout(res, 100));
    }
    await w.end();
  })();
  const cargas = async (intervalo: number) => {
    const xs: number[] = [];
    for (let k = 0; k < CARGAS; k++) {
      await new Promise((res) => setTimeout(res, intervalo * (0.5 + Math.random())));
      xs.push((await timed(mapa))[0]);
    }
    return median(xs);
  };
  // An operator with the map open: its socket in the company's live room (what the screen joins).
  const operador = ioClient(base, { path: SOCKET_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: login.payload.token } });
  let empurrados = 0;
  operador.on(PUSH_EVENT, (m: { rows: unknown[] }) => { empurrados += m.rows.length; });
  await new Promise<void>((res, rej) => { operador.once('connect', () => res()); operador.once('connect_error', rej); });
  const entrou = await operador.timeout(30_000).emitWithAck('join_room', empresa);
  if (entrou?.status !== 200) throw new Error(`join_room: ${JSON.stringify(entrou)}`);
  await new Promise((res) => setTimeout(res, 2000));
  const vivo = await cargas(300);
  operador.disconnect();
  await new Promise((res) => setTimeout(res, 1000));
  const sozinho = await cargas(1000);
  reportando = false;
  await gateway;
  const igual = await cargas(50);
  const todas: number[] = [];
  for (let k = 0; k < 5; k++) todas.push((await timed(() => get('/api/rastreamento/ultimo_estado')))[0]);
  const tudo = median(todas);
  // How PostgreSQL reads one asset's month (index-only scan, heap fetches, pages read): the figure's explanation
  const plano = (await db.query(`explain (analyze, buffers, format json) ${sql}`, [empresa, [ativos[0]!], inicio.toISOString(), fim.toISOString()])).rows[0]['QUERY PLAN'][0];
  const nos: string[] = [];
  const walk = (n: Record<string, any>) => {
    if (/Scan/.test(n['Node Type'])) nos.push(`${n['Node Type']}${n['Index Name'] ? ` (${n['Index Name']})` : ''}: ${n['Actual Rows']} linhas, ${n['Heap Fetches'] ?? '–'} leituras da tabela, páginas ${n['Shared Hit Blocks']} em cache / ${n['Shared Read Blocks']} lidas`);
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(plano.Plan);
  await db.end();
  const m = (k: keyof (typeof rodadas)[number]) => median(rodadas.map((x) => x[k]));
  const razao = m('api') / m('sql');
  console.log(`Trajeto de 30 dias de um ativo (${m('linhas')} posições; mediana de ${RODADAS}):`);
  console.log(`  SQL puro ${ms(m('sql'))} · API completa ${ms(m('api'))} (${m('fixos')} pontos) → ${razao.toFixed(2)}× ${razao <= 1.5 && m('api') < 300 ? '✓ meta ≤ 1,5× e < 300 ms' : '✗ fora da meta (≤ 1,5× e < 300 ms)'}`);
  console.log(`  API simplificada para o zoom 12: ${ms(m('zoom'))} (${m('simplificados')} pontos)`);
  console.log(`  Plano do SQL puro (${plano['Execution Time'].toFixed(1)} ms no PostgreSQL):\n    ${nos.join('\n    ')}`);
  console.log(`Estado ao vivo de ${frota.length} veículos como o mapa carrega (${COLUNAS_AO_VIVO.length} colunas, mediana de ${CARGAS} cargas) com a frota reportando (${REPORTES_S} estados/s; ${reportes} escritos, ${empurrados} empurrados ao operador):`);
  console.log(`  com um operador com o mapa aberto ${ms(vivo)} ${vivo < 50 ? '✓ meta < 50 ms' : '✗ acima da meta de 50 ms'} · ninguém olhando, uma carga por segundo ${ms(sozinho)}`);
  console.log(`  primeira carga (nada guardado) ${ms(primeira)} · sem alteração ${ms(igual)} · todas as colunas, como objetos ${ms(tudo)}`);
  console.log(JSON.stringify({ posicoes: total, dispositivos: DISPOSITIVOS, cargaS: Math.round(carga / 1000), rodadas: RODADAS, trajeto: { posicoes: m('linhas'), sqlMs: +m('sql').toFixed(1), apiMs: +m('api').toFixed(1), razao: +razao.toFixed(2), zoom12Ms: +m('zoom').toFixed(1), zoom12Pontos: m('simplificados') }, aoVivo: { veiculos: frota.length, reportesPorS: REPORTES_S, ms: +vivo.toFixed(1), ninguemOlhandoMs: +sozinho.toFixed(1), primeiraMs: +primeira.toFixed(1), semAlteracaoMs: +igual.toFixed(1), todasColunasMs: +tudo.toFixed(1) }, cpus: os.cpus().length, carga: os.loadavg() }));
} finally {
  await server?.stop();
  // BENCH_MANTER=1 keeps the database to look into (its URL printed)
  if (!process.env.BENCH_MANTER) await database?.close(); else console.log(`Banco mantido: ${database?.url}`);
  fs.rmSync(tmp, { recursive: true, force: true });
}
