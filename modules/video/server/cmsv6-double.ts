// A local double of a CMSV6 (808gps) server for the tests: the web API's JSON shapes (login/logout, queryUserVehicle,
// getDeviceOlStatus, queryAlarmDetail, getVideoFileInfo on the device and on the server, realTimeVedio: a clip that reaches the server some time later) and the media server (HTTP-FLV /3/3 streamed
// live at the frame rate, HLS live playlist and MPEG-TS segments), both checking the jsession. Tests make it refuse
// (`falha`), forget its sessions (`expira`: the next call answers 5) and add alarms.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { horaCmsv6 } from './cmsv6.ts';
import { flvCabecalho, flvConfig, flvQuadro, flv, segmentoTs, PADRAO } from './midia.ts';

export interface Dispositivo { idno: string; placa: string; canais: number; online: boolean }
export interface AlarmeDublê { did: string; atp: number; stm: string; etm?: string; lat?: number; lng?: number; sp?: number; guid?: string }

export interface Cmsv6Double {
  url: string;
  port: number;
  account: string;
  password: string;
  dispositivos: Dispositivo[];
  alarmes: AlarmeDublê[];
  /** Calls per action name (with the jsession they carried). */
  chamadas: { nome: string; jsession?: string; params: Record<string, string> }[];
  /** Next calls of this action answer this result code (n times; Infinity by default). */
  falha(nome: string, code: number, vezes?: number): void;
  /** Forgets every session (the next call with an old jsession answers 5). */
  expira(): void;
  /** Login answers this code instead (1 user, 2 password, 3 disabled, 4 expired); null: normal. */
  loginFalha: number | null;
  /** Answers of this action wait this long (timeouts). */
  atraso: Record<string, number>;
  sessoes: Set<string>;
  /** Clips asked with realTimeVedio: on the server (getVideoFileInfo LOC 2) `clipeAtrasoMs` after the request
   *  (default 1000; Infinity: never — the time-out path). */
  clipes: { dev: string; chn: number; em: number; sec: number; prontoEm: number }[];
  clipeAtrasoMs: number;
  /** Open live FLV streams. */
  streamsAbertos(): number;
  stop(): Promise<void>;
}

