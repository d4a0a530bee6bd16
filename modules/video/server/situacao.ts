// Cameras' online state pushed, not polled by each screen: one worker per API process asks the CMSV6 server
// (getDeviceOlStatus, one call for every watched company's cameras) every CMSV6_STATUS_POLL_MS (default 10 s, `off`
// stops it) and pushes `video_situacao` through socket.io to this process's sockets of a company whose session holds a
// video key — a socket gets it when it differs from what it got last (a newly joined one at the next read). Companies nobody watches are not asked for (no CMSV6 load when
// no screen is open); each process serves its own sockets (as the fleet counters do), so more processes behind one
// address each ask for their own watchers.
import type { Socket } from 'socket.io';
import type { ModuleStart } from '../../../server/core/module.ts';
import type { Session } from '../../../server/app/env.ts';
import { can } from '../../../server/auth/users.ts';
import { ofCompany } from '../../../shared/scope-sql.ts';
import { Cmsv6Error, clienteDe, configFromEnv } from './cmsv6.ts';
import { cameras } from './alarmes.ts';

import { CHAVES_VIDEO, EVENTO_SITUACAO, type SituacaoVideo } from '../situacao-evento.ts';

export function statusPollMs(): number | null {
  const v = process.env.CMSV6_STATUS_POLL_MS;
  if (v === 'off' || v === '0') return null;
  return Number(v) > 0 ? Number(v) : 10_000;
}

/** This process's sockets watching video, by company: in the company room, that company active, a video key held. */
function observadores(m: Pick<ModuleStart, 'io'>): Map<number, Socket[]> {
  const out = new Map<number, Socket[]>();
  const ns = m.io.of('/');
  for (const [sala, ids] of ns.adapter.rooms) {
    if (!sala.startsWith('empresa:')) continue;
    const empresa = Number(sala.slice(8));
    for (const id of ids) {
      const socket = ns.sockets.get(id);
      const s = socket?.data.session as Session | undefined;
      if (!socket || !s || s.empresaAtiva !== empresa || !CHAVES_VIDEO.some((k) => can(s, k))) continue;
      out.set(empresa, [...(out.get(empresa) ?? []), socket]);
    }
  }
  return out;
}

export function startSituacao(m: Pick<ModuleStart, 'io' | 'exec' | 'log'>): { stop: () => Promise<void>; tick: () => Promise<void> } {
  const every = statusPollMs();
  /** What each socket got last (by socket id): a socket gets the state when it differs, a new one at once. */
  const enviado = new Map<string, string>();
  let ultimoErro = '';
  let busy: Promise<unknown> = Promise.resolve();
  let parado = false;
  const lê = async () => {
    const cfg = configFromEnv();
    if (parado || !cfg) return;
    const obs = observadores(m);
    const vivos = new Set([...obs.values()].flat().map((x) => x.id));
    for (const id of enviado.keys()) if (!vivos.has(id)) enviado.delete(id);
    if (!obs.size) return;
    const cams = (await cameras(m)).filter((c) => c.ativoId !== null && obs.has(c.empresaId));
    let online = new Map<string, boolean>();
    let erro: string | null = null;
    if (cams.length) {
      try {
        online = await clienteDe(cfg).online([...new Set(cams.map((c) => c.serial))]);
        if (ultimoErro) m.log.info({}, 'vídeo: situação dos equipamentos no CMSV6 restabelecida');
        ultimoErro = '';
      } catch (e) {
        erro = e instanceof Cmsv6Error ? e.message : 'Falha ao consultar o servidor de vídeo';
        if (erro !== ultimoErro) m.log.error({ err: (e as Error).message }, 'vídeo: falha ao ler a situação dos equipamentos');
        ultimoErro = erro;
      }
    }
    for (const [empresaId, sockets] of obs) {
      const msg: SituacaoVideo = {
        empresaId, erro,
        ativos: cams.filter((c) => ofCompany(c, empresaId)).map((c) => ({ id: c.ativoId!, serial: c.serial, online: erro ? null : online.get(c.serial) ?? false })),
      };
      const texto = JSON.stringify(msg);
      for (const s of sockets) {
        if (enviado.get(s.id) === texto) continue;
        enviado.set(s.id, texto);
        s.emit(EVENTO_SITUACAO, msg);
      }
    }
  };
  const tick = () => (busy = busy.then(lê).catch((e) => m.log.error({ err: (e as Error).message }, 'vídeo: falha na situação dos equipamentos')));
  if (!every || !configFromEnv()) return { stop: async () => undefined, tick: async () => undefined };
  const timer = setInterval(() => void tick(), every);
  timer.unref();
  return { stop: async () => { parado = true; clearInterval(timer); await busy; }, tick: () => tick() as Promise<void> };
}
