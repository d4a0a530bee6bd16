// Providers of the gateway data (server/crud/provider.ts), declared in metadata/adm/vinculo_equipamento.yaml and
// metadata/tlm/ultimo_estado.yaml (permission keys, company scope, columns, filters, the spec's named calls):
//   GET /api/equipamento_ativo/por_serial/{serial}  → payload { ativoId, serial, ... } (current link)
//   GET /api/equipamento_ativo/por_ativo/{ativoId}  → list of { serial, ativoId, ... } (current links; ?historico=1 all)
//   GET /api/rastreamento/ultimo_estado             → latest state of the active company's devices (?ativoId=)
//   GET /api/rastreamento/estados                   → the same, paged/sorted/filtered (ra-data-simple-rest)
// The company condition is added by sqlPage from the session (scope empresa), never written here.
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { getModel } from '../core/registry.ts';
import { likeOf, mountProviders, sqlPage, type Provider, type ProviderRow } from '../crud/provider.ts';
import { ativo as a, equipamento as eq, equipamento_ativo as ea } from '../generated/columns.ts';

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

function vinculo(r: ProviderRow) {
  return {
    id: r.id, _id: r.id, serial: r.serial, ativoId: r.ativo_id, empresaId: r.empresa_id,
    dataInicio: iso(r.data_inicio), dataFim: iso(r.data_fim), ativo: r.data_fim === null || new Date(r.data_fim) > new Date(),
    equipamentoId: r.equipamento_id ?? null, modelo: r.modelo ?? null, tecnologia: r.tecnologia ?? null, firmware: r.firmware ?? null,
    ultimaComunicacao: iso(r.ultima_comunicacao),
  };
}

const CURRENT = `ea.${ea.dataInicio} <= now() AND (ea.${ea.dataFim} IS NULL OR ea.${ea.dataFim} > now())`;

const estado = (r: ProviderRow) => ({
  serial: r.serial, ativoId: r.ativo_id, ativoDescricao: r.ativo_descricao ?? null, placa: r.ativo_placa ?? null,
  motoristaId: r.motorista_id, protocolo: r.protocolo, modelo: r.modelo,
  fixTime: iso(r.fix_time), latitude: r.lat, longitude: r.lon, velocidade: r.speed, direcao: r.course, altitude: r.altitude,
  valido: r.valid, ignicao: r.ignition, bateria: r.battery, tensao: r.power, ultimoTipo: r.ultimo_tipo,
  ultimoEvento: r.ultimo_evento, ultimaComunicacao: iso(r.ultima_comunicacao), atributos: r.attributes ?? {},
});

export const providers: Record<string, Provider> = {
  vinculo_equipamento: {
    list: async (q, ctx) => {
      const where: string[] = [], params: unknown[] = [];
      if (q.params.serial !== undefined) { where.push(`ea.${ea.serial} = ?`); params.push(q.params.serial); }
      if (q.params.ativoId !== undefined) { where.push(`ea.${ea.ativoId} = ?`); params.push(q.params.ativoId); }
      if (q.filter.historico !== true) where.push(CURRENT);
      const page = await sqlPage(ctx, q, {
        select: `ea.${ea.id} AS id, ea.${ea.serial} AS serial, ea.${ea.ativoId} AS ativo_id, ea.${ea.empresaId} AS empresa_id,
                 ea.${ea.dataInicio} AS data_inicio, ea.${ea.dataFim} AS data_fim, e.${eq.id} AS equipamento_id, e.${eq.modelo} AS modelo,
                 e.${eq.tecnologia} AS tecnologia, e.${eq.firmware} AS firmware, u.ultima_comunicacao`,
        from: `${ea.table} ea
               LEFT JOIN ${eq.table} e ON e.${eq.serial} = ea.${ea.serial} AND e.${eq.empresaId} = ea.${ea.empresaId}
               LEFT JOIN telemetria.ultimo_estado u ON u.serial = ea.${ea.serial} AND u.empresa_id = ea.${ea.empresaId}`,
        scope: `ea.${ea.empresaId}`, where, params,
        orderBy: { id: `ea.${ea.id}`, serial: `ea.${ea.serial}`, dataInicio: `ea.${ea.dataInicio}` }, tiebreak: `ea.${ea.id} DESC`,
      });
      return { rows: page.rows.map(vinculo), total: page.total };
    },
  },
  ultimo_estado: {
    list: async (q, ctx) => {
      const where: string[] = [], params: unknown[] = [];
      if (q.filter.ativoId !== undefined) { where.push('u.ativo_id = ?'); params.push(q.filter.ativoId); }
      if (typeof q.filter.q === 'string') {
        where.push(`(u.serial ILIKE ? OR a.${a.placa} ILIKE ? OR a.${a.descricao} ILIKE ?)`);
        params.push(...Array(3).fill(likeOf(q.filter.q)));
      }
      const page = await sqlPage(ctx, q, {
        select: `u.*, a.${a.descricao} AS ativo_descricao, a.${a.placa} AS ativo_placa`,
        from: `telemetria.ultimo_estado u LEFT JOIN ${a.table} a ON a.${a.id} = u.ativo_id AND a.${a.empresaId} = u.empresa_id`,
        scope: 'u.empresa_id', where, params,
        orderBy: {
          serial: 'u.serial', ativoDescricao: `a.${a.descricao}`, placa: `a.${a.placa}`, fixTime: 'u.fix_time',
          velocidade: 'u.speed', ultimaComunicacao: 'u.ultima_comunicacao',
        },
        tiebreak: 'u.serial',
      });
      return { rows: page.rows.map(estado), total: page.total };
    },
  },
};

/** Mounts these providers alone (tests mount them on a bare app; server/calls/index.ts mounts all providers). */
export default (api: Hono<AppEnv>) => mountProviders(api, getModel().providers.filter((m) => m.key in providers), providers);