export async function startCmsv6Double(o: { port?: number; dispositivos?: Dispositivo[]; account?: string; password?: string } = {}): Promise<Cmsv6Double> {
  const falhas = new Map<string, { code: number; vezes: number }>();
  const sessoes = new Set<string>();
  let n = 0;
  let abertos = 0;
  const inicio = Date.now();
  const d: Cmsv6Double = {
    url: '', port: 0, account: o.account ?? 'rastro', password: o.password ?? 'senha-cmsv6',
    dispositivos: o.dispositivos ?? [], alarmes: [], clipes: [], clipeAtrasoMs: 1000, chamadas: [], loginFalha: null, atraso: {}, sessoes,
    falha: (nome, code, vezes = Infinity) => { falhas.set(nome, { code, vezes }); },
    expira: () => sessoes.clear(),
    streamsAbertos: () => abertos,
    stop: async () => { server.closeAllConnections(); await new Promise<void>((r) => server.close(() => r())); },
  };
  const json = (res: http.ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const q = Object.fromEntries(u.searchParams);
    const api = /^\/StandardApiAction_(\w+)\.action$/.exec(u.pathname);
    if (api) {
      const nome = api[1]!;
      d.chamadas.push({ nome, jsession: q.jsession, params: q });
      if (d.atraso[nome]) await new Promise((r) => setTimeout(r, d.atraso[nome]));
      if (nome === 'login') {
        if (d.loginFalha) return json(res, { result: d.loginFalha });
        if (q.account !== d.account) return json(res, { result: 1 });
        if (q.password !== d.password) return json(res, { result: 2 });
        const js = `js${++n}${Math.random().toString(36).slice(2, 10)}`;
        sessoes.add(js);
        return json(res, { result: 0, jsession: js, account_name: d.account });
      }
      if (!q.jsession || !sessoes.has(q.jsession)) return json(res, { result: 5 });
      const f = falhas.get(nome);
      if (f && f.vezes > 0) { f.vezes--; return json(res, { result: f.code }); }
      const ids = (q.devIdno ?? q.DevIDNO ?? '').split(',').filter(Boolean);
      switch (nome) {
        case 'logout': sessoes.delete(q.jsession); return json(res, { result: 0 });
        case 'queryUserVehicle':
          return json(res, { result: 0, vehicles: d.dispositivos.map((x, i) => ({ id: i + 1, nm: x.placa, dl: [{ id: x.idno, cc: x.canais, cn: Array.from({ length: x.canais }, (_, k) => `CH${k + 1}`).join(','), md: 0 }] })) });
        case 'getDeviceOlStatus':
          return json(res, { result: 0, onlines: ids.map((id) => ({ did: id, vid: d.dispositivos.find((x) => x.idno === id)?.placa ?? '', online: d.dispositivos.find((x) => x.idno === id)?.online ? 1 : 0 })) });
        case 'queryAlarmDetail': {
          const tipos = new Set((q.armType ?? '').split(',').filter(Boolean).map(Number));
          const all = d.alarmes.filter((a) => ids.includes(a.did) && (!tipos.size || tipos.has(a.atp)) && a.stm >= (q.begintime ?? '') && a.stm <= (q.endtime ?? '9'));
          const per = Number(q.pageRecords) || 50, page = Number(q.currentPage) || 1;
          const rows = all.slice((page - 1) * per, page * per).map((a, i) => ({
            guid: a.guid ?? `${a.did}-${a.atp}-${a.stm}`, did: a.did, vid: d.dispositivos.find((x) => x.idno === a.did)?.placa, atp: a.atp,
            stm: a.stm, etm: a.etm ?? a.stm, sps: { lng: Math.round((a.lng ?? -46.63) * 1e6), lat: Math.round((a.lat ?? -23.55) * 1e6), sp: Math.round((a.sp ?? 40) * 10) },
            hd: 0, hdu: '', hdc: '', idx: i,
          }));
          return json(res, { result: 0, alarms: rows, pagination: { totalPages: Math.max(1, Math.ceil(all.length / per)), currentPage: page, pageRecords: per, totalRecords: all.length } });
        }
        case 'getVideoFileInfo': {
          const dev = q.DevIDNO!;
          if (!d.dispositivos.some((x) => x.idno === dev)) return json(res, { result: 19 });
          const y = Number(q.YEAR), m = Number(q.MON), dd = Number(q.DAY), beg = Number(q.BEG), chn = Number(q.CHN);
          const base = `http://127.0.0.1:${d.port}`;
          if (q.LOC === '2') {
            // the server's files: the clips uploaded by now, of that channel and day, starting in [BEG, END]
            const fim = Number(q.END);
            const files = d.clipes.filter((c) => c.dev === dev && c.chn === chn && c.prontoEm <= Date.now()).flatMap((c) => {
              const h = horaCmsv6(new Date(c.em));
              const [hh, mm, ss] = h.slice(11).split(':').map(Number);
              const b = hh! * 3600 + mm! * 60 + ss!;
              if (h.slice(0, 10) !== `${y}-${String(m).padStart(2, '0')}-${String(dd).padStart(2, '0')}` || b < beg || b > fim) return [];
              return [{ devIdno: dev, chn, beg: b, end: b + c.sec, year: y, mon: m, day: dd, file: `/server/clips/${dev}_${chn}_${c.em}.mp4`, len: 48000, type: 0, loc: 2 }];
            });
            return json(res, { result: 0, files });
          }
          const files = [0, 1].map((k) => {
            const b = beg + k * 300;
            const file = `/mnt/sd/${dev}_${chn}_${y}${String(m).padStart(2, '0')}${String(dd).padStart(2, '0')}_${b}.grec`;
            return { devIdno: dev, chn, beg: b, end: b + 120, year: y, mon: m, day: dd, file, len: 64000, type: 0, loc: 1,
              DownUrl: `${base}/3/5?DownType=3&jsession=${q.jsession}&DevIDNO=${dev}&FILELOC=1&FLENGTH=64000&FOFFSET=0&MTYPE=1&FPATH=${encodeURIComponent(file)}&SAVENAME=${encodeURIComponent(`${dev}_${chn}_${b}.flv`)}` };
          });
          return json(res, { result: 0, files });
        }
        case 'realTimeVedio':
          if (!d.dispositivos.some((x) => x.idno === q.DevIDNO)) return json(res, { result: 19 });
          if (!d.dispositivos.find((x) => x.idno === q.DevIDNO)!.online) return json(res, { result: 32 });
          d.clipes.push({ dev: q.DevIDNO!, chn: Number(q.Chn), em: Date.now(), sec: Number(q.Sec) || 10, prontoEm: Date.now() + d.clipeAtrasoMs });
          return json(res, { result: 0, seq: ++n });
        default: return json(res, { result: 7 });
      }
    }
    // media server
    if (!q.jsession || !sessoes.has(q.jsession)) { res.writeHead(403); return res.end(); }
    if (u.pathname === '/3/3') {
      const dev = d.dispositivos.find((x) => x.idno === q.DevIDNO);
      if (!dev || !dev.online) { res.writeHead(404); return res.end(); }
      res.writeHead(200, { 'content-type': 'video/x-flv', 'cache-control': 'no-cache' });
      abertos++;
      res.write(flvCabecalho()); res.write(flvConfig());
      let i = 0;
      const timer = setInterval(() => { res.write(flvQuadro(i++)); }, 1000 / PADRAO.fps);
      const end = () => { clearInterval(timer); abertos--; };
      res.once('close', end);
      return;
    }
    if (u.pathname === '/3/5') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(flv(50));
    }
    const hls = /^\/hls\/(1_[^/]+_\d+_\d)(?:\.m3u8|_(\d+)\.ts)$/.exec(u.pathname);
    if (hls) {
      if (u.pathname.endsWith('.m3u8')) {
        res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
        // a live window sliding with the clock: three 2 s segments, the first one the segment of now
        const seq = Math.floor((Date.now() - inicio) / 2000);
        return res.end(['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', `#EXT-X-MEDIA-SEQUENCE:${seq}`,
          ...[seq, seq + 1, seq + 2].flatMap((k) => ['#EXTINF:2.000,', `${hls[1]}_${k}.ts?jsession=${q.jsession}`]), ''].join('\n'));
      }
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      return res.end(segmentoTs(Number(hls[2]) * 50, 50));
    }
    res.writeHead(404); res.end();
  });
  await new Promise<void>((r) => server.listen(o.port ?? 0, '127.0.0.1', () => r()));
  d.port = (server.address() as AddressInfo).port;
  d.url = `http://127.0.0.1:${d.port}`;
  return d;
}
