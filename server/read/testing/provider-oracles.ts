// The hand-written SQL that the declared providers (logs_teclado, ultimo_estado: their YAML `sql:`) replaced, kept
// only as the oracle of server/read/provider.test.ts: the engine must answer exactly what these answered.
import { likeOf, sqlPage, type Provider, type ProviderRow } from '../../crud/provider.ts';
import { ativo as at } from '../../generated/columns.ts';
import { sameCompany } from '../../tenancy/scope.ts';
import { HttpError } from '../../http/envelope.ts';
import { dispositivo_teclado as dev } from '../../generated/columns.ts';
import { entityByKey } from '../../core/registry.ts';
import { qParams, scopeSql } from '../../tenancy/scope.ts';

// Provider logs_teclado (modules/teclado/metadata/esp/logs_teclado.yaml): the Logs tab of a keyboard's command console
// (/esp/tcl/comandos/:serial/logs) — every recorded change of the device and of its messages/macros, deleted ones
// included (a message belongs to the device named when it was created). The company condition is added by sqlPage.

const OPERACAO = `CASE h.operacao WHEN 'create' THEN 'Inclusão' WHEN 'update' THEN 'Alteração' WHEN 'delete' THEN 'Exclusão' ELSE h.operacao END`;
// The change in words: the message text on create, else the changed fields (situação: pendente → entregue).
const DETALHE = `CASE WHEN h.operacao = 'create' AND h.entidade = 'comando_teclado' THEN h.alteracoes->'mensagem'->>'depois'
  ELSE (SELECT string_agg(k || ': ' || coalesce(v->>'antes', '—') || ' → ' || coalesce(v->>'depois', '—'), '; ' ORDER BY k)
          FROM jsonb_each(h.alteracoes) AS a(k, v)) END`;

export const teclado: Record<string, Provider> = {
  logs_teclado: {
    list: async (q, ctx) => {
      const p = qParams();
      const found = await ctx.em.getConnection().execute(
        `SELECT d.${dev.id} AS id FROM ${dev.table} d WHERE d.${dev.serial} = ${p.add(q.params.serial)} AND ${scopeSql(entityByKey('dispositivo_teclado')!, ctx.session, 'd', p)}`, p.values) as { id: number }[];
      if (!found.length) throw new HttpError(404, 'Dispositivo não encontrado');
      const id = Number(found[0]!.id);
      // The id goes into the subquery as a literal (an integer read from the database): sqlPage's parameters follow its WHERE.
      const where: string[] = [], params: unknown[] = [];
      if (typeof q.filter.q === 'string' && q.filter.q) { where.push('(x.usuario ILIKE ? OR x.detalhe ILIKE ?)'); params.push(likeOf(q.filter.q), likeOf(q.filter.q)); }
      return sqlPage(ctx, q, {
        select: 'x.id, x.data, x.registro, x.operacao, x.usuario, x.detalhe',
        from: `(SELECT h.id, h.data, h.empresa_id, h.login AS usuario, ${OPERACAO} AS operacao, ${DETALHE} AS detalhe,
                  CASE h.entidade WHEN 'comando_teclado' THEN 'Mensagem ' || h.registro_id ELSE 'Dispositivo' END AS registro
                FROM historico_alteracao h
                WHERE (h.entidade = 'dispositivo_teclado' AND h.registro_id = ${id})
                   OR (h.entidade = 'comando_teclado' AND h.registro_id IN (
                        SELECT c.registro_id FROM historico_alteracao c
                         WHERE c.entidade = 'comando_teclado' AND c.operacao = 'create' AND c.alteracoes->'dispositivo'->>'depois' = '${id}'))) x`,
        scope: 'x', where, params,
        orderBy: { data: 'x.data', usuario: 'x.usuario' }, tiebreak: 'x.id',
      });
    },
  },
};

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

const estado = (r: ProviderRow) => ({
  serial: r.serial, ativoId: r.ativo_id, ativoDescricao: r.ativo_descricao ?? null, placa: r.ativo_placa ?? null,
  motoristaId: r.motorista_id, protocolo: r.protocolo, modelo: r.modelo,
  fixTime: iso(r.fix_time), latitude: r.lat, longitude: r.lon, velocidade: r.speed, direcao: r.course, altitude: r.altitude,
  valido: r.valid, ignicao: r.ignition, bateria: r.battery, tensao: r.power, ultimoTipo: r.ultimo_tipo,
  ultimoEvento: r.ultimo_evento, ultimaComunicacao: iso(r.ultima_comunicacao), atributos: r.attributes ?? {},
});

export const rastreamento: Record<string, Provider> = {
  ultimo_estado: {
    list: async (q, ctx) => {
      const where: string[] = [], params: unknown[] = [];
      if (q.filter.ativoId !== undefined) { where.push('u.ativo_id = ?'); params.push(q.filter.ativoId); }
      if (typeof q.filter.q === 'string') {
        where.push(`(u.serial ILIKE ? OR a.${at.placa} ILIKE ? OR a.${at.descricao} ILIKE ?)`);
        params.push(...Array(3).fill(likeOf(q.filter.q)));
      }
      const page = await sqlPage(ctx, q, {
        select: `u.*, a.${at.descricao} AS ativo_descricao, a.${at.placa} AS ativo_placa`,
        from: `telemetria.ultimo_estado u LEFT JOIN ${at.table} a ON a.${at.id} = u.ativo_id AND ${sameCompany('a', 'u')}`,
        scope: 'u', where, params,
        orderBy: {
          serial: 'u.serial', ativoDescricao: `a.${at.descricao}`, placa: `a.${at.placa}`, fixTime: 'u.fix_time',
          velocidade: 'u.speed', ultimaComunicacao: 'u.ultima_comunicacao',
        },
        tiebreak: 'u.serial',
      });
      return { rows: page.rows.map(estado), total: page.total };
    },
  },
};
