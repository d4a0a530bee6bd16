// Diagnostics providers (modules/diagnostico/metadata/cfg/diagnostico.yaml, modules/diagnostico/metadata/cfg/comando_vdo.yaml):
// - diagnostico: the checks of /cfg/dia/healthcheck, made when the list is read: the database (round trip), the
//   application process, and each active healthcheck register (its address asked with GET, no redirects followed,
//   a short timeout; only the status code is read, never the body).
// - comando_vdo: the command queue (fila_processamento) of the company's video-telemetry devices.
import { likeOf, memoryPage, sqlPage, type Provider, type ProviderRow } from '../../../server/crud/provider.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { ativo as atv, equipamento as eqp, equipamento_ativo as ea, fila_processamento as fila, healthcheck as hc, usuario as usr } from '../../../server/generated/columns.ts';
import { sameCompany } from '../../../server/tenancy/scope.ts';

export const PROBE_TIMEOUT_MS = Number(process.env.HEALTHCHECK_TIMEOUT_MS ?? 3000);
/** Services probed per read (the registered ones, by name). */
export const MAX_PROBES = 50;

/** The pt-BR label of an enum value of fila_processamento (metadata options), else the value. */
const label = (field: string, v: unknown) =>
  entityByKey('fila_processamento')?.fields.find((f) => f.name === field)?.options?.find((o) => o.value === v)?.label ?? v ?? null;
/** The vehicle the device was in when the command was queued (the link in force then), as in fila_processamento's list. */
const VEICULO = `(SELECT a.${atv.descricao} || coalesce(' (' || a.${atv.placa} || ')', '') FROM ${ea.table} v
  JOIN ${atv.table} a ON a.${atv.id} = v.${ea.ativoId} AND ${sameCompany('a', 'f')}
  WHERE v.${ea.serial} = f.${fila.serial} AND ${sameCompany('v', 'f')} AND v.${ea.dataInicio} <= f.${fila.createdAt}
    AND (v.${ea.dataFim} IS NULL OR v.${ea.dataFim} > f.${fila.createdAt})
  ORDER BY v.${ea.dataInicio} DESC LIMIT 1)`;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

/** GET `url` within the timeout: ok when the status is the expected one. */
export async function probe(url: string, expected: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<{ ok: boolean; situacao: string; tempoMs: number | null }> {
  const t0 = performance.now();
  let u: URL;
  try { u = new URL(url); } catch { return { ok: false, situacao: 'Endereço inválido', tempoMs: null }; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, situacao: 'Endereço inválido: use http ou https', tempoMs: null };
  try {
    const res = await fetch(u, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), headers: { 'user-agent': 'rastro-healthcheck' } });
    await res.body?.cancel();
    const tempoMs = Math.round(performance.now() - t0);
    return res.status === expected
      ? { ok: true, situacao: `Respondeu ${res.status}`, tempoMs }
      : { ok: false, situacao: `Respondeu ${res.status}, esperado ${expected}`, tempoMs };
  } catch (e) {
    const timeout = (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError';
    return { ok: false, situacao: timeout ? `Sem resposta em ${timeoutMs} ms` : 'Falha de conexão', tempoMs: null };
  }
}

