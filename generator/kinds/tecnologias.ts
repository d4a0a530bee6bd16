// Device technologies and models (metadata/_tecnologias.yaml, metadata/_schema/tecnologias.schema.json).
import { problem } from '../errors.ts';
import type { LoadedMetadata } from '../load.ts';
import type { EntityMeta, TecnologiaMeta } from '../../shared/model.ts';

export const TECNOLOGIAS_FILE = '_tecnologias.yaml';
export const TECNOLOGIAS_SCHEMA = 'tecnologias.schema.json';

/** metadata/_tecnologias.yaml: unique ids; needed by any entity param with values. */
export function normalizeTecnologias(meta: LoadedMetadata, entities: EntityMeta[], problems: string[]): TecnologiaMeta[] {
  const raw = ((meta.tecnologias?.data ?? { tecnologias: [] }) as { tecnologias: (Omit<TecnologiaMeta, 'bibliotecas'> & { bibliotecas?: TecnologiaMeta['bibliotecas'] })[] }).tecnologias;
  const file = meta.tecnologias?.file ?? 'metadata/_tecnologias.yaml';
  raw.forEach((t, i) => {
    if (raw.findIndex((x) => x.id === t.id) !== i) problems.push(problem(file, `/tecnologias/${i}/id`, `tecnologia repetida: ${t.id}`));
    t.modelos.forEach((m, j) => { if (t.modelos.findIndex((x) => x.id === m.id) !== j) problems.push(problem(file, `/tecnologias/${i}/modelos/${j}/id`, `modelo repetido: ${m.id}`)); });
  });
  for (const e of entities) {
    e.params?.forEach((p, i) => {
      if (p.values && !raw.length) problems.push(problem(e.file, `/params/${i}/values`, `nenhuma tecnologia declarada em ${file}`));
    });
  }
  return raw.map((t) => ({ id: t.id, label: t.label, modelos: t.modelos.map((m) => ({ id: m.id, label: m.label })), bibliotecas: t.bibliotecas ?? {}, ...(t.vinculosPorAtivo ? { vinculosPorAtivo: t.vinculosPorAtivo } : {}) }));
}
