// Clip tracking: a clip asked of a device (realTimeVedio, solicitacao_video tipo clipe, situacao solicitado) is
// followed by a worker of each API process until the device's upload shows on the CMSV6 server (getVideoFileInfo
// LOC 2, a file of that channel starting from the request on) — then disponível, with its file and size — or until
// CMSV6_CLIP_TIMEOUT_S passes (default 600) — then falhou, with the reason in pt-BR. Each change is pushed
// (`video_solicitacao`) to the sockets of the request's company whose session holds a download/history key: the
// download screen and the history list read it again, no polling in the browser. Checks every CMSV6_CLIP_POLL_MS
// (default 5000; `off` stops it); nothing pending, CMSV6 is not asked. Several processes: the state change is one
// UPDATE … WHERE situacao = 'solicitado' (one process wins); the winner pushes to its own sockets and, with the Redis
// adapter, to the other processes' (serverSideEmit).
import type { Socket } from 'socket.io';
import type { ModuleStart } from '../../../server/core/module.ts';
import type { Session } from '../../../server/app/env.ts';
import { can } from '../../../server/auth/users.ts';
import { clustered } from '../../../server/realtime/index.ts';
import { Cmsv6Error, clienteDe, configFromEnv, deHoraCmsv6, horaCmsv6 } from './cmsv6.ts';
import { CHAVES_SOLICITACAO, EVENTO_SOLICITACAO, type SolicitacaoVideoPush } from '../situacao-evento.ts';

export function clipPollMs(): number | null {
  const v = process.env.CMSV6_CLIP_POLL_MS;
  if (v === 'off' || v === '0') return null;
  return Number(v) > 0 ? Number(v) : 5000;
}
export const clipTimeoutS = () => (Number(process.env.CMSV6_CLIP_TIMEOUT_S) > 0 ? Number(process.env.CMSV6_CLIP_TIMEOUT_S) : 600);

/** The reason of a clip that never showed, in pt-BR (the last CMSV6 refusal, when there was one). */
export function motivoTempoEsgotado(segundos: number, ultimoErro?: string): string {
  const prazo = segundos % 60 === 0 ? `${segundos / 60} min` : `${segundos} s`;
  return `Tempo esgotado: o clipe não ficou disponível no servidor de vídeo em ${prazo}${ultimoErro ? ` (última resposta: ${ultimoErro})` : ''}`;
}
export const MSG_DISPONIVEL = 'Clipe disponível no servidor de vídeo';

/** This process's sockets of a company with a download/history key and that company active. */
function sockets(m: Pick<ModuleStart, 'io'>, empresa: number): Socket[] {
  const ns = m.io.of('/');
  return [...(ns.adapter.rooms.get(`empresa:${empresa}`) ?? [])].flatMap((id) => {
    const socket = ns.sockets.get(id);
    const s = socket?.data.session as Session | undefined;
    return socket && s && s.empresaAtiva === empresa && CHAVES_SOLICITACAO.some((k) => can(s, k)) ? [socket] : [];
  });
}

interface Pendente { id: number; empresa_id: number; serial: string; canal: number; inicio: string; fim: string; created_at: string }

export function startClipes(m: Pick<ModuleStart, 'io' | 'exec' | 'log'>): { stop: () => Promise<void>; tick: () => Promise<void> } {
  const every = clipPollMs();
  const local = (p: SolicitacaoVideoPush) => { for (const s of sockets(m, p.empresaId)) s.emit(EVENTO_SOLICITACAO, p); };
  const avisa = (p: SolicitacaoVideoPush) => { local(p); if (clustered(m.io as never)) m.io.serverSideEmit(EVENTO_SOLICITACAO, p); };
  /** The last CMSV6 refusal per request (the time-out's reason names it). */
  const ultimoErro = new Map<number, string>();
  let busy: Promise<unknown> = Promise.resolve();
  let parado = false;

  const muda = async (r: Pendente, situacao: 'disponivel' | 'falhou', mensagem: string, arquivo?: string, tamanho?: number) => {
    const up = await m.exec(`UPDATE solicitacao_video SET situacao = ?, mensagem = ?, arquivo = coalesce(?, arquivo), tamanho = coalesce(?, tamanho), updated_at = now()
      WHERE id = ? AND situacao = 'solicitado' RETURNING id`, [situacao, mensagem, arquivo ?? null, tamanho ?? null, r.id]);
    ultimoErro.delete(r.id);
    if (up.length) avisa({ empresaId: r.empresa_id, id: r.id, situacao, mensagem });
  };

  const lê = async () => {
    const cfg = configFromEnv();
    if (parado || !cfg) return;
    const rows = (await m.exec(`SELECT id, empresa_id, serial, canal, inicio, fim, created_at FROM solicitacao_video
      WHERE tipo = 'clipe' AND situacao = 'solicitado' ORDER BY id LIMIT 200`, [])).map((r) => ({
      id: Number(r.id), empresa_id: Number(r.empresa_id), serial: String(r.serial), canal: Number(r.canal),
      inicio: String(r.inicio), fim: String(r.fim), created_at: new Date(r.created_at as string).toISOString(),
    }));
    if (!rows.length) return;
    const cli = clienteDe(cfg);
    const limite = clipTimeoutS();
    for (const r of rows) {
      if (parado) return;
      const pedido = new Date(r.created_at);
      // the device records from the request on: a file of that channel on the server starting then (a minute of slack)
      const desde = new Date(pedido.getTime() - 60_000);
      try {
        const files = await cli.gravacoes(r.serial, r.canal - 1, desde, new Date(Math.max(Date.now(), desde.getTime() + 1000)), 2);
        const meiaNoite = deHoraCmsv6(`${horaCmsv6(desde).slice(0, 10)} 00:00:00`)!.getTime();
        const f = files.find((x) => x.file && meiaNoite + Number(x.beg ?? 0) * 1000 >= desde.getTime());
        if (f) { await muda(r, 'disponivel', MSG_DISPONIVEL, String(f.file), Number(f.len) || undefined); continue; }
      } catch (e) {
        const msg = e instanceof Cmsv6Error ? e.message : 'Falha ao consultar o servidor de vídeo';
        if (ultimoErro.get(r.id) !== msg) m.log.error({ id: r.id, err: (e as Error).message }, 'vídeo: falha ao acompanhar o clipe');
        ultimoErro.set(r.id, msg);
      }
      if (Date.now() - pedido.getTime() >= limite * 1000) await muda(r, 'falhou', motivoTempoEsgotado(limite, ultimoErro.get(r.id)));
    }
  };
  const tick = () => (busy = busy.then(lê).catch((e) => m.log.error({ err: (e as Error).message }, 'vídeo: falha no acompanhamento dos clipes')));
  // pushes of another process's change (Redis adapter)
  m.io.on(EVENTO_SOLICITACAO, (p: SolicitacaoVideoPush) => { if (p && Number.isInteger(p.empresaId)) local(p); });
  if (!every || !configFromEnv()) return { stop: async () => undefined, tick: async () => undefined };
  const timer = setInterval(() => void tick(), every);
  timer.unref();
  return { stop: async () => { parado = true; clearInterval(timer); await busy; }, tick: () => tick() as Promise<void> };
}
