// Provider `posicao` (modules/registros/metadata/tlm/posicao.yaml): the positions the gateway wrote to telemetria.posicao, for the
// screen /tlm/ras/registros. The company condition is added by sqlPage from the session. The table is partitioned
// by month and grows fast: the period defaults to the last 24 hours and may not exceed 31 days.
import { badRequest } from '../../../server/http/envelope.ts';
import { likeOf, sqlPage, type Provider, type ProviderRow } from '../../../server/crud/provider.ts';
import { ativo, motorista } from '../../../server/generated/columns.ts';
import { sameCompany } from '../../../server/tenancy/scope.ts';
import { addresses, addressKeySql } from '../../../server/core/addresses.ts';
import { findByCode, findByKey, findByMessage } from '../../../protocol/catalog.ts';

export const DEFAULT_HOURS = 24;
export const MAX_DAYS = 31;
const DAY = 86_400_000;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

/** The event library's description of a position's message: the event written with it, else the catalogue entry
 *  of the protocol's message (Queclink GTxxx, legacy codes), else the code itself. */
export function tipoDescricao(tipo: string, evento?: string | null): string {
  if (evento) return evento;
  const e = findByMessage('queclink-eventos', tipo) ?? findByCode('legacy-eventos', tipo) ?? findByKey('queclink-eventos', tipo);
  return e?.description || tipo;
}

/** The map screen with the position marked (and the asset's latest position). */
export const mapaDoPonto = (r: { ativoId?: unknown; latitude: unknown; longitude: unknown; fixTime: unknown }) =>
  `/tlm/ras/mapa_do_ativo?${new URLSearchParams({ ...(r.ativoId != null ? { ativo: String(r.ativoId) } : {}), lat: String(r.latitude), lon: String(r.longitude), quando: String(r.fixTime ?? '') })}`;

function endereco(r: ProviderRow, empresa: number | null | undefined): string | null {
  if (r.endereco) return String(r.endereco);
  const lat = Number(r.lat), lon = Number(r.lon);
  const service = addresses();
  if (!service || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  // a miss: resolved in the background (cached for the next read); the municipality meanwhile
  if (empresa != null) service.enqueue({ empresa: Number(r.empresa_id ?? empresa), lat, lon });
  return service.offline(lat, lon) ?? null;
}

const registro = (r: ProviderRow, empresa?: number | null) => ({
  id: `${r.serial}|${iso(r.fix_time)}|${r.tipo}`,
  serial: r.serial, fixTime: iso(r.fix_time), tipo: tipoDescricao(String(r.tipo), r.evento_descricao as string | null), codigo: r.tipo,
  endereco: endereco(r, empresa), mapa: mapaDoPonto({ ativoId: r.ativo_id, latitude: r.lat, longitude: r.lon, fixTime: iso(r.fix_time) }),
  recebidoEm: iso(r.received_at),
  ativoId: r.ativo_id, ativoDescricao: r.ativo_descricao ?? null, placa: r.ativo_placa ?? null,
  motoristaId: r.motorista_id, motoristaNome: r.motorista_nome ?? null,
  latitude: r.lat, longitude: r.lon, velocidade: r.speed, direcao: r.course, altitude: r.altitude,
  ignicao: r.ignition, valido: r.valid, satelites: r.satellites, hdop: r.hdop, memoria: r.buffered, atributos: r.attributes ?? {},
});

/** The period asked for ([from, to]): defaults to the last 24 hours (or the 24 hours before `to`). */
export function period(filter: Record<string, unknown>, now = new Date()): [Date, Date] {
  const to = typeof filter.fixTime_lte === 'string' ? new Date(filter.fixTime_lte) : now;
  const from = typeof filter.fixTime_gte === 'string' ? new Date(filter.fixTime_gte) : new Date(to.getTime() - DEFAULT_HOURS * 3_600_000);
  if (from > to) throw badRequest('O início do período deve ser anterior ao fim');
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY) throw badRequest(`O período deve ter no máximo ${MAX_DAYS} dias`);
  return [from, to];
}

export const providers: Record<string, Provider> = {
  posicao: {
    list: async (q, ctx) => {
      const [from, to] = period(q.filter);
      const where = ['p.fix_time >= ?', 'p.fix_time <= ?'];
      const params: unknown[] = [from, to];
      for (const [name, column] of [['ativoId', 'p.ativo_id'], ['serial', 'p.serial']] as const) {
        const values = q.filter[name];
        if (!Array.isArray(values) || !values.length) continue;
        where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
        params.push(...values);
      }
      if (typeof q.filter.ignicao === 'boolean') { where.push('p.ignition = ?'); params.push(q.filter.ignicao); }
      if (typeof q.filter.q === 'string') {
        where.push(`(p.serial ILIKE ? OR a.${ativo.placa} ILIKE ? OR a.${ativo.descricao} ILIKE ?)`);
        params.push(...Array(3).fill(likeOf(q.filter.q)));
      }
      const page = await sqlPage(ctx, q, {
        select: `p.*, a.${ativo.descricao} AS ativo_descricao, a.${ativo.placa} AS ativo_placa, m.${motorista.nome} AS motorista_nome,
                 g.endereco, (SELECT e.description FROM telemetria.evento e WHERE e.serial = p.serial AND e.fix_time = p.fix_time
                   AND ${sameCompany('e', 'p')} AND e.description <> '' ORDER BY e.code LIMIT 1) AS evento_descricao`,
        from: `telemetria.posicao p
               LEFT JOIN ${ativo.table} a ON a.${ativo.id} = p.ativo_id AND ${sameCompany('a', 'p')}
               LEFT JOIN ${motorista.table} m ON m.${motorista.id} = p.motorista_id AND ${sameCompany('m', 'p')}
               LEFT JOIN telemetria.endereco g ON ${sameCompany('g', 'p')} AND (g.lat_key, g.lon_key) = (${addressKeySql('p.lat', 'p.lon')})`,
        scope: 'p', where, params,
        orderBy: { fixTime: 'p.fix_time', recebidoEm: 'p.received_at', serial: 'p.serial', placa: `a.${ativo.placa}`, ativoDescricao: `a.${ativo.descricao}`, velocidade: 'p.speed' },
        tiebreak: 'p.serial, p.fix_time DESC, p.tipo',
      });
      return { rows: page.rows.map((r) => registro(r, ctx.empresaId)), total: page.total };
    },
    cell: { atributos: (r) => JSON.stringify(r.atributos ?? {}) },
  },
};
