// Providers of the gateway data (server/crud/provider.ts), declared in metadata/adm/vinculo_equipamento.yaml and
// metadata/tlm/ultimo_estado.yaml (permission keys, company scope, columns, filters, the spec's named calls):
//   GET /api/equipamento_ativo/por_serial/{serial}  → payload { ativoId, serial, ... } (current link)
//   GET /api/equipamento_ativo/por_ativo/{ativoId}  → list of { serial, ativoId, ... } (current links; ?historico=1 all)
//   GET /api/rastreamento/ultimo_estado             → latest state of the active company's devices (?ativoId=)
//   GET /api/rastreamento/estados                   → the same, paged/sorted/filtered (ra-data-simple-rest)
// The company condition is added by sqlPage from the session (scope empresa), never written here.
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { getModel } from '../crud/registry.ts';
import { likeOf, mountProviders, sqlPage, type Provider, type ProviderRow } from '../crud/provider.ts';

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

function vinculo(r: ProviderRow) {
  return {
    id: r.id, _id: r.id, serial: r.serial, ativoId: r.ativo_id, empresaId: r.empresa_id,
    dataInicio: iso(r.data_inicio), dataFim: iso(r.data_fim), ativo: r.data_fim === null || new Date(r.data_fim) > new Date(),
    equipamentoId: r.equipamento_id ?? null, modelo: r.modelo ?? null, tecnologia: r.tecnologia ?? null, firmware: r.firmware ?? null,
    ultimaComunicacao: iso(r.ultima_comunicacao),
  };
}

const CURRENT = `ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now())`;

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
      if (q.params.serial !== undefined) { where.push('ea.serial = ?'); params.push(q.params.serial); }
      if (q.params.ativoId !== undefined) { where.push('ea.ativo_id = ?'); params.push(q.params.ativoId); }
      if (q.filter.historico !== true) where.push(CURRENT);
      const page = await sqlPage(ctx, q, {
        select: `ea.id, ea.serial, ea.ativo_id, ea.empresa_id, ea.data_inicio, ea.data_fim,
                 e.id AS equipamento_id, e.modelo, e.tecnologia, e.firmware, u.ultima_comunicacao`,
        from: `equipamento_ativo ea
               LEFT JOIN equipamento e ON e.serial = ea.serial AND e.empresa_id = ea.empresa_id
               LEFT JOIN telemetria.ultimo_estado u ON u.serial = ea.serial AND u.empresa_id = ea.empresa_id`,
        scope: 'ea.empresa_id', where, params,
        orderBy: { id: 'ea.id', serial: 'ea.serial', dataInicio: 'ea.data_inicio' }, tiebreak: 'ea.id DESC',
      });
      return { rows: page.rows.map(vinculo), total: page.total };
    },
  },
  ultimo_estado: {
    list: async (q, ctx) => {
      const where: string[] = [], params: unknown[] = [];
      if (q.filter.ativoId !== undefined) { where.push('u.ativo_id = ?'); params.push(q.filter.ativoId); }
      if (typeof q.filter.q === 'string') {
        where.push(`(u.serial ILIKE ? OR a.placa ILIKE ? OR a.descricao ILIKE ?)`);
        params.push(...Array(3).fill(likeOf(q.filter.q)));
      }
      const page = await sqlPage(ctx, q, {
        select: 'u.*, a.descricao AS ativo_descricao, a.placa AS ativo_placa',
        from: 'telemetria.ultimo_estado u LEFT JOIN ativo a ON a.id = u.ativo_id AND a.empresa_id = u.empresa_id',
        scope: 'u.empresa_id', where, params,
        orderBy: {
          serial: 'u.serial', ativoDescricao: 'a.descricao', placa: 'a.placa', fixTime: 'u.fix_time',
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
