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
import { checkAnswers, type Question } from '../../generator/questionnaire.ts';
import type { RowChange } from '../realtime/events.ts';
import type { Storage } from '../uploads/storage.ts';
import { compileTemplates } from './configuracao.ts';
import { assertOwnDevices } from './commands.ts';
import { plain } from './history.ts';
import type { Row } from './query.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { scopeWhere, tenantOnly } from '../tenancy/scope.ts';

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

type Fields<K extends keyof typeof cols> = Partial<Record<FieldOf<(typeof cols)[K]>, unknown>>;

const invalid = (field: string, label: string, message: string) =>
  new HttpError(400, message, [{ field, label, message }], 'Erro de validação');

/** One row of `key` by id within the caller's visibility (scopeWhere). */
async function byId<K extends keyof typeof cols>(tx: EntityManager, s: Session, key: K, id: unknown): Promise<Row | null> {
  const e = entityByKey(key)!;
  const where: Fields<K> = { id: Number(idOf(id)) } as Fields<K>;
  return (await tx.findOne(ormName(tx, e), { ...where, ...scopeWhere(e, s) } as never)) as Row | null;
}

export const FIRMWARE_FILE = /^\/api\/firmware\/arquivo\/([0-9a-f]{32}\.bin)$/;

/** firmware: the file named by `arquivo` must be one stored by POST /api/firmware/{tecnology}/{model}; its size is
 *  kept in `tamanho` (read from the storage, never from the client). */
const firmware: WriteHook = async ({ data, existing, storage }) => {
  if (!('arquivo' in data)) return;
  const url = data.arquivo;
  if (url == null || url === '') { data.tamanho = null; return; }
  if (existing && existing.arquivo === url) return;
  const key = FIRMWARE_FILE.exec(String(url))?.[1];
  const body = key ? await storage.get(key) : null;
  if (!body) throw invalid('arquivo', 'Arquivo', 'Arquivo de firmware não encontrado: envie o arquivo .bin novamente');
  data.tamanho = body.length;
};

/** Commands of a firmware update still under way (not concluded, failed nor cancelled). */
const UNDER_WAY = ['pendente', 'enviado'];

/** atualizacao_firmware: the equipment and the firmware must be of the list's technology and model; the versions,
 *  size and sequence are filled here and the command is queued (fila_processamento, firmwareUpdate) for the
 *  equipment's serial. An update already queued keeps its equipment and firmware. */
const atualizacaoFirmware: WriteHook = async ({ tx, session, data, existing }) => {
  if (existing) {
    for (const [name, label] of [['equipamento', 'Equipamento'], ['firmware', 'Firmware']] as const) {
      if (name in data && idOf(data[name]) !== idOf(existing[name])) {
        throw new HttpError(409, `A atualização já foi enfileirada: o campo ${label} não pode ser alterado. Cadastre uma nova atualização.`);
      }
    }
    return;
  }
  const fw = await byId(tx, session, 'firmware', data.firmware);
  if (!fw) throw invalid('firmware', 'Firmware', 'O campo Firmware referencia um registro inexistente');
  if (fw.tecnologia !== data.tecnologia || fw.modelo !== data.modelo) {
    throw invalid('firmware', 'Firmware', `O firmware ${fw.versao} não é da tecnologia e do modelo desta lista (${data.tecnologia}/${data.modelo})`);
  }
  const eq = await byId(tx, session, 'equipamento', data.equipamento);
  if (!eq) throw invalid('equipamento', 'Equipamento', 'O campo Equipamento referencia um registro inexistente');
  if (eq.tecnologia !== data.tecnologia || eq.modelo !== data.modelo) {
    throw invalid('equipamento', 'Equipamento', `O equipamento ${eq.serial} não é da tecnologia e do modelo desta lista (${data.tecnologia}/${data.modelo})`);
  }
  const fila = entityByKey('fila_processamento')!;
  const busy: Fields<'fila_processamento'> = { serial: eq.serial, event: 'firmwareUpdate', status: { $in: UNDER_WAY } };
  if (await tx.count(ormName(tx, fila), { ...busy, ...scopeWhere(fila, session) } as never)) {
    throw new HttpError(409, `O equipamento ${eq.serial} já tem uma atualização de firmware em andamento`);
  }
  const self = entityByKey('atualizacao_firmware')!;
  const previous: Fields<'atualizacao_firmware'> = { equipamento: eq.id };
  data.sequencia = (await tx.count(ormName(tx, self), { ...previous, ...scopeWhere(self, session) } as never)) + 1;
  data.versaoOrigem = eq.firmware ?? null;
  data.versaoDestino = fw.versao;
  data.tamanho = fw.tamanho ?? null;
  const command: Fields<'fila_processamento'> = {
    ...tenantOnly(fila, session), serial: eq.serial, event: 'firmwareUpdate', status: 'pendente', processing: false, tentativas: 0,
    value: { firmwareId: Number(fw.id), versao: fw.versao, arquivo: fw.arquivo ?? null, tamanho: fw.tamanho ?? null },
  };
  await assertOwnDevices(tx, session, [eq.serial]);
  const row = tx.create(ormName(tx, fila), command as never) as Row;
  await tx.flush();
  data.comando = Number(row.id);
  return [{ entity: fila.key, id: Number(row.id), op: 'create', before: null, after: plain(fila, row) }];
};

/** formulario: the author (criadoPor) is the user who created it, never the client's choice; the period is ordered. */
const formulario: WriteHook = async ({ data, existing, session }) => {
  if (!existing) data.criadoPor = session.apiKey ? null : session.usuarioId;
  const ini = 'dataInicio' in data ? data.dataInicio : existing?.dataInicio;
  const fim = 'dataFim' in data ? data.dataFim : existing?.dataFim;
  if (ini && fim && String(fim).slice(0, 10) < String(ini).slice(0, 10)) throw invalid('dataFim', 'Data fim', 'A data fim deve ser igual ou posterior à data início');
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

/** The registry: metadata names a hook by its key here. */
export const writeHooks: Record<string, WriteHook> = {
  firmware,
  atualizacao_firmware: atualizacaoFirmware,
  formulario,
  modelo,
  resposta_formulario: respostaFormulario,
};

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
