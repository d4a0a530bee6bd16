// Provider of the device links (metadata modules/vinculo/metadata/adm/vinculo_equipamento.yaml; the spec's named calls):
//   GET /api/equipamento_ativo/por_serial/{serial}  → payload { ativoId, serial, ... } (current link)
//   GET /api/equipamento_ativo/por_ativo/{ativoId}  → list of { serial, ativoId, ... } (current links; ?historico=1 all)
// The company condition is added by sqlPage from the session (scope empresa), never written here.
import { sqlPage, type Provider, type ProviderRow } from '../../../server/crud/provider.ts';
import { equipamento as eq, equipamento_ativo as ea } from '../../../server/generated/columns.ts';
import { sameCompany } from '../../../server/tenancy/scope.ts';

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
               LEFT JOIN ${eq.table} e ON e.${eq.serial} = ea.${ea.serial} AND ${sameCompany('e', 'ea')}
               LEFT JOIN telemetria.ultimo_estado u ON u.serial = ea.${ea.serial} AND ${sameCompany('u', 'ea')}`,
        scope: 'ea', where, params,
        orderBy: { id: `ea.${ea.id}`, serial: `ea.${ea.serial}`, dataInicio: `ea.${ea.dataInicio}` }, tiebreak: `ea.${ea.id} DESC`,
      });
      return { rows: page.rows.map(vinculo), total: page.total };
    },
  },
};
