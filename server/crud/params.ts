// Route parameters (metadata `params`, e.g. /api/modelo_de_configuracao/:tecnology/:model): the values a request
// names, checked against their known values (tecnologias(): metadata and the modelo register; 404 with a pt-BR
// message otherwise) and bound to
// fields. crudRoutes narrows with them like a nested route's parent (list, export, one, history, update, delete)
// and puts them in every body (create, update), so a row outside them is 404 and the body cannot move a row out.
// Providers' params with values are checked here too (server/crud/provider.ts).
import type { Context } from 'hono';
import type { EntityMeta, TecnologiaMeta } from '../../shared/model.ts';
import type { AppEnv } from '../app/env.ts';
import { notFound } from '../http/envelope.ts';
import { getModel } from '../core/registry.ts';
import { getOrm } from '../db/context.ts';
import { asSystem } from '../db/rls.ts';
import { events } from '../realtime/events.ts';
import { modelo, protocolo } from '../generated/columns.ts';
import type { Row } from './query.ts';

// The models of a technology: those of metadata/_tecnologias.yaml (with its libraries) and every row of the hardware
// register /cfg/cfg/hardware/modelo of that protocolo, so that a model registered there is a route value at once
// (configuration models, firmware, libraries), without a release. Read as the system role and kept for 30 s;
// a write to modelo/protocolo in this process, or a model not found (at most every 2 s), reads them again.
const TTL_MS = 30_000;
const MISS_MS = 2_000;
let registered: { at: number; byProtocolo: Map<string, { id: string; label: string }[]> } | null = null;
let loading: Promise<void> | null = null;
let listening = false;

async function loadRegistered(): Promise<void> {
  loading ??= (async () => {
    try {
      const em = getOrm().em.fork();
      const sql = `select m.${modelo.codigo} as codigo, m.${modelo.descricao} as descricao, p.${protocolo.codigo} as protocolo
        from ${modelo.table} m join ${protocolo.table} p on p.${protocolo.id} = m.${modelo.protocolo} order by m.${modelo.codigo}`;
      const rows: { codigo: string; descricao: string; protocolo: string }[] = await asSystem(() => em.getConnection().execute(sql));
      const byProtocolo = new Map<string, { id: string; label: string }[]>();
      for (const r of rows) {
        const list = byProtocolo.get(r.protocolo) ?? [];
        list.push({ id: r.codigo, label: r.descricao });
        byProtocolo.set(r.protocolo, list);
      }
      registered = { at: Date.now(), byProtocolo };
    } catch {
      registered = { at: Date.now(), byProtocolo: registered?.byProtocolo ?? new Map() }; // no database yet: metadata only
    } finally {
      loading = null;
    }
  })();
  return loading;
}

function listen(): void {
  if (listening) return;
  listening = true;
  events.on('change', (c) => { if (c.entity === 'modelo' || c.entity === 'protocolo') registered = null; });
}

/** The technologies of metadata/_tecnologias.yaml as declared (their libraries). */
export const metadataTecnologias = (): TecnologiaMeta[] => getModel().tecnologias ?? [];

/** Known technologies with their models (metadata, then the register's other models of each). */
export async function tecnologias(o: { refresh?: boolean } = {}): Promise<TecnologiaMeta[]> {
  listen();
  if (!registered || Date.now() - registered.at > TTL_MS || (o.refresh && Date.now() - registered.at > MISS_MS)) await loadRegistered();
  const byProtocolo = registered?.byProtocolo ?? new Map();
  return metadataTecnologias().map((t) => {
    const extra = (byProtocolo.get(t.id) ?? []).filter((m: { id: string }) => !t.modelos.some((x) => x.id === m.id));
    return extra.length ? { ...t, modelos: [...t.modelos, ...extra] } : t;
  });
}

/** Checks a technology and (optionally) one of its models; 404 with a pt-BR message when unknown. */
export async function knownTecnologia(tecnologia: string, modelo?: string): Promise<TecnologiaMeta> {
  let all = await tecnologias();
  const find = () => all.find((x) => x.id === tecnologia);
  let t = find();
  if (t && modelo !== undefined && !t.modelos.some((m) => m.id === modelo)) { all = await tecnologias({ refresh: true }); t = find(); }
  if (!t) throw notFound(`Tecnologia desconhecida: ${tecnologia}. Use ${all.map((x) => x.id).join(', ')}.`);
  if (modelo !== undefined && !t.modelos.some((m) => m.id === modelo)) {
    throw notFound(`Modelo desconhecido para a tecnologia ${t.label}: ${modelo}. Use ${t.modelos.map((m) => m.id).join(', ')}.`);
  }
  return t;
}

/** { field: value } of the entity's route parameters in this request; null for an entity without params. */
export async function boundParams(c: Context<AppEnv>, entity: EntityMeta): Promise<Row | null> {
  if (!entity.params?.length) return null;
  const out: Row = {};
  let tecnologia: string | undefined;
  for (const p of entity.params) {
    const raw = c.req.param(p.name) ?? '';
    if (p.values === 'tecnologias') { await knownTecnologia(raw); tecnologia = raw; }
    else if (p.values === 'modelos') await knownTecnologia(tecnologia ?? '', raw);
    else if (!raw || raw.length > 200) throw notFound();
    out[p.field] = raw;
  }
  return out;
}
