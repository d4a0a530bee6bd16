// Route parameters (metadata params, e.g. /adm/bib/modelos_de_configuracao/:tecnology/:model): the values the current
// route names, checked against their known values (model.tecnologias), and the API resource below them
// (modelo_de_configuracao/queclink/gv50cg) that the list, forms and history read and write.
import { useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/http';
import type { EntityMeta, RouteParamMeta, TecnologiaMeta } from '../../../../shared/model';
import { model } from '../../model';

export interface Bound {
  resource: string;                  // ra resource = API path below /api
  route: Record<string, string>;     // route parameter → value (for pathFor)
  fields: Record<string, string>;    // bound field → value (defaults of a new row)
  labels: string[];                  // the values' labels, in order (titles)
  error?: string;                    // pt-BR message when a value is unknown
}

export interface ParamOption { id: string; label: string }

type Tecs = Pick<TecnologiaMeta, 'id' | 'label' | 'modelos'>[];

/** Technologies and their models: metadata's at once, then the server's (GET /api/tecnologias: with the models of the
 *  modelo register too). ready: the server's list is in (or refused, or not asked: metadata's it is). */
export function useTecnologias(enabled = true): { tecs: Tecs; ready: boolean } {
  const { data, isError } = useQuery({ queryKey: ['tecnologias'], queryFn: () => call<Tecs>('/tecnologias'), staleTime: 30_000, retry: false, enabled });
  return { tecs: data ?? model.tecnologias ?? [], ready: !enabled || !!data || isError };
}

/** The known values of parameter `level` given the values chosen before it (null: any value). */
export function paramOptions(params: RouteParamMeta[], level: number, chosen: string[], tecs: Tecs = model.tecnologias ?? []): ParamOption[] | null {
  const p = params[level];
  if (p.values === 'tecnologias') return tecs.map((t) => ({ id: t.id, label: t.label }));
  if (p.values === 'modelos') return tecs.find((t) => t.id === chosen[level - 1])?.modelos ?? [];
  return null;
}

/** Checks chosen values level by level: labels, or the pt-BR message of the first unknown one. */
export function checkParams(params: RouteParamMeta[], chosen: string[], tecs?: Tecs): { labels: string[]; error?: string } {
  const labels: string[] = [];
  for (let i = 0; i < chosen.length; i++) {
    const options = paramOptions(params, i, chosen, tecs);
    const found = options ? options.find((o) => o.id === chosen[i]) : { id: chosen[i], label: chosen[i] };
    if (!found) {
      const p = params[i];
      const error = p.values === 'tecnologias' ? `Tecnologia desconhecida: ${chosen[i]}`
        : p.values === 'modelos' ? `Modelo desconhecido para a tecnologia ${labels[i - 1] ?? chosen[i - 1]}: ${chosen[i]}`
        : `${p.label} desconhecido: ${chosen[i]}`;
      return { labels, error };
    }
    labels.push(found.label);
  }
  return { labels };
}

/** The current route's bound values of an entity with params; null for other entities. */
export function useBound(entity: EntityMeta): Bound | null {
  const params = useParams();
  // only screens with technology/model parameters ask the server
  const { tecs, ready } = useTecnologias(!!entity.params?.some((p) => p.values));
  if (!entity.params?.length) return null;
  const values = entity.params.map((p) => params[p.name] ?? '');
  const { labels, error } = checkParams(entity.params, values, tecs);
  return {
    resource: [entity.key, ...values.map(encodeURIComponent)].join('/'),
    route: Object.fromEntries(entity.params.map((p, i) => [p.name, values[i]])),
    fields: Object.fromEntries(entity.params.map((p, i) => [p.field, values[i]])),
    labels,
    // a value metadata does not know may be a register's model: wait for the server's list before saying unknown
    ...(error && ready ? { error } : {}),
  };
}

/** The API resource of a reference to `key`: an entity with params is read below the current route's values of the
 *  same parameter names (atualizacao_firmware at /cfg/fir/atualizar/vdo/vdo_telemetria picks its firmware among
 *  firmware/vdo/vdo_telemetria); without them, the key itself. */
export function useReferenceResource(key: string | undefined): string | undefined {
  const params = useParams();
  const target = key ? model.entities.find((e) => e.key === key) : undefined;
  if (!key || !target?.params?.length) return key;
  const values = target.params.map((p) => params[p.name]);
  return values.every((v) => v) ? [key, ...values.map((v) => encodeURIComponent(v!))].join('/') : key;
}
