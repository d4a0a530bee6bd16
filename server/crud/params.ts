// Route parameters (metadata `params`, e.g. /api/modelo_de_configuracao/:tecnology/:model): the values a request
// names, checked against their known values (Model.tecnologias; 404 with a pt-BR message otherwise) and bound to
// fields. crudRoutes narrows with them like a nested route's parent (list, export, one, history, update, delete)
// and puts them in every body (create, update), so a row outside them is 404 and the body cannot move a row out.
// Providers' params with values are checked here too (server/crud/provider.ts).
import type { Context } from 'hono';
import type { EntityMeta, TecnologiaMeta } from '../../generator/model.ts';
import type { AppEnv } from '../app/env.ts';
import { notFound } from '../http/envelope.ts';
import { getModel } from './registry.ts';
import type { Row } from './query.ts';

/** Known technologies (metadata/_tecnologias.yaml). */
export const tecnologias = (): TecnologiaMeta[] => getModel().tecnologias ?? [];

/** Checks a technology and (optionally) one of its models; 404 with a pt-BR message when unknown. */
export function knownTecnologia(tecnologia: string, modelo?: string): TecnologiaMeta {
  const all = tecnologias();
  const t = all.find((x) => x.id === tecnologia);
  if (!t) throw notFound(`Tecnologia desconhecida: ${tecnologia}. Use ${all.map((x) => x.id).join(', ')}.`);
  if (modelo !== undefined && !t.modelos.some((m) => m.id === modelo)) {
    throw notFound(`Modelo desconhecido para a tecnologia ${t.label}: ${modelo}. Use ${t.modelos.map((m) => m.id).join(', ')}.`);
  }
  return t;
}

/** { field: value } of the entity's route parameters in this request; null for an entity without params. */
export function boundParams(c: Context<AppEnv>, entity: EntityMeta): Row | null {
  if (!entity.params?.length) return null;
  const out: Row = {};
  let tecnologia: string | undefined;
  for (const p of entity.params) {
    const raw = c.req.param(p.name) ?? '';
    if (p.values === 'tecnologias') { knownTecnologia(raw); tecnologia = raw; }
    else if (p.values === 'modelos') knownTecnologia(tecnologia ?? '', raw);
    else if (!raw || raw.length > 200) throw notFound();
    out[p.field] = raw;
  }
  return out;
}
