// Write hooks (metadata `hook: name`): code a register runs inside its own create/update transaction, after the body
// was validated (schema, references visible to the caller, uniqueness) and before the row is written. A hook may
// refuse the write (HttpError, pt-BR), fill the register's read-only fields in `data` and create related rows; the
// changes it answers are emitted after commit. One registry, looked up by name (unknown names fail at start).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import type { FieldOf } from '../generated/columns.ts';
import * as cols from '../generated/columns.ts';
import { idOf } from '../../shared/ids.ts';
import { HttpError } from '../http/envelope.ts';
import { checkAnswers, type Question } from '../../shared/questionnaire.ts';
import type { RowChange } from '../realtime/events.ts';
import type { Storage } from '../uploads/storage.ts';
import { compileTemplates } from './configuracao.ts';
import type { Row } from './query.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { scopeWhere } from '../tenancy/scope.ts';

export interface HookContext {
  tx: EntityManager;       // the write's transaction (RLS of the request's company applies; reads name scopeWhere)
  session: Session;
  entity: EntityMeta;
  /** The validated values about to be written (route parameters included); the hook may add read-only fields. */
  data: Row;
  /** The row before an update; null on create. */
  existing: Row | null;
  storage: Storage;
}
export type WriteHook = (ctx: HookContext) => Promise<RowChange[] | void>;

export type Fields<K extends keyof typeof cols> = Partial<Record<FieldOf<(typeof cols)[K]>, unknown>>;

/** A 400 validation error on one field (pt-BR message). */
export const invalid = (field: string, label: string, message: string) =>
  new HttpError(400, message, [{ field, label, message }], 'Erro de validação');

/** One row of `key` by id within the caller's visibility (scopeWhere). */
export async function byId<K extends keyof typeof cols>(tx: EntityManager, s: Session, key: K, id: unknown): Promise<Row | null> {
  const e = entityByKey(key)!;
  const where: Fields<K> = { id: Number(idOf(id)) } as Fields<K>;
  return (await tx.findOne(ormName(tx, e), { ...where, ...scopeWhere(e, s) } as never)) as Row | null;
}

/** formulario: the author (criadoPor) is the user who created it, never the client's choice; the period is ordered. */
const formulario: WriteHook = async ({ tx, data, existing, session }) => {
  if (!existing) data.criadoPor = session.apiKey ? null : session.usuarioId;
  const ini = 'dataInicio' in data ? data.dataInicio : existing?.dataInicio;
  const fim = 'dataFim' in data ? data.dataFim : existing?.dataFim;
  if (ini && fim && String(fim).slice(0, 10) < String(ini).slice(0, 10)) throw invalid('dataFim', 'Data fim', 'A data fim deve ser igual ou posterior à data início');
  const freq = 'frequencia' in data ? data.frequencia : existing?.frequencia;
  const unidade = 'unidadeDeFreq' in data ? data.unidadeDeFreq : existing?.unidadeDeFreq;
  if ((freq == null) !== (unidade == null)) throw invalid('unidadeDeFreq', 'Unidade da frequência', 'Informe a frequência e a sua unidade, ou nenhuma das duas');
  // the names the form report shows (author, respondents), as they are now
  const names = async (key: 'usuario' | 'motorista', ids: unknown) => {
    const out: { id: number; nome: string }[] = [];
    for (const x of (Array.isArray(ids) ? ids : [])) {
      const r = await byId(tx, session, key, x);
      if (r) out.push({ id: Number(r.id), nome: String(r.nome) });
    }
    return out;
  };
  const autor = 'criadoPor' in data ? data.criadoPor : existing?.criadoPor;
  data.nomes = {
    criadoPor: autor ? (await names('usuario', [autor]))[0]?.nome ?? null : null,
    usuarios: await names('usuario', 'usuarios' in data ? data.usuarios : existing?.usuarios),
    motoristas: await names('motorista', 'motoristas' in data ? data.motoristas : existing?.motoristas),
  };
};

