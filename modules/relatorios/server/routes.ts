// The reports' calls (every one through the pipeline: session → permission key → company scope):
//   GET /api/relatorios                               (rel.rel.relatorios) the families the caller's keys allow, with
//                                                     their kinds: parameters, JSON Schema, columns, sort
//   GET /api/relatorios/{familia}/{tipo}              (the family's key) one page: ?params={json}&sort=["col","ASC"]
//                                                     &range=[0,24]&colunas=["a","b"]&fuso=America/Sao_Paulo;
//                                                     rows + Content-Range (ra-data-simple-rest)
//   GET /api/relatorios/{familia}/{tipo}/exporta      (the family's key) ?formato=xlsx|csv|pdf and the same query:
//                                                     the file, streamed (exportReport, the seam a job can take over)
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { can } from '../../../server/auth/users.ts';
import { route } from '../../../server/core/pipeline.ts';
import type { PermissionKey } from '../../../server/generated/permissions.ts';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { acquireExportSlot, exportBody } from '../../../server/crud/export.ts';
import { parseJson, parseRange, parseSort, sendPage } from '../../../server/crud/protocol.ts';
import { REPORTS_KEY } from '../../../shared/relatorio.ts';
import { exportReport, type ReportFormat } from './export.ts';
import { families, readReport, resolveReport, type ReportRequest } from './reports.ts';
import { requestEm } from '../../../server/db/context.ts';

/** The family's key, or 404 for an unknown family (before the permission check answers 403). */
function familyKey(c: Context<AppEnv>): PermissionKey[] {
  const f = families().find((x) => x.key === c.req.param('familia'));
  if (!f) throw new HttpError(404, 'Relatório não encontrado');
  return [f.permission as PermissionKey];
}

function requestOf(c: Context<AppEnv>): ReportRequest {
  const colunas = parseJson(c.req.query('colunas'), 'colunas');
  if (colunas !== undefined && (!Array.isArray(colunas) || !colunas.every((x) => typeof x === 'string'))) throw badRequest('Parâmetro colunas inválido');
  return {
    familia: c.req.param('familia') ?? '', tipo: c.req.param('tipo') ?? '',
    params: (parseJson(c.req.query('params'), 'params') ?? {}) as Record<string, unknown>,
    colunas: colunas as string[] | undefined,
    sort: parseSort(c.req.query('sort')),
    fuso: c.req.query('fuso'),
  };
}

export function relatorioRoutes(api: Hono<AppEnv>): void {
  route(api, 'get', '/relatorios', { permission: [REPORTS_KEY as PermissionKey], scope: 'empresa' }, (c) => {
    const s = c.get('session');
    const allowed = families().filter((f) => can(s, f.permission)).sort((a, b) => a.order - b.order || a.label.localeCompare(b.label, 'pt-BR'));
    return ok(c, allowed.map((f) => ({
      key: f.key, label: f.label, help: f.help ?? null, route: f.route, permission: f.permission,
      tipos: f.tipos.map((t) => ({ key: t.key, label: t.label, help: t.help ?? null, params: t.params, columns: t.columns, sort: t.sort, schema: t.schema })),
    })));
  });

  const spec = { permission: familyKey, scope: 'empresa' as const };
  route(api, 'get', '/relatorios/:familia/:tipo/exporta', spec, async (c) => {
    const formato = (c.req.query('formato') ?? 'xlsx') as ReportFormat;
    const session = c.get('session');
    const release = acquireExportSlot(session.usuarioId);
    try {
      const file = await exportReport({ em: requestEm(c), session }, requestOf(c), formato);
      const body = await exportBody(file.chunks, { format: formato === 'csv' ? 'csv' : 'xlsx', log: c.get('log'), onEnd: release });
      return new Response(body, {
        status: 200,
        headers: {
          'Content-Type': file.contentType, 'Content-Disposition': `attachment; filename="${file.filename}"`,
          'Cache-Control': 'no-store', 'X-Total-Count': String(file.total),
        },
      });
    } catch (err) {
      release();
      throw err;
    }
  });
  route(api, 'get', '/relatorios/:familia/:tipo', spec, async (c) => {
    const r = resolveReport(requestOf(c));
    const { offset, limit } = parseRange(c.req.query('range'));
    const { rows, total } = await readReport(requestEm(c), c.get('session'), r, offset, limit);
    return sendPage(c, `relatorios.${r.family.key}.${r.kind.key}`, offset, rows, total);
  });
}
