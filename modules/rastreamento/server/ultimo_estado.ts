// Provider of the live map (metadata modules/rastreamento/metadata/tlm/ultimo_estado.yaml: permission keys, company
// scope, columns, filters, the spec's named calls):
//   GET /api/rastreamento/ultimo_estado             → latest state of the active company's devices (?ativoId=)
//   GET /api/rastreamento/estados                   → the same, paged/sorted/filtered (ra-data-simple-rest)
// The company condition is added by sqlPage from the session (scope empresa), never written here.
import { likeOf, sqlPage, type Provider, type ProviderRow } from '../../../server/crud/provider.ts';
import { ativo as a } from '../../../server/generated/columns.ts';
import { sameCompany } from '../../../server/tenancy/scope.ts';

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

const estado = (r: ProviderRow) => ({
  serial: r.serial, ativoId: r.ativo_id, ativoDescricao: r.ativo_descricao ?? null, placa: r.ativo_placa ?? null,
  motoristaId: r.motorista_id, protocolo: r.protocolo, modelo: r.modelo,
  fixTime: iso(r.fix_time), latitude: r.lat, longitude: r.lon, velocidade: r.speed, direcao: r.course, altitude: r.altitude,
  valido: r.valid, ignicao: r.ignition, bateria: r.battery, tensao: r.power, ultimoTipo: r.ultimo_tipo,
  ultimoEvento: r.ultimo_evento, ultimaComunicacao: iso(r.ultima_comunicacao), atributos: r.attributes ?? {},
});

export const providers: Record<string, Provider> = {
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
        from: `telemetria.ultimo_estado u LEFT JOIN ${a.table} a ON a.${a.id} = u.ativo_id AND ${sameCompany('a', 'u')}`,
        scope: 'u', where, params,
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
