// Generic CRUD routes for one entity of the model, in the ra-data-simple-rest convention.
// server/app/bundle.ts mounts `crudRoutes(entity)` for each entity of the model (re-exported by ./index.ts).
import { Hono, type Context, type Handler } from 'hono';
import type { EntityMeta } from '../../shared/model.ts';
import type { AppEnv } from '../app/env.ts';
import { guardTarget } from '../auth/grants.ts';
import { NO_SESSIONS, endUserSessions } from '../auth/sessions.ts';
import { emitChange } from '../realtime/events.ts';
import { HistoricoAlteracaoSchema } from '../db/system-entities.ts';
import { HttpError, badRequest, notFound } from '../http/envelope.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { exportResponse } from './export.ts';
import { MAX_PAGE, exportParams, listFilter, parseId, parseJson, parseRange, readBody, sendPage } from './protocol.ts';
import { handlerOf, matches, readPayload, runAction, validatePayload } from './actions.ts';
import { fieldOf, findVisible, serialize, type Row, type Where } from './query.ts';
import { ownerOnly, scopeWhere, tenantOnly } from '../tenancy/scope.ts';
import { secretToken } from '../auth/api-key.ts';
import { mapDbError, prepare } from './write.ts';
import { guardLookupUse, lookupOptions } from './lookup.ts';
import { hookOf, runHook } from './hooks.ts';
import { history, plain, withLabels } from './history.ts';
import { permissionStep, scopeStep, sessionStep } from '../core/pipeline.ts';
import { boundParams } from './params.ts';
import { checkQuery, computedColumns, computedField, readBatches, readOne, readPage } from '../read/index.ts';
import type { PermissionKey } from '../generated/permissions.ts';
import { requestDb, requestEm } from '../db/context.ts';

// ---------- handlers shared with the nested routes (server/crud/nested.ts) ----------

/** What a nested route adds, resolved per request once its parent is visible: the parent's condition, which every
 *  row read must meet and every row created carries. Undefined for the entity's own routes. */
export type Narrow = (c: Context<AppEnv>) => Promise<Row>;

/** A nested list's parent known without reading it: the rows' condition and the parent row that must be visible,
 *  checked in the list's own statement; undefined when the condition needs the parent's row (then Narrow runs). */
export type ParentOf = (c: Context<AppEnv>) => { narrow: Row; parent: { entity: EntityMeta; where: Where } } | undefined;

/** GET list: one statement of the read engine (session checked in it; a nested list's parent too). */
export function listHandler(e: () => EntityMeta, narrow?: Narrow, parentOf?: ParentOf): Handler<AppEnv> {
  return async (c) => {
    const known = parentOf?.(c);
    const more = known ? known.narrow : narrow && (await narrow(c));
    const { offset, limit } = parseRange(c.req.query('range'));
    const ent = e();
    const q = { filter: listFilter(c), sort: parseJson(c.req.query('sort'), 'sort'), narrow: more || undefined, parent: known?.parent, offset, limit };
    const page = await readPage(requestDb(c), ent, c.get('session'), q, c.get('sessionCheck'));
    if (!page.parentFound) throw notFound('Registro pai não encontrado');
    return sendPage(c, ent.key, offset, page.rows, page.total);
  };
}

/** GET by id, as listHandler. */
export function oneHandler(e: () => EntityMeta, narrow?: Narrow): Handler<AppEnv> {
  return async (c) => {
    const more = narrow && (await narrow(c));
    const id = parseId(c);
    const row = await readOne(requestDb(c), e(), c.get('session'), id, more || undefined, c.get('sessionCheck'));
    if (!row) throw notFound();
    return c.json(row);
  };
}

/** POST: validated, in the caller's tenant (and the nested route's parent, whatever the body says), with history. */
export function createHandler(e: () => EntityMeta, narrow?: Narrow): Handler<AppEnv> {
  return async (c) => {
    const more = narrow && (await narrow(c));
    const s = c.get('session');
    const ent = e();
    const raw = await readBody(c);
    const body = more && raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...raw, ...more } : raw;
    const em = requestEm(c);
    const secret = secretToken(ent);
    const { row: created, related } = await em.transactional(async (tx) => {
      const data = await prepare(tx, ent, s, body, null);
      const related = await runHook({ tx, session: s, entity: ent, data, existing: null, storage: c.get('storage') });
      const row = tx.create(ormName(tx, ent), { ...data, ...secret?.columns, ...tenantOnly(ent, s), ...ownerOnly(ent, s) } as never) as Row;
      await tx.flush();
      history(tx, ent, s, Number(row.id), 'create', null, plain(ent, row));
      await tx.flush();
      return { row, related };
    }).catch((err) => mapDbError(ent, err));
    for (const ch of related) emitChange(ch);
    emitChange({ entity: ent.key, id: Number(created.id), op: 'create', before: null, after: plain(ent, created) });
    // A generated secret (chave_de_api.chave) leaves the server this once; only its hash is kept.
    return c.json({ ...serialize(ent, created), ...secret?.answer }, 201);
  };
}

