// Write hooks of the firmware registers (metadata hook: firmware / atualizacao_firmware, server/crud/hooks.ts).
import { idOf } from '../../../shared/ids.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import { assertOwnDevices } from '../../../server/crud/commands.ts';
import { byId, invalid, type Fields, type WriteHook } from '../../../server/crud/hooks.ts';
import { plain } from '../../../server/crud/history.ts';
import type { Row } from '../../../server/crud/query.ts';
import { HttpError } from '../../../server/http/envelope.ts';
import { scopeWhere, tenantOnly } from '../../../server/tenancy/scope.ts';

export const FIRMWARE_FILE = /^\/api\/firmware\/arquivo\/([0-9a-f]{32}\.bin)$/;

/** firmware: the file named by `arquivo` must be one stored by POST /api/firmware/{tecnology}/{model}; its size is
 *  kept in `tamanho` (read from the storage, never from the client). */
export const firmware: WriteHook = async ({ data, existing, storage }) => {
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

/** atualizacao_firmware: the versions,
 *  size and sequence are filled here and the command is queued (fila_processamento, firmwareUpdate) for the
 *  equipment's serial. An update already queued keeps its equipment and firmware. */
export const atualizacaoFirmware: WriteHook = async ({ tx, session, data, existing }) => {
  if (existing) {
    for (const [name, label] of [['equipamento', 'Equipamento'], ['firmware', 'Firmware']] as const) {
      if (name in data && idOf(data[name]) !== idOf(existing[name])) {
        throw new HttpError(409, `A atualização já foi enfileirada: o campo ${label} não pode ser alterado. Cadastre uma nova atualização.`);
      }
    }
    return;
  }
  // both exist, are visible and of the list's technology and model (metadata narrow, checked before the hook)
  const fw = (await byId(tx, session, 'firmware', data.firmware))!;
  const eq = (await byId(tx, session, 'equipamento', data.equipamento))!;
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
    usuario: session.apiKey ? null : session.usuarioId,
    value: { firmwareId: Number(fw.id), versao: fw.versao, arquivo: fw.arquivo ?? null, tamanho: fw.tamanho ?? null },
  };
  await assertOwnDevices(tx, session, [eq.serial]);
  const row = tx.create(ormName(tx, fila), command as never) as Row;
  await tx.flush();
  data.comando = Number(row.id);
  return [{ entity: fila.key, id: Number(row.id), op: 'create', before: null, after: plain(fila, row) }];
};

export const hooks: Record<string, WriteHook> = { firmware, atualizacao_firmware: atualizacaoFirmware };
