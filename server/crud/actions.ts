// Actions with a server handler (metadata `actions: [{ handler }]`): one registry, one runner. The route
// (routes.ts) has already run session → permission key → company scope; the runner validates the payload against
// the schema declared in metadata, loads the row within the caller's company and runs the handler in a transaction.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActionMeta, EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import * as cols from '../generated/columns.ts';
import type { FieldOf } from '../generated/columns.ts';
import { guardTarget } from '../auth/grants.ts';
import { idOf, idsOf } from '../../shared/ids.ts';
import { HttpError, badRequest } from '../http/envelope.ts';
import { emitChange, type RowChange } from '../realtime/events.ts';
import { history, plain } from './history.ts';
import { findVisible, serialize, type Row } from './query.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { scopeWhere, tenantOnly } from '../tenancy/scope.ts';
import { compile, messages } from './validation.ts';
import { mapDbError, prepare } from './write.ts';
import { lookupLabelOf } from './lookup.ts';
import { configCommands, configParameters } from './configuracao.ts';
import { assertOwnDevices } from './commands.ts';
import { assertGuard } from './guard.ts';
import { MODELS as QUECLINK_MODELS } from '../../protocol/queclink/models.ts';

export interface ActionContext {
  tx: EntityManager;       // transaction under the request's company (RLS); reads name scopeWhere
  session: Session;
  entity: EntityMeta;
  action: ActionMeta;
  row: Row;                // the target row, already checked visible to the caller (company scope)
  payload: Row;            // validated against action.payload
}
export interface ActionResult {
  status?: 200 | 201;
  body: unknown;
  changes?: RowChange[]; // emitted after commit
}
export type ActionHandler = (ctx: ActionContext) => Promise<ActionResult>;

/** Values by property name of entity K: a misspelled or renamed field fails the type check. */
type Fields<K extends keyof typeof cols> = Partial<Record<FieldOf<(typeof cols)[K]>, unknown>>;

/** Rows of `key` created in the handler's transaction, as the API shows them. */
/** A new row of `key` in the action's transaction (flushed by createdAnswer). */
export function created<K extends keyof typeof cols>(ctx: ActionContext, key: K, data: Fields<K>): { row: Row; entity: EntityMeta } {
  const entity = entityByKey(key);
  if (!entity) throw new Error(`entity ${key} not in the model`);
  // a command records who queued it (fila_processamento.usuario; an API key: nobody)
  const who = key === 'fila_processamento' ? { usuario: ctx.session.apiKey ? null : ctx.session.usuarioId } : {};
  return { row: ctx.tx.create(ormName(ctx.tx, entity), { ...data, ...who, ...tenantOnly(entity, ctx.session) } as never) as Row, entity };
}

/** Queues `event` in fila_processamento for every device linked to the asset now (equipamento_ativo in force,
 *  same company); the gateway (server/ingest/commands.ts) sends it while the device is connected. */
function queueForAssetDevices(event: 'engineBlock' | 'engineUnblock'): ActionHandler {
  return async (ctx) => {
    const links = await linksInForce(ctx, { ativoId: ctx.row.id });
    // only devices registered in the company (a link written before links were checked may name anything)
    const equipamento = entityByKey('equipamento')!;
    const linked = [...new Set(links.map((l) => String(l.serial)))];
    const registered = linked.length ? (await ctx.tx.find(ormName(ctx.tx, equipamento), { serial: { $in: linked }, ...scopeWhere(equipamento, ctx.session) } as never) as Row[]).map((r) => String(r.serial)) : [];
    const serials = linked.filter((x) => registered.includes(x));
    if (!serials.length) throw new HttpError(422, 'O ativo não tem equipamento vinculado: não há para onde enviar o comando');
    return createdAnswer(ctx, serials.map((serial) => created(ctx, 'fila_processamento', { serial, event, value: null, status: 'pendente', processing: false, tentativas: 0 })));
  };
}

/** Writes the payload's fields onto the row (the action's payload schema says which), checked like an edit
 *  (required, references within the company, unique); recorded in the history under the action's name. */
const altera: ActionHandler = async (ctx) => {
  const { tx, entity, session, row, action } = ctx;
  const id = Number(row.id);
  const before = plain(entity, row);
  tx.assign(row as never, (await prepare(tx, entity, session, ctx.payload, row, action.sets)) as never);
  await tx.flush();
  const after = plain(entity, row);
  history(tx, entity, session, id, action.name, before, after);
  await tx.flush();
  return { body: serialize(entity, row), changes: [{ entity: entity.key, id, op: action.name, before, after }] };
};

/** Rows of `rows` created in the handler's transaction: flushed, answered 201 and emitted after commit. Commands
 *  (fila_processamento) go only to devices of the caller's company, checked here before anything is written. */
