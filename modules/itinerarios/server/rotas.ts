// Itinerary history and line recognition (named calls, envelope, company scope):
//   GET /api/historico_itinerario/:id/comparacao?ativo=&inicio=ISO&fim=ISO  (key tlm.ras.historico_itinerario)
//     the itinerary's line and stops, and each trip of the asset in the period compared with it (the whole period as
//     one track when no trip was detected): deviations from the corridor, arrival and lateness per stop point;
//   GET /api/reconhecimento_linhas?ativo=&inicio=&fim=  (key cfg.map.reconhecimento_linhas)
//     the trips of the asset in the period, each with the line it ran (best adherence) and the ranking.
// Every source is a declared provider of this module (metadata/) read by the read engine in the session's company:
// an itinerary or asset the company scope does not see is 404.
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { getModel } from '../../../server/core/registry.ts';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { readDeclared } from '../../../server/read/provider.ts';
import type { Pos } from '../../../shared/geo.ts';
import { ADERENCIA_MINIMA, compara, instanteNoDia, reconhece, type Fix, type Linha, type Ponto } from '../comparacao.ts';
import { requestEm } from '../../../server/db/context.ts';

type Row = Record<string, any>;
export const MAX_DIAS = 31;
const MAX_POSICOES = 500_000;

async function read(c: Context<AppEnv>, key: string, filter: Record<string, unknown>, limit = 10_000): Promise<Row[]> {
  const meta = getModel().providers.find((p) => p.key === key);
  if (!meta?.sql) throw new Error(`provider ${key} sem sql declarado`);
  const { rows } = await readDeclared(requestEm(c), meta, meta.sql, { params: {}, filter, sort: meta.sort, offset: 0, limit }, c.get('session').empresaAtiva);
  return rows;
}

interface Pedido { ativo: Row; inicio: string; fim: string }

async function pedido(c: Context<AppEnv>): Promise<Pedido> {
  const id = c.req.query('ativo') ?? '';
  if (!/^\d{1,12}$/.test(id) || Number(id) <= 0) throw badRequest('O campo Ativo é obrigatório');
  const a = Date.parse(c.req.query('inicio') ?? ''), b = Date.parse(c.req.query('fim') ?? '');
  if (Number.isNaN(a) || Number.isNaN(b) || b <= a) throw badRequest('Período inválido: informe o início e o fim, o fim depois do início');
  if (b - a > MAX_DIAS * 86_400_000) throw badRequest(`O período máximo é de ${MAX_DIAS} dias`);
  const [ativo] = await read(c, 'itinerario_ativo', { ids: [Number(id)] }, 1);
  if (!ativo) throw new HttpError(404, 'Ativo não encontrado');
  return { ativo, inicio: new Date(a).toISOString(), fim: new Date(b).toISOString() };
}

interface Trecho { id: string; inicio: string; fim: string; distancia: number | null; fixes: Fix[] }

/** The asset's trips in the period with their fixes; the whole period as one track when there is none. */
async function trechos(c: Context<AppEnv>, p: Pedido): Promise<Trecho[]> {
  const filtro = { ativoId: Number(p.ativo.id), inicio: p.inicio, fim: p.fim };
  const pos = await read(c, 'itinerario_posicao', filtro, MAX_POSICOES + 1);
  if (pos.length > MAX_POSICOES) throw badRequest('O período tem posições demais: escolha um período menor');
  const fixes: Fix[] = [];
  for (const r of pos) {
    const t = Date.parse(r.fixTime);
    if (fixes.length && fixes[fixes.length - 1]!.t === t) continue; // one fix per instant
    fixes.push({ t, lon: Number(r.longitude), lat: Number(r.latitude) });
  }
  const viagens = await read(c, 'itinerario_viagem', filtro, 1000);
  if (!viagens.length) return fixes.length ? [{ id: 'periodo', inicio: p.inicio, fim: p.fim, distancia: null, fixes }] : [];
  return viagens.map((v) => {
    const a = Date.parse(v.inicio), b = Date.parse(v.fim);
    return { id: String(v.id), inicio: v.inicio, fim: v.fim, distancia: v.distancia ?? null, fixes: fixes.filter((f) => f.t >= a && f.t <= b) };
  });
}

