// Hardware registers of the production seed: the protocolos (technologies) and modelos devices already carry —
// metadata/_tecnologias.yaml plus OsmAnd — so every existing equipamento names a registered model (equipamento's
// tecnologia and modelo are codes of these registers, metadata lookup). Idempotent (matched by codigo): runs on every start, adds what is missing.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Model } from '../../shared/model.ts';
import { fabricante, modelo, protocolo } from '../generated/columns.ts';
import { Seeder } from './index.ts';

const QUECLINK = 'Queclink';
/** Protocol and model of the same code: OsmAnd (Traccar Client, HTTP), one model. */
const EXTRA: [string, string][] = [['osmand', 'OsmAnd (Traccar Client)']];

/** The protocolos and modelos to seed: { codigo, descricao } and { codigo, descricao, protocolo codigo }. */
export function hardwareCatalogue(model: Model) {
  const protocolos = new Map<string, string>();
  const modelos = new Map<string, { descricao: string; protocolo: string }>();
  for (const t of model.tecnologias ?? []) {
    protocolos.set(t.id, t.label);
    for (const m of t.modelos) modelos.set(m.id, { descricao: m.label, protocolo: t.id });
  }
  // Technologies without libraries nor route pages, registered for the equipment that use them.
  for (const [codigo, descricao] of EXTRA) {
    if (!protocolos.has(codigo)) protocolos.set(codigo, descricao);
    if (!modelos.has(codigo)) modelos.set(codigo, { descricao, protocolo: codigo });
  }
  return { protocolos, modelos };
}

/** Adds the missing fabricante Queclink, protocolos and modelos; answers how many rows were added. */
export async function seedHardware(em: EntityManager, model: Model): Promise<number> {
  const s = new Seeder(em, model);
  if (!s.has('protocolo') || !s.has('modelo') || !s.has('fabricante')) return 0;
  const conn = em.getConnection();
  const { protocolos, modelos } = hardwareCatalogue(model);
  const codes = async (t: typeof protocolo | typeof modelo) => new Map(((await conn.execute(`select ${t.id} AS id, ${t.codigo} AS codigo from ${t.table}`)) as { id: number; codigo: string }[]).map((r) => [r.codigo, r.id]));
  let added = 0;
  let [fab] = (await conn.execute(`select ${fabricante.id} AS id from ${fabricante.table} where lower(${fabricante.nome}) = lower(?)`, [QUECLINK])) as { id: number }[];
  if (!fab) { [fab] = (await s.many('fabricante', [{ nome: QUECLINK }])).map((id) => ({ id })); added++; }
  const haveP = await codes(protocolo);
  const newP = [...protocolos].filter(([c]) => !haveP.has(c));
  const ids = await s.many('protocolo', newP.map(([codigo, descricao]) => ({ codigo, descricao })));
  newP.forEach(([c], i) => haveP.set(c, ids[i]));
  const haveM = await codes(modelo);
  const newM = [...modelos].filter(([c]) => !haveM.has(c));
  await s.many('modelo', newM.map(([codigo, m]) => ({
    codigo, descricao: m.descricao, protocolo: haveP.get(m.protocolo), fabricante: m.protocolo === 'queclink' ? fab.id : null,
  })));
  return added + newP.length + newM.length;
}