export async function createdAnswer(ctx: ActionContext, rows: { row: Row; entity: EntityMeta }[]): Promise<ActionResult> {
  await assertOwnDevices(ctx.tx, ctx.session, rows.filter((r) => r.entity.key === 'fila_processamento').map((r) => r.row.serial));
  await ctx.tx.flush();
  // Rows an action creates are recorded like any other create (e.g. a keyboard's logs show the macro sent).
  for (const r of rows) history(ctx.tx, r.entity, ctx.session, Number(r.row.id), 'create', null, plain(r.entity, r.row));
  await ctx.tx.flush();
  return {
    status: 201,
    body: rows.map((r) => serialize(r.entity, r.row)),
    changes: rows.map((r) => ({ entity: r.entity.key, id: Number(r.row.id), op: 'create', before: null, after: plain(r.entity, r.row) })),
  };
}

/** The links of the equipment row's serial in force now (same company). */
async function linksInForce(ctx: ActionContext, where: Fields<'equipamento_ativo'>): Promise<Row[]> {
  const vinculo = entityByKey('equipamento_ativo')!;
  const now = new Date();
  const cond = { ...where, ...scopeWhere(vinculo, ctx.session), dataInicio: { $lte: now } };
  const inForce: Fields<'equipamento_ativo'>[] = [{ dataFim: null }, { dataFim: { $gt: now } }];
  const orderBy: Fields<'equipamento_ativo'> = { serial: 'ASC' };
  return await ctx.tx.find(ormName(ctx.tx, vinculo), { ...cond, $or: inForce } as never, { orderBy: orderBy as never }) as Row[];
}

/** usuario (the screen /cfg/cfg/configuracao/vincular): links the user to the payload's company or unlinks it — an edit
 *  of `empresas` through `altera`, so the grants guard refuses a company the caller does not administer and the
 *  history records the action. Unlinking the active company moves the user to another of theirs; the last one stays. */
function vinculoEmpresa(op: 'vincula' | 'desvincula'): ActionHandler {
  return async (ctx) => {
    const empresa = Number(ctx.payload.empresa);
    const atuais = idsOf(ctx.row.empresas);
    const payload: Row = {};
    if (op === 'vincula') {
      if (atuais.includes(empresa)) throw new HttpError(422, 'O usuário já está vinculado a esta empresa');
      payload.empresas = [...atuais, empresa];
    } else {
      if (!atuais.includes(empresa)) throw new HttpError(422, 'O usuário não está vinculado a esta empresa');
      const restantes = atuais.filter((x) => x !== empresa);
      if (!restantes.length) throw new HttpError(422, 'O usuário deve continuar vinculado a ao menos uma empresa');
      payload.empresas = restantes;
      if (idOf(ctx.row.empresaAtiva) === empresa) payload.empresaAtiva = restantes[0];
    }
    return altera({ ...ctx, payload });
  };
}

