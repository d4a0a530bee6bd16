// Fence validation (hook `cerca` of the register) and the geometry utilities of spec section 7:
//   POST /api/util/geo/line_to_polygon { linha: LineString | [[lon, lat], ...], largura: metres } → Polygon (corridor)
//   POST /api/wkd/geo/pol_to_circle { poligono: Polygon | [[[lon, lat], ...]] } → { centro: Point, raio: metres }
// Both answer the envelope; the keys are the fence register's (whoever may draw a fence may convert one).
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { badRequest, ok } from '../../../server/http/envelope.ts';
import { route } from '../../../server/core/pipeline.ts';
import { readBody } from '../../../server/crud/protocol.ts';
import { invalid, type WriteHook } from '../../../server/crud/hooks.ts';
import type { PermissionKey } from '../../../server/generated/permissions.ts';
import { geometryProblem, lineToPolygon, polygonToCircle, type Kind, type Pos } from '../geo.ts';
import { resumo, vigenciaProblem, type VigenciaInput } from '../vigencia.ts';

const VIGENCIA = ['diasSemana', 'horaInicial', 'horaFinal', 'vigenteDe', 'vigenteAte', 'naoValeEmFeriados'] as const;

/** cerca: the geometry must be the kind's GeoJSON, closed, with valid coordinates and a radius/width when needed.
 *  A fence not drawn yet (no geometry) is kept and never triggers. The schedule is checked and summarised (vigencia,
 *  the list's column). */
export const cercaHook: WriteHook = async ({ data, existing }) => {
  const pick = (k: string) => (k in data ? data[k] : existing?.[k]);
  const v = Object.fromEntries(VIGENCIA.map((k) => [k, pick(k)])) as VigenciaInput;
  const vp = vigenciaProblem(v);
  if (vp) throw invalid(vp.field, vp.label, vp.message);
  data.vigencia = resumo(v);
  const tipo = (pick('tipo') ?? 'poligono') as Kind;
  const raio = pick('raio') as number | null | undefined;
  const geometria = pick('geometria');
  if (geometria === null || geometria === undefined) return;
  const problem = geometryProblem(tipo, geometria, raio);
  if (!problem) return;
  const onRaio = problem.startsWith('Informe');
  throw invalid(onRaio ? 'raio' : 'geometria', onRaio ? 'Raio (m)' : 'Geometria', problem);
};

const KEYS = ['tlm.cee.cercas.adicionar', 'tlm.cee.cercas.editar'] as PermissionKey[];

export function routes(api: Hono<AppEnv>): void {
  route(api, 'post', '/util/geo/line_to_polygon', { permission: KEYS, scope: 'empresa' }, async (c) => {
    const body = (await readBody(c)) as Record<string, unknown> | null;
    const l = body?.linha as { type?: string; coordinates?: unknown } | unknown[] | undefined;
    const coords = Array.isArray(l) ? l : l?.type === 'LineString' ? l.coordinates : undefined;
    const largura = body?.largura;
    if (coords === undefined) throw badRequest('O campo Linha é obrigatório: um GeoJSON LineString ou a lista de posições [longitude, latitude]');
    const problem = geometryProblem('rota', { type: 'LineString', coordinates: coords }, largura as number);
    if (problem) throw badRequest(problem);
    if ((largura as number) > 100_000) throw badRequest('A largura do corredor deve ser de no máximo 100.000 metros');
    return ok(c, lineToPolygon(coords as Pos[], largura as number));
  });
  route(api, 'post', '/wkd/geo/pol_to_circle', { permission: KEYS, scope: 'empresa' }, async (c) => {
    const body = (await readBody(c)) as Record<string, unknown> | null;
    const p = body?.poligono as { type?: string; coordinates?: unknown } | unknown[] | undefined;
    const coords = Array.isArray(p) ? p : p?.type === 'Polygon' ? p.coordinates : undefined;
    if (coords === undefined) throw badRequest('O campo Polígono é obrigatório: um GeoJSON Polygon ou a lista de anéis de posições [longitude, latitude]');
    const problem = geometryProblem('poligono', { type: 'Polygon', coordinates: coords }, null);
    if (problem) throw badRequest(problem);
    const { centro, raio } = polygonToCircle(coords as Pos[][]);
    return ok(c, { centro: { type: 'Point', coordinates: centro }, raio });
  });
}
