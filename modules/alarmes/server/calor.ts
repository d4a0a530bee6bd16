// GET /api/alarmes/mapa_de_calor (/tlm/evt/mapa_de_calor): where the chosen assets were (fonte=posicoes), where
// their events happened (eventos) or their alarms (alarmes, events whose library entry has a risk), in a period,
// counted in SQL on a grid fitted to the map: cell side = CELL_PX screen pixels at the zoom (360° / 2^zoom / 256 per
// pixel), GROUP BY the rounded coordinates inside the view's bbox — a month of a fleet answers a few thousand cells.
// Query: fonte, inicio, fim (ISO), ativos (ids, comma-separated; none = every asset), bbox (w,s,e,n), zoom (0..20).
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { badRequest, ok } from '../../../server/http/envelope.ts';
import { biblioteca_evento as bib } from '../../../server/generated/columns.ts';
import { companySql, qParams } from '../../../server/tenancy/scope.ts';
import { requestEm } from '../../../server/db/context.ts';

export const CELL_PX = 16;
export const MAX_DIAS = 93;
const FONTES = ['posicoes', 'eventos', 'alarmes'] as const;
type Fonte = (typeof FONTES)[number];

/** Degrees per grid cell at a zoom level. */
export const passo = (zoom: number) => 360 / 2 ** zoom / 256 * CELL_PX;

export interface Celula { lat: number; lon: number; n: number }
export interface Calor { passo: number; celulas: Celula[]; total: number; maximo: number }

export function calorRoutes(api: Hono<AppEnv>) {
  route(api, 'get', '/alarmes/mapa_de_calor', { permission: ['tlm.evt.mapa_de_calor'], scope: 'empresa' }, async (c) => {
    const q = (k: string) => c.req.query(k);
    const fonte = (q('fonte') ?? 'posicoes') as Fonte;
    if (!FONTES.includes(fonte)) throw badRequest('Fonte inválida: use posicoes, eventos ou alarmes');
    const inicio = new Date(q('inicio') ?? ''), fim = new Date(q('fim') ?? '');
    if (Number.isNaN(inicio.getTime()) || Number.isNaN(fim.getTime())) throw badRequest('Informe o período (início e fim)');
    if (inicio > fim) throw badRequest('O início do período deve ser anterior ao fim');
    if (fim.getTime() - inicio.getTime() > MAX_DIAS * 86_400_000) throw badRequest(`O período deve ter no máximo ${MAX_DIAS} dias`);
    const zoom = Number(q('zoom') ?? 10);
    if (!Number.isInteger(zoom) || zoom < 0 || zoom > 20) throw badRequest('Zoom inválido');
    const bbox = (q('bbox') ?? '-180,-90,180,90').split(',').map(Number);
    if (bbox.length !== 4 || bbox.some((v) => !Number.isFinite(v))) throw badRequest('Área do mapa (bbox) inválida');
    const [w, s, e, n] = [Math.max(-180, bbox[0]!), Math.max(-90, bbox[1]!), Math.min(180, bbox[2]!), Math.min(90, bbox[3]!)];
    const raw = q('ativos') ?? '';
    const ativos = raw ? raw.split(',').map((v) => Number(v)) : [];
    if (ativos.some((v) => !Number.isSafeInteger(v) || v <= 0) || ativos.length > 5000) throw badRequest('Lista de ativos inválida');

    const step = passo(zoom);
    const p = qParams();
    const table = fonte === 'posicoes' ? 'telemetria.posicao' : 'telemetria.evento';
    const where = [companySql('x', c.get('session').empresaAtiva, p),
      `x.fix_time >= ${p.add(inicio)}`, `x.fix_time <= ${p.add(fim)}`,
      `x.lat BETWEEN ${p.add(s)} AND ${p.add(n)}`, `x.lon BETWEEN ${p.add(w)} AND ${p.add(e)}`];
    if (fonte === 'posicoes') where.push('x.valid');
    if (ativos.length) where.push(`x.ativo_id = ANY(${p.add(`{${ativos.join(',')}}`)}::int[])`);
    if (fonte === 'alarmes') where.push(`EXISTS (SELECT 1 FROM ${bib.table} b WHERE b.${bib.event} = x.key AND b.${bib.risk} IS NOT NULL)`);
    // the step is a number computed here (not user text): inlined, so the placeholders stay in text order
    const st = `${step}`;
    const rows = await requestEm(c).getConnection().execute(`SELECT gy, gx, n FROM (
        SELECT floor(x.lat / ${st}::float8)::int AS gy, floor(x.lon / ${st}::float8)::int AS gx, count(*)::int AS n
        FROM ${table} x WHERE ${where.join(' AND ')} GROUP BY 1, 2) g ORDER BY n DESC LIMIT 20000`, p.values) as { gy: number; gx: number; n: number }[];
    const celulas = rows.map((r) => ({ lat: (r.gy + 0.5) * step, lon: (r.gx + 0.5) * step, n: r.n }));
    const out: Calor = { passo: step, celulas, total: celulas.reduce((a, x) => a + x.n, 0), maximo: celulas[0]?.n ?? 0 };
    return ok(c, out);
  });
}