export const providers: Record<string, Provider> = {
  diagnostico: {
    list: async (q, ctx) => {
      const now = new Date().toISOString();
      const rows: ProviderRow[] = [];
      const t0 = performance.now();
      try {
        await ctx.em.getConnection().execute('SELECT 1');
        rows.push({ id: 'banco', componente: 'Banco de dados', tipo: 'Plataforma', endereco: null, ok: true, situacao: 'Conectado', tempoMs: Math.round(performance.now() - t0), verificadoEm: now });
      } catch {
        rows.push({ id: 'banco', componente: 'Banco de dados', tipo: 'Plataforma', endereco: null, ok: false, situacao: 'Sem conexão', tempoMs: null, verificadoEm: now });
      }
      const mem = process.memoryUsage();
      rows.push({
        id: 'aplicacao', componente: 'Servidor da aplicação', tipo: 'Plataforma', endereco: null, ok: true,
        situacao: `No ar há ${Math.round(process.uptime() / 60)} min; memória ${Math.round(mem.rss / 1048576)} MB`, tempoMs: 0, verificadoEm: now,
      });
      const checks = (await ctx.em.getConnection().execute(
        `SELECT ${hc.id} AS id, ${hc.descricao} AS descricao, ${hc.url} AS url, ${hc.statusEsperado} AS esperado
           FROM ${hc.table} WHERE ${hc.ativo} ORDER BY ${hc.descricao} LIMIT ${MAX_PROBES}`)) as { id: number; descricao: string; url: string; esperado: number }[];
      const results = await Promise.all(checks.map((c) => probe(c.url, Number(c.esperado))));
      checks.forEach((c, i) => rows.push({ id: `servico-${c.id}`, componente: c.descricao, tipo: 'Serviço monitorado', endereco: c.url, ...results[i], verificadoEm: new Date().toISOString() }));
      return memoryPage(rows, q, ctx.meta);
    },
  },

  comando_vdo: {
    list: async (q, ctx) => {
      const where = [`e.${eqp.tecnologia} = 'vdo'`];
      const params: unknown[] = [];
      if (q.params.situacao === 'processando') where.push(`f.${fila.status} IN ('pendente', 'enviado')`);
      const serials = q.filter.serial;
      if (Array.isArray(serials) && serials.length) { where.push(`f.${fila.serial} IN (${serials.map(() => '?').join(', ')})`); params.push(...serials); }
      else if (typeof serials === 'string') { where.push(`f.${fila.serial} = ?`); params.push(serials); }
      if (typeof q.filter.q === 'string' && q.filter.q) { where.push(`f.${fila.serial} ILIKE ?`); params.push(likeOf(q.filter.q)); }
      const page = await sqlPage(ctx, q, {
        select: `f.${fila.id} AS id, f.${fila.serial} AS serial, e.${eqp.modelo} AS modelo, f.${fila.event} AS event, f.${fila.value} AS value,
                 f.${fila.processing} AS processing, f.${fila.status} AS status, f.${fila.tentativas} AS tentativas, f.${fila.createdAt} AS created_at,
                 f.${fila.enviadoEm} AS enviado_em, f.${fila.concluidoEm} AS concluido_em, f.${fila.resposta} AS resposta,
                 ${VEICULO} AS veiculo, (SELECT u.${usr.nome} FROM ${usr.table} u WHERE u.${usr.id} = f.${fila.usuario}) AS usuario`,
        from: `${fila.table} f JOIN ${eqp.table} e ON e.${eqp.serial} = f.${fila.serial} AND ${sameCompany('e', 'f')}`,
        scope: 'f', where, params,
        orderBy: { id: `f.${fila.id}`, serial: `f.${fila.serial}`, modelo: `e.${eqp.modelo}`, event: `f.${fila.event}`, status: `f.${fila.status}`, createdAt: `f.${fila.createdAt}`, enviadoEm: `f.${fila.enviadoEm}` },
        tiebreak: `f.${fila.id} DESC`,
      });
      return {
        total: page.total,
        rows: page.rows.map((r) => ({
          id: r.id, serial: r.serial, modelo: r.modelo, event: label('event', r.event), value: r.value ?? null, processing: r.processing, status: label('status', r.status),
          veiculo: r.veiculo ?? null, usuario: r.usuario ?? null,
          tentativas: r.tentativas, createdAt: iso(r.created_at), enviadoEm: iso(r.enviado_em), concluidoEm: iso(r.concluido_em), resposta: r.resposta ?? null,
        })),
      };
    },
    cell: { value: (r) => JSON.stringify(r.value ?? null) },
  },
};