/** resposta_formulario: the answers are checked against the questions of their questionnaire (visible to the caller); who answered is the caller (usuario) or the driver named (motorista); dataResposta is now. */
const respostaFormulario: WriteHook = async ({ tx, data, existing, session }) => {
  const id = 'formulario' in data ? data.formulario : existing?.formulario;
  const form = await byId(tx, session, 'formulario', id);
  if (!form) throw invalid('formulario', 'Formulário', 'Formulário não encontrado');
  if (!existing) {
    data.usuario = session.apiKey ? null : session.usuarioId;
    data.dataResposta = new Date();
  }
  // who answered, by name: the driver answered for, else the user
  const mot = 'motorista' in data ? data.motorista : existing?.motorista;
  const quem = mot ? await byId(tx, session, 'motorista', mot) : (existing?.usuario ?? data.usuario) ? await byId(tx, session, 'usuario', existing?.usuario ?? data.usuario) : null;
  data.quemRespondeu = quem ? String(quem.nome).slice(0, 160) : null;
  if (!('respostas' in data) && existing) return;
  const problems = checkAnswers((form.questoes ?? []) as Question[], data.respostas ?? []);
  if (problems.length) {
    const message = problems.map((p) => p.message).join('; ');
    throw new HttpError(400, message, [{ field: 'respostas', label: 'Respostas', message }], 'Erro de validação');
  }
  // a photo or signature must be a file uploaded to this company (POST /api/upload/*), never another company's
  const questions = new Map(((form.questoes ?? []) as Question[]).map((q) => [q.id, q]));
  const files = ((data.respostas ?? []) as { questao: string; valor: unknown }[])
    .filter((a) => ['PICTURE', 'SIGNATURE'].includes(questions.get(a.questao)?.tipo ?? '') && typeof a.valor === 'string')
    .map((a) => String(a.valor).split('/').pop()!);
  if (files.length) {
    const arquivo = entityByKey('arquivo')!;
    const found = (await tx.find(ormName(tx, arquivo), { chave: { $in: files }, ...scopeWhere(arquivo, session) } as never, { fields: ['chave'] as never })) as Row[];
    const missing = files.find((k) => !found.some((r) => r.chave === k));
    if (missing) throw invalid('respostas', 'Respostas', 'Imagem não encontrada: envie a foto ou a assinatura novamente');
  }
};

/** modelo: its configuration command templates must compile for its protocol and name only parameters of a
 *  configuration model (checked again when the protocol changes). */
const modelo: WriteHook = async ({ tx, data, existing, session }) => {
  if (!('comandosConfiguracao' in data) && !('protocolo' in data)) return;
  const text = String(('comandosConfiguracao' in data ? data.comandosConfiguracao : existing?.comandosConfiguracao) ?? '');
  if (!text.trim()) return;
  const protocolo = await byId(tx, session, 'protocolo', 'protocolo' in data ? data.protocolo : existing?.protocolo);
  if (!protocolo) throw invalid('protocolo', 'Protocolo', 'O campo Protocolo referencia um registro inexistente');
  await compileTemplates(String(protocolo.codigo), text);
};

/** The registry: metadata names a hook by its key here (the core's below; modules add theirs, registerHooks). */
/** fila_processamento: who queued the command is the caller (an API key: nobody), never the client's choice. */
const filaProcessamento: WriteHook = async ({ data, existing, session }) => {
  if (!existing) data.usuario = session.apiKey ? null : session.usuarioId;
};

export const writeHooks: Record<string, WriteHook> = {
  fila_processamento: filaProcessamento,
  formulario,
  modelo,
  resposta_formulario: respostaFormulario,
};

/** Adds a module's hooks (server/calls/index.ts, contract server/core/module.ts); a name taken twice is an error. */
export function registerHooks(owner: string, hooks: Record<string, WriteHook>): void {
  for (const [name, hook] of Object.entries(hooks)) {
    if (name in writeHooks && writeHooks[name] !== hook) throw new Error(`hook '${name}' registrado duas vezes (módulo ${owner})`);
    writeHooks[name] = hook;
  }
}

/** The entity's hook (undefined without one); an unknown name throws, naming the file (crudRoutes: at start-up). */
export function hookOf(entity: EntityMeta): WriteHook | undefined {
  if (!entity.hook) return undefined;
  const hook = writeHooks[entity.hook];
  if (!hook) throw new Error(`${entity.file}: hook desconhecido: ${entity.hook}`);
  return hook;
}

/** Runs the entity's hook, if any; the changes to emit after commit. */
export async function runHook(ctx: HookContext): Promise<RowChange[]> {
  const hook = hookOf(ctx.entity);
  return hook ? ((await hook(ctx)) ?? []) : [];
}
