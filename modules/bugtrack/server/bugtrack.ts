// Bug tracking (spec section 7, /bugtrack): the web client reports the errors it meets (runtime/src/bugtrack.ts);
// the register `bug` keeps one row per company and fingerprint with a count and the last occurrence. The spec's
// calls: GET lista, POST report, POST reconhece/{id}, POST resolve/{id}, DELETE /{id} — the last three run the
// register's actions (runAction: same company check, state check, history) like the screen's buttons.
import crypto from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import type { ActionHandler } from '../../../server/crud/actions.ts';
import { runAction } from '../../../server/crud/actions.ts';
import { history, plain } from '../../../server/crud/history.ts';
import { parseJson, parseRange, parseId } from '../../../server/crud/protocol.ts';
import { serialize } from '../../../server/crud/query.ts';
import { bug as b } from '../../../server/generated/columns.ts';
import type { PermissionKey } from '../../../server/generated/permissions.ts';
import { badRequest, HttpError, ok } from '../../../server/http/envelope.ts';
import { readPage } from '../../../server/read/index.ts';
import { qParams, scopeSql, tenantOnly } from '../../../server/tenancy/scope.ts';
import { requestEm } from '../../../server/db/context.ts';

const KEY = 'adm.sis.bugtrack';
const ent = () => entityByKey('bug')!;
export const TIPOS = ['erro', 'rejeicao', 'componente', 'chunk', 'css_chunk'] as const;

/** Reports a session may send per minute (a loop of errors must not flood the register). */
export const reportLimit = () => Number(process.env.BUGTRACK_REPORTS_PER_MINUTE ?? 30);
const windows = new Map<number, { start: number; n: number }>();
function allow(sessao: number, now = Date.now()): boolean {
  const w = windows.get(sessao);
  if (!w || now - w.start >= 60_000) {
    if (windows.size > 10_000) for (const [k, v] of windows) if (now - v.start >= 60_000) windows.delete(k);
    windows.set(sessao, { start: now, n: 1 });
    return true;
  }
  return ++w.n <= reportLimit();
}

/** What makes two reports the same error: the kind, the message and the top of the stack, without what changes from
 *  one occurrence to the next (line:column, query strings, long numbers, ids). */
export function fingerprint(tipo: string, mensagem: string, stack: string | null): string {
  const norm = (s: string) => s
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\?[^\s):]*/g, '')
    .replace(/:\d+:\d+/g, '')
    .replace(/\d{4,}/g, '<n>')
    .trim();
  const frames = (stack ?? '').split('\n').map((l) => l.trim()).filter((l) => /^at\s|@/.test(l)).slice(0, 3).map(norm);
  return crypto.createHash('sha256').update([tipo, norm(mensagem), ...frames].join('\n')).digest('hex');
}

const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.trim() ? v.slice(0, max) : null);

/** Reconhecer / Resolver: the state with who and when (recorded in the history under the action's name). */
function marca(situacao: 'reconhecido' | 'resolvido'): ActionHandler {
  return async ({ tx, entity, session, row, action }) => {
    const before = plain(entity, row);
    const quem = session.apiKey ? null : session.usuarioId;
    tx.assign(row as never, (situacao === 'reconhecido'
      ? { situacao, reconhecidoPor: quem, reconhecidoEm: new Date() }
      : { situacao, resolvidoPor: quem, resolvidoEm: new Date() }) as never);
    await tx.flush();
    const after = plain(entity, row);
    history(tx, entity, session, Number(row.id), action.name, before, after);
    await tx.flush();
    return { body: serialize(entity, row), changes: [{ entity: entity.key, id: Number(row.id), op: action.name, before, after }] };
  };
}

const exclui: ActionHandler = async ({ tx, entity, session, row }) => {
  const before = plain(entity, row);
  const id = Number(row.id);
  tx.remove(row as never);
  await tx.flush();
  history(tx, entity, session, id, 'delete', before, null);
  await tx.flush();
  return { body: { id }, changes: [{ entity: entity.key, id, op: 'delete', before, after: null }] };
};

export const actions = { bug_reconhece: marca('reconhecido'), bug_resolve: marca('resolvido'), bug_exclui: exclui };

async function act(c: Context<AppEnv>, name: string, msg: string) {
  const e = ent();
  const action = e.actions.find((a) => a.name === name)!;
  const out = await runAction(requestEm(c), e, action, c.get('session'), parseId(c), {});
  return ok(c, out.body, msg);
}