const linhaDe = (trajeto: any, largura: unknown): Linha =>
  ({ coordinates: trajeto?.type === 'LineString' && Array.isArray(trajeto.coordinates) ? trajeto.coordinates as Pos[] : [], largura: Number(largura) || 100 });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function routes(api: Hono<AppEnv>): void {
  route(api, 'get', '/historico_itinerario/:id/comparacao', { permission: ['tlm.ras.historico_itinerario'], scope: 'empresa' }, async (c) => {
    const id = c.req.param('id') ?? '';
    if (!/^\d{1,12}$/.test(id)) throw new HttpError(404, 'Itinerário não encontrado');
    const [it] = await read(c, 'itinerario_historico', { id: Number(id) }, 1);
    if (!it) throw new HttpError(404, 'Itinerário não encontrado');
    const p = await pedido(c);
    const pontos = (await read(c, 'itinerario_historico_ponto', { itinerario: Number(id) }, 1000)).map((r) => ({
      ordem: Number(r.ordem), descricao: String(r.descricao), direcao: String(r.direcao), horario: String(r.horario),
      raio: Number(r.raio) || 100, posicao: (r.posicao?.coordinates ?? [0, 0]) as Pos,
    }));
    const linha = linhaDe(it.trajeto, it.largura);
    const viagens = (await trechos(c, p)).map((t) => {
      // the direction whose start time is nearer the trip's start (ida when the itinerary has no return)
      const t0 = t.fixes[0]?.t ?? Date.parse(t.inicio);
      const perto = (h: string | null) => (h ? Math.abs(instanteNoDia(t0, h) - t0) : Infinity);
      const direcao = pontos.some((x) => x.direcao === 'volta') && perto(it.inicioVolta) < perto(it.inicioIda) ? 'volta' : 'ida';
      const r = compara(t.fixes, linha, pontos.filter((x) => x.direcao === direcao) as Ponto[]);
      return {
        id: t.id, inicio: t.inicio, fim: t.fim, distancia: t.distancia, direcao,
        dentroDoCorredor: r.dentro, tempoFora: r.tempoFora, distanciaMaxima: r.distanciaMaxima,
        desvios: r.desvios.map((d) => ({ ...d, inicio: iso(d.inicio), fim: iso(d.fim) })),
        pontos: r.pontos.map((x) => ({ ...x, previsto: iso(x.previsto), chegada: iso(x.chegada) })),
        trilha: t.fixes.map((f) => [f.lon, f.lat]),
      };
    });
    return ok(c, {
      itinerario: { id: Number(it.id), descricao: it.descricao, linha: it.linhaDescricao, largura: linha.largura, trajeto: it.trajeto ?? null },
      ativo: { id: Number(p.ativo.id), descricao: p.ativo.descricao, placa: p.ativo.placa },
      pontos, viagens,
    });
  });

  route(api, 'get', '/reconhecimento_linhas', { permission: ['cfg.map.reconhecimento_linhas'], scope: 'empresa' }, async (c) => {
    const p = await pedido(c);
    const linhas = await read(c, 'linha_reconhecimento', {}, 5000);
    const cand = linhas.map((l) => ({ id: Number(l.id), linha: linhaDe(l.trajeto, l.largura) }));
    const nome = new Map(linhas.map((l) => [Number(l.id), l.codigo ? `${l.codigo} — ${l.descricao}` : String(l.descricao)]));
    const viagens = (await trechos(c, p)).map((t) => {
      const rank = reconhece(t.fixes, cand).slice(0, 5).map((r) => ({ ...r, descricao: nome.get(r.linha) ?? null }));
      const best = rank[0] && rank[0].aderencia >= ADERENCIA_MINIMA ? rank[0] : null;
      return { id: t.id, inicio: t.inicio, fim: t.fim, distancia: t.distancia, linha: best?.linha ?? null, linhaDescricao: best?.descricao ?? null, aderencia: best?.aderencia ?? rank[0]?.aderencia ?? 0, candidatas: rank };
    });
    return ok(c, { ativo: { id: Number(p.ativo.id), descricao: p.ativo.descricao, placa: p.ativo.placa }, aderenciaMinima: ADERENCIA_MINIMA, viagens });
  });
}
