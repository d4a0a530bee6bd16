// Named calls of the gateway data (spec section 7), tenancy-scoped and permission-checked:
//   GET /api/equipamento_ativo/por_serial/{serial}  → payload { ativoId, serial, ... } (current link)
//   GET /api/equipamento_ativo/por_ativo/{id}       → list of { serial, ativoId, ... } (current links; ?historico=1 all)
//   GET /api/rastreamento/ultimo_estado             → latest state of the active company's devices (?ativoId=)
// Module shape of server/calls/*.ts: `export default (api: Hono<AppEnv>) => void`.
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { requireSession, tenant } from '../auth/middleware.ts';
import { can } from '../auth/users.ts';
import { HttpError, ok } from '../http/envelope.ts';

const VINCULO = ['adm.cfg.equipamentos.vinculo.lista', 'adm.cfg.equipamentos.vinculo.visualizar', 'adm.cfg.equipamentos.lista', 'tlm.fro.ativo.equipamento'];
const ESTADO = ['tlm.ras.rastreamento_ao_vivo', 'tlm.ras.rastreamento_ao_vivo.lista', 'tlm.fro.ativo.lista', 'adm.cfg.equipamentos.lista'];

function requireAny(c: Context<AppEnv>, keys: string[]): void {
  const s = c.get('session');
  if (!keys.some((k) => can(s, k))) throw new HttpError(403, 'Você não tem permissão para fazer isso');
}

async function sql<T = Record<string, any>>(c: Context<AppEnv>, q: string, params: unknown[]): Promise<T[]> {
  return (await c.get('em').getConnection().execute(q, params)) as T[];
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

function vinculo(r: Record<string, any>) {
  return {
    id: r.id, _id: r.id, serial: r.serial, ativoId: r.ativo_id, empresaId: r.empresa_id,
    dataInicio: iso(r.data_inicio), dataFim: iso(r.data_fim), ativo: r.data_fim === null || new Date(r.data_fim) > new Date(),
    equipamentoId: r.equipamento_id ?? null, modelo: r.modelo ?? null, tecnologia: r.tecnologia ?? null, firmware: r.firmware ?? null,
    ultimaComunicacao: iso(r.ultima_comunicacao),
  };
}

const VINCULO_SELECT = `
SELECT ea.id, ea.serial, ea.ativo_id, ea.empresa_id, ea.data_inicio, ea.data_fim,
       e.id AS equipamento_id, e.modelo, e.tecnologia, e.firmware, u.ultima_comunicacao
  FROM equipamento_ativo ea
  LEFT JOIN equipamento e ON e.serial = ea.serial AND e.empresa_id = ea.empresa_id
  LEFT JOIN telemetria.ultimo_estado u ON u.serial = ea.serial AND u.empresa_id = ea.empresa_id`;
const CURRENT = `ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now())`;

export default (api: Hono<AppEnv>) => {
  api.get('/equipamento_ativo/por_serial/:serial', requireSession(), tenant(), async (c) => {
    requireAny(c, VINCULO);
    const s = c.get('session');
    const rows = await sql(c, `${VINCULO_SELECT} WHERE ea.empresa_id = ? AND ea.serial = ? AND ${CURRENT} ORDER BY ea.data_inicio DESC LIMIT 1`,
      [s.empresaAtiva, c.req.param('serial')]);
    if (!rows.length) throw new HttpError(404, 'Equipamento sem vínculo com ativo');
    return ok(c, vinculo(rows[0]!));
  });

  api.get('/equipamento_ativo/por_ativo/:id', requireSession(), tenant(), async (c) => {
    requireAny(c, VINCULO);
    const s = c.get('session');
    const id = Number(c.req.param('id'));
    if (!Number.isInteger(id) || id <= 0) throw new HttpError(400, 'Identificador do ativo inválido');
    const all = c.req.query('historico') === '1' || c.req.query('historico') === 'true';
    const rows = await sql(c, `${VINCULO_SELECT} WHERE ea.empresa_id = ? AND ea.ativo_id = ? ${all ? '' : `AND ${CURRENT}`} ORDER BY ea.data_inicio DESC`,
      [s.empresaAtiva, id]);
    return ok(c, rows.map(vinculo));
  });

  api.get('/rastreamento/ultimo_estado', requireSession(), tenant(), async (c) => {
    requireAny(c, ESTADO);
    const s = c.get('session');
    const ativoId = c.req.query('ativoId');
    const params: unknown[] = [s.empresaAtiva];
    let where = 'u.empresa_id = ?';
    if (ativoId) {
      if (!/^\d+$/.test(ativoId)) throw new HttpError(400, 'Identificador do ativo inválido');
      where += ' AND u.ativo_id = ?';
      params.push(Number(ativoId));
    }
    const rows = await sql(c, `
      SELECT u.*, a.descricao AS ativo_descricao, a.placa AS ativo_placa
        FROM telemetria.ultimo_estado u LEFT JOIN ativo a ON a.id = u.ativo_id AND a.empresa_id = u.empresa_id
       WHERE ${where} ORDER BY a.descricao NULLS LAST, u.serial`, params);
    return ok(c, rows.map((r) => ({
      serial: r.serial, ativoId: r.ativo_id, ativoDescricao: r.ativo_descricao ?? null, placa: r.ativo_placa ?? null,
      motoristaId: r.motorista_id, protocolo: r.protocolo, modelo: r.modelo,
      fixTime: iso(r.fix_time), latitude: r.lat, longitude: r.lon, velocidade: r.speed, direcao: r.course, altitude: r.altitude,
      valido: r.valid, ignicao: r.ignition, bateria: r.battery, tensao: r.power, ultimoTipo: r.ultimo_tipo,
      ultimoEvento: r.ultimo_evento, ultimaComunicacao: iso(r.ultima_comunicacao), atributos: r.attributes ?? {},
    })));
  });
};