export default (api: Hono<AppEnv>) => {
  // Any signed-in user's client reports what it met; company, user and session come from the session.
  route(api, 'post', '/bugtrack/report', { permission: 'self', scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const body = await c.req.json().catch(() => { throw badRequest('Requisição inválida: JSON malformado'); }) as Record<string, unknown>;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Informe tipo e mensagem do erro');
    const tipo = String(body.tipo ?? '');
    if (!(TIPOS as readonly string[]).includes(tipo)) throw badRequest(`O campo tipo deve ser um de: ${TIPOS.join(', ')}`);
    const mensagem = text(body.mensagem, 500);
    if (!mensagem) throw badRequest('O campo mensagem é obrigatório');
    if (!allow(s.id)) throw new HttpError(429, 'Muitos erros reportados por esta sessão; os próximos serão aceitos em instantes');
    const stack = text(body.stack, 8000);
    const rota = text(body.rota, 500);
    const navegador = text(body.navegador, 400) ?? text(c.req.header('user-agent'), 400);
    const fp = fingerprint(tipo, mensagem, stack);
    const usuario = s.apiKey ? null : s.usuarioId;
    const e = ent();
    const em = requestEm(c);
    const conn = em.getConnection();
    // One more occurrence of a known error (a resolved one opens again), else a new row; a concurrent first report
    // of the same error loses the unique race and counts as an occurrence.
    const bump = async () => {
      const q = qParams();
      const set = [`${b.ocorrencias} = x.${b.ocorrencias} + 1`, `${b.ultimaOcorrencia} = now()`, `${b.rota} = ${q.add(rota)}`,
        `${b.navegador} = ${q.add(navegador)}`, `${b.usuario} = ${q.add(usuario)}`, `${b.stack} = coalesce(${q.add(stack)}, x.${b.stack})`,
        `${b.situacao} = case when x.${b.situacao} = 'resolvido' then 'novo' else x.${b.situacao} end`, `${b.updatedAt} = now()`];
      const rows = await conn.execute(`update ${b.table} x set ${set.join(', ')} where ${scopeSql(e, s, 'x', q)} and x.${b.fingerprint} = ${q.add(fp)} returning x.${b.id} as id, x.${b.ocorrencias} as n`, q.values) as { id: number; n: number }[];
      return rows[0];
    };
    let hit = await bump();
    if (!hit) {
      try {
        const row = em.create(ormName(em, e), {
          ...tenantOnly(e, s), fingerprint: fp, tipo, mensagem, stack, rota, navegador, usuario, ocorrencias: 1,
          primeiraOcorrencia: new Date(), ultimaOcorrencia: new Date(), situacao: 'novo',
        } as never) as { id: number };
        await em.flush();
        return ok(c, { id: row.id, fingerprint: fp, ocorrencias: 1 }, 'Erro registrado', 201);
      } catch (err) {
        if ((err as { code?: string }).code !== '23505' && !/unique/i.test(String((err as Error).message))) throw err;
        em.clear();
        hit = await bump();
        if (!hit) throw err;
      }
    }
    return ok(c, { id: Number(hit.id), fingerprint: fp, ocorrencias: Number(hit.n) }, 'Erro registrado');
  });

  route(api, 'get', '/bugtrack/lista', { permission: [`${KEY}.lista` as PermissionKey], scope: 'empresa' }, async (c) => {
    const { offset, limit } = parseRange(c.req.query('range'));
    const page = await readPage(requestEm(c), ent(), c.get('session'), { filter: parseJson(c.req.query('filter'), 'filter'), sort: parseJson(c.req.query('sort'), 'sort'), offset, limit });
    return ok(c, { total: page.total, itens: page.rows });
  });

  route(api, 'post', '/bugtrack/reconhece/:id', { permission: [`${KEY}.reconhece` as PermissionKey], scope: 'empresa' }, (c) => act(c, 'reconhece', 'Erro reconhecido'));
  route(api, 'post', '/bugtrack/resolve/:id', { permission: [`${KEY}.resolve` as PermissionKey], scope: 'empresa' }, (c) => act(c, 'resolve', 'Erro resolvido'));
  route(api, 'delete', '/bugtrack/:id', { permission: [`${KEY}.exclui` as PermissionKey], scope: 'empresa' }, (c) => act(c, 'exclui', 'Erro excluído'));
};