/** The registry: metadata names a handler by its key here. */
export const actionHandlers: Record<string, ActionHandler> = {
  bloqueia_motor: queueForAssetDevices('engineBlock'),
  desbloqueia_motor: queueForAssetDevices('engineUnblock'),
  altera,
  vincula_empresa: vinculoEmpresa('vincula'),
  desvincula_empresa: vinculoEmpresa('desvincula'),
  // equipamento: the encoders have no SIM-only command; a device restart re-attaches the SIM card.
  reiniciar_simcard: (ctx) => createdAnswer(ctx, [
    created(ctx, 'fila_processamento', { serial: ctx.row.serial, event: 'reboot', value: null, status: 'pendente', processing: false, tentativas: 0 }),
  ]),
  // equipamento: a device with a CAN interface (a Queclink model whose reports carry a CAN mask) is asked to report
  // now (sync; value { can: true } marks the CAN synchronization in the queue); other models have no CAN to read.
  sincronizar_can: async (ctx) => {
    const modelo = String(ctx.row.modelo ?? '');
    if (ctx.row.tecnologia !== 'queclink' || !QUECLINK_MODELS[modelo]?.canBits) {
      const label = await lookupLabelOf(ctx.tx, ctx.entity, 'modelo', modelo);
      throw new HttpError(422, `O modelo ${label} não tem interface CAN: não há dados CAN para sincronizar`);
    }
    return createdAnswer(ctx, [
      created(ctx, 'fila_processamento', { serial: ctx.row.serial, event: 'sync', value: { can: true }, status: 'pendente', processing: false, tentativas: 0 }),
    ]);
  },
  // modelo_de_configuracao: for each chosen device of the company, the commands of its model's templates filled with
  // the configuration's parameters (writeConfig, one queue row per command, in template order). Every device must be
  // of the configuration's technology and model (a configuration is made for one device model), else nothing is queued.
  aplicar_configuracao: async (ctx) => {
    const ids = (ctx.payload.equipamentos as number[]).map(Number);
    const equipamento = entityByKey('equipamento')!;
    const where = { id: { $in: ids }, ...scopeWhere(equipamento, ctx.session) };
    const found = await ctx.tx.find(ormName(ctx.tx, equipamento), where as never) as Row[];
    const byId = new Map(found.map((r) => [Number(r.id), r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length) throw new HttpError(422, `Equipamento não encontrado na empresa: ${missing.join(', ')}`);
    const other = ids.map((id) => byId.get(id)!).filter((r) => r.tecnologia !== ctx.row.tecnologia || r.modelo !== ctx.row.modelo);
    if (other.length) {
      throw new HttpError(422, `A configuração é para ${ctx.row.tecnologia}/${ctx.row.modelo}; não serve para: ${other.map((r) => `${r.serial} (${r.tecnologia}/${r.modelo})`).join(', ')}`);
    }
    const commands = await configCommands(ctx.tx, ctx.row, await lookupLabelOf(ctx.tx, ctx.entity, 'modelo', ctx.row.modelo));
    const parametros = Object.fromEntries(configParameters().map((f) => [f.name, ctx.row[f.name] ?? null]));
    const base = { modeloDeConfiguracao: Number(ctx.row.id), descricao: ctx.row.descricao, parametros };
    return createdAnswer(ctx, ids.flatMap((id) => commands.map((c, i) => created(ctx, 'fila_processamento', {
      serial: byId.get(id)!.serial, event: 'writeConfig', status: 'pendente', processing: false, tentativas: 0,
      value: { ...base, comando: `${i + 1}/${commands.length}`, group: c.group, values: c.values },
    }))));
  },
  // equipamento: factory reset (reboot with reset: the Queclink encoder sends AT+GTRTO sub-command 4).
  redefinir: (ctx) => createdAnswer(ctx, [
    created(ctx, 'fila_processamento', { serial: ctx.row.serial, event: 'reboot', value: { reset: true }, status: 'pendente', processing: false, tentativas: 0 }),
  ]),
  // equipamento: ends its links in force (the asset keeps its history).
  remover_equipamento: async (ctx) => {
    const vinculo = entityByKey('equipamento_ativo')!;
    const links = await linksInForce(ctx, { serial: ctx.row.serial });
    if (!links.length) throw new HttpError(422, 'O equipamento não está vinculado a nenhum ativo');
    const now = new Date();
    const before = links.map((l) => plain(vinculo, l));
    const ended: Fields<'equipamento_ativo'> = { dataFim: now };
    for (const l of links) Object.assign(l, ended);
    await ctx.tx.flush();
    return {
      body: links.map((l) => serialize(vinculo, l)),
      changes: links.map((l, i) => ({ entity: vinculo.key, id: Number(l.id), op: 'update', before: before[i], after: plain(vinculo, l) })),
    };
  },
};

/** Adds a module's action handlers (server/calls/index.ts, contract server/core/module.ts); a name taken twice is an error. */
export function registerActions(owner: string, handlers: Record<string, ActionHandler>): void {
  for (const [name, h] of Object.entries(handlers)) {
    if (name in actionHandlers && actionHandlers[name] !== h) throw new Error(`handler '${name}' registrado duas vezes (módulo ${owner})`);
    actionHandlers[name] = h;
  }
}

export function handlerOf(entity: EntityMeta, action: ActionMeta): ActionHandler {
  const h = action.handler && actionHandlers[action.handler];
  if (!h) throw new Error(`${entity.file}: ação ${action.name}: handler desconhecido: ${action.handler}`);
  return h;
}

/** Body of an action request: empty means {}. */
export async function readPayload(req: { text(): Promise<string> }): Promise<unknown> {
  const text = await req.text();
  if (!text.trim()) return {};
  try { return JSON.parse(text); } catch { throw badRequest('Corpo da requisição inválido: JSON malformado'); }
}

export function validatePayload(entity: EntityMeta, action: ActionMeta, body: unknown): Row {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Corpo da requisição inválido: esperado um objeto JSON');
  if (!action.payload) return body as Row;
  const validate = compile(`action:${entity.key}.${action.name}`, action.payload);
  if (!validate(body)) {
    const errors = messages(validate.errors ?? [], action.payload, entity);
    throw new HttpError(400, errors.map((x) => x.message).join('; '), errors, 'Erro de validação');
  }
  return body as Row;
}

/** Metadata visibleWhen: each field's value is the one given or one of the list's. */
export function matches(row: Row, cond: Record<string, unknown>): boolean {
  return Object.entries(cond).every(([k, v]) => (Array.isArray(v) ? v.includes(row[k]) : row[k] === v));
}

/** Runs a handler action on one row (own transaction); change events after commit. The row is found within the
 *  caller's company first (404 otherwise, whatever the body), then the body is checked against the payload schema. */
/** within: the route parameters' values (metadata params) the row must carry. */
export async function runAction(em: EntityManager, entity: EntityMeta, action: ActionMeta, session: Session, id: number, body: unknown, within?: Row): Promise<ActionResult> {
  const handler = handlerOf(entity, action);
  const result = await em.transactional(async (tx) => {
    const row = await findVisible(tx, entity, session, id, within);
    await guardTarget(tx, entity, session, row, action.name);
    if (action.visibleWhen && !matches(plain(entity, row), action.visibleWhen)) {
      throw new HttpError(409, `Ação "${action.label}" não permitida na situação atual do registro`);
    }
    const payload = validatePayload(entity, action, body);
    await assertGuard(tx, session, entity, action, row, payload);
    return handler({ tx, session, entity, action, row, payload });
  }).catch((err) => mapDbError(entity, err));
  for (const ch of result.changes ?? []) emitChange(ch);
  return result;
}