// ---------- routes ----------

export function crudRoutes(entity: EntityMeta): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const P = entity.permission;
  const e = () => entityByKey(entity.key) ?? entity;
  // The chain of every route: session (here) → permission key → company scope → handler (server/core/pipeline.ts).
  const key = (k: string) => `${P}.${k}` as PermissionKey;
  const perm = (k: string) => permissionStep([key(k)]);
  const scope = scopeStep(entity.scope);
  // List and by id settle a session handed out from the cache in their own statement (fast path) or right before
  // the ORM's.
  const scopeRead = scopeStep(entity.scope, { sessionInSql: true });
  // Route parameters (metadata params): their values narrow every read and are carried by every write, like a
  // nested route's parent (unknown values 404, server/crud/params.ts).
  const narrow: Narrow | undefined = entity.params?.length ? async (c) => (await boundParams(c, e()))! : undefined;

  hookOf(entity); // an unknown write hook fails at start-up, not at the first save
  app.use('*', sessionStep({ credentials: entity.credentials }));

  // getMany (filter {id:[...]}) is used to show references: any read permission of the entity will do.
  const listKeys = permissionStep((c) => {
    const filter = listFilter(c);
    const isGetMany = !!filter && typeof filter === 'object' && Object.keys(filter).length === 1 && 'id' in filter;
    return isGetMany ? [key('lista'), key('visualizar')] : [key('lista')];
  });

  app.get('/', listKeys, scopeRead, listHandler(e, narrow));

  app.get('/export', perm('lista'), scope, async (c) => {
    const s = c.get('session');
    const ent = e();
    const { format, columns: names } = exportParams(c);
    const more = narrow && (await narrow(c));
    const q = { filter: listFilter(c), sort: parseJson(c.req.query('sort'), 'sort'), narrow: more || undefined };
    checkQuery(ent, q);
    const computed = computedColumns(ent);
    const columns = (names ?? ent.columns.filter((x) => x.default).map((x) => x.source)).map((src) => {
      const cc = computed.find((x) => x.source === src);
      if (cc) return { field: computedField(cc), label: cc.label };
      const f = fieldOf(ent, src);
      if (!f || f.hidden || f.writeOnly || f.type === 'password') throw badRequest(`Coluna desconhecida: ${src}`);
      return { field: f, label: ent.columns.find((x) => x.source === src)?.label ?? f.label };
    });
    // Streamed from the engine's cursor, limited per user; see server/crud/export.ts.
    const em = requestEm(c);
    return exportResponse({ em, entity: ent, session: s, columns, format, log: c.get('log') }, readBatches(em, ent, s, q));
  });

  // Choices of a lookup field (server/crud/lookup.ts): whoever may list, see, add or edit the entity.
  app.get('/opcoes/:field', permissionStep([key('lista'), key('visualizar'), key('adicionar'), key('editar')]), scope, async (c) =>
    c.json(await lookupOptions(requestEm(c), e(), c.req.param('field'), c.get('session'), c.req.query())));

  app.get('/:id/historico', perm('visualizar'), scope, async (c) => {
    const s = c.get('session');
    const id = parseId(c);
    const ent = e();
    const em = requestEm(c);
    const where: Where = { entidade: ent.key, registroId: id, ...tenantOnly(ent, s) };
    const more = narrow && (await narrow(c));
    const count = (extra?: Row) => em.count(ormName(em, ent), { $and: [{ id }, scopeWhere(ent, s), ...(extra ? [extra] : [])] } as never);
    const live = await count(more);
    const rows = await em.find(HistoricoAlteracaoSchema, where as never, { orderBy: { data: 'DESC', id: 'DESC' } });
    // The change history of a row with companies is shown only while the caller may see the row; a row outside the
    // route parameters (metadata params) is not there.
    if (!live && (!rows.length || ent.companies || (more && await count()))) throw notFound();
    const out = rows.map((r) => ({ id: r.id, data: r.data.toISOString(), usuarioId: r.usuarioId, login: r.login, operacao: r.operacao, alteracoes: structuredClone(r.alteracoes ?? {}) }));
    await withLabels(em, ent, s, out as never);
    return c.json(out);
  });

  app.get('/:id', perm('visualizar'), scopeRead, oneHandler(e, narrow));

  // Handler actions (server/crud/actions.ts), per row and, when bulk, on { ids: [...] }.
  for (const action of entity.actions.filter((a) => a.handler)) {
    handlerOf(entity, action); // an unknown handler fails at start-up, not at the first click
    const permAction = permissionStep([action.permission as PermissionKey]);
    app.post(`/:id/${action.name}`, permAction, scope, async (c) => {
      const ent = e();
      const id = parseId(c);
      const more = narrow && (await narrow(c));
      const out = await runAction(requestEm(c), ent, action, c.get('session'), id, await readPayload(c.req), more);
      return c.json(out.body as never, out.status ?? 200);
    });
    if (action.bulk) {
      app.post(`/${action.name}`, permAction, scope, async (c) => {
        const ent = e();
        const body = await readPayload(c.req) as { ids?: unknown; payload?: unknown };
        const ids = body && typeof body === 'object' ? body.ids : undefined;
        if (!Array.isArray(ids) || !ids.length || ids.length > MAX_PAGE || !ids.every((x) => Number.isSafeInteger(x) && x > 0)) {
          throw badRequest('Informe os registros selecionados (ids)');
        }
        const payload = validatePayload(ent, action, body.payload ?? {});
        const more = narrow && (await narrow(c));
        // One transaction per row: a refused row does not undo the others; each answers its own status.
        const results = [];
        for (const id of new Set(ids as number[])) {
          try {
            const out = await runAction(requestEm(c), ent, action, c.get('session'), id, payload, more);
            results.push({ id, status: out.status ?? 200, payload: out.body });
          } catch (err) {
            if (!(err instanceof HttpError)) throw err;
            results.push({ id, status: err.status, msg: err.message });
          }
        }
        return c.json(results);
      });
    }
  }

  // Declarative row actions (also on read-only resources, e.g. sessao.elimina).
  for (const action of entity.actions.filter((a) => a.set)) {
    app.post(`/:id/${action.name}`, permissionStep([action.permission as PermissionKey]), scope, async (c) => {
      const s = c.get('session');
      const ent = e();
      const id = parseId(c);
      const more = narrow && (await narrow(c));
      const em = requestEm(c);
      const { row: updated, before, after } = await em.transactional(async (tx) => {
        const row = await findVisible(tx, ent, s, id, more);
        await guardTarget(tx, ent, s, row, action.name);
        const before = plain(ent, row);
        if (action.visibleWhen && !matches(before, action.visibleWhen)) {
          throw new HttpError(409, `Ação "${action.label}" não permitida na situação atual do registro`);
        }
        tx.assign(row as never, action.set as never);
        await tx.flush();
        const after = plain(ent, row);
        history(tx, ent, s, id, action.name, before, after);
        await tx.flush();
        return { row, before, after };
      }).catch((err) => mapDbError(ent, err));
      emitChange({ entity: ent.key, id, op: action.name, before, after });
      return c.json(serialize(ent, updated));
    });
  }
  if (entity.readOnlyResource) return app;

  app.post('/', perm('adicionar'), scope, createHandler(e, narrow));

  app.put('/:id', perm('editar'), scope, async (c) => {
    const s = c.get('session');
    const ent = e();
    const id = parseId(c);
    const more = narrow && (await narrow(c));
    const raw = await readBody(c);
    // Route parameters: the row must be within them, and the body cannot move it out.
    const body = more && raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...raw, ...more } : raw;
    const em = requestEm(c);
    const { row: updated, before, after, ended, related } = await em.transactional(async (tx) => {
      const row = await findVisible(tx, ent, s, id, more);
      await guardTarget(tx, ent, s, row, 'update');
      const before = plain(ent, row);
      const data = await prepare(tx, ent, s, body, row);
      await guardLookupUse(ent, row, data);
      const related = await runHook({ tx, session: s, entity: ent, data, existing: row, storage: c.get('storage') });
      tx.assign(row as never, data as never);
      await tx.flush();
      const after = plain(ent, row);
      const passwordChanged = ent.fields.some((f) => f.type === 'password' && f.name in data && data[f.name] != null);
      history(tx, ent, s, id, 'update', before, after, passwordChanged);
      await tx.flush();
      // A password set by an administrator ends every session of that user (sockets too, after commit).
      const ended = passwordChanged && ent.key === 'usuario' ? await endUserSessions(tx, id) : NO_SESSIONS;
      return { row, before, after, ended, related };
    }).catch((err) => mapDbError(ent, err));
    ended.notify();
    for (const ch of related) emitChange(ch);
    emitChange({ entity: ent.key, id, op: 'update', before, after });
    return c.json(serialize(ent, updated));
  });

  app.delete('/:id', perm('excluir'), scope, async (c) => {
    const s = c.get('session');
    const ent = e();
    const id = parseId(c);
    const more = narrow && (await narrow(c));
    const em = requestEm(c);
    const { out: gone, before } = await em.transactional(async (tx) => {
      const row = await findVisible(tx, ent, s, id, more);
      await guardTarget(tx, ent, s, row, 'delete');
      await guardLookupUse(ent, row, null);
      const before = plain(ent, row);
      const out = serialize(ent, row);
      tx.remove(row as never);
      await tx.flush();
      history(tx, ent, s, id, 'delete', before, null);
      await tx.flush();
      return { out, before };
    }).catch((err) => mapDbError(ent, err));
    emitChange({ entity: ent.key, id, op: 'delete', before, after: null });
    return c.json(gone);
  });

  return app;
}

export default crudRoutes;
