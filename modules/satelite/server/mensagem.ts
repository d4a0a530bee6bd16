// POST /api/satelite/mensagem { serial, mensagem }: a message to a satellite terminal of the caller's company, put on
// the terminal's command queue (fila_processamento, event mensagemSatelite, value { mensagem }) like every command
// to a device; the painel (provider painel_satelite) counts it as pending until the device takes it.
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { badRequest } from '../../../server/http/envelope.ts';
import { route } from '../../../server/core/pipeline.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import { assertOwnDevices } from '../../../server/crud/commands.ts';
import { readBody } from '../../../server/crud/protocol.ts';
import { serialize, type Row } from '../../../server/crud/query.ts';
import { tenantOnly } from '../../../server/tenancy/scope.ts';
import { emitChange } from '../../../server/realtime/events.ts';
import { plain } from '../../../server/crud/history.ts';
import type { PermissionKey } from '../../../server/generated/permissions.ts';
import { requestEm } from '../../../server/db/context.ts';

/** The satellite link's limit for one message (gateway message up to 227 bytes, spec section 5). */
export const MAX_BYTES = 227;

export default function mensagem(api: Hono<AppEnv>): void {
  route(api, 'post', '/satelite/mensagem', { permission: ['esp.sat.painel.enviar' as PermissionKey], scope: 'empresa' }, async (c) => {
    const body = (await readBody(c)) as Record<string, unknown> | null;
    const serial = typeof body?.serial === 'string' ? body.serial.trim() : '';
    const texto = typeof body?.mensagem === 'string' ? body.mensagem.trim() : '';
    if (!serial) throw badRequest('O campo Terminal é obrigatório');
    if (!texto) throw badRequest('O campo Mensagem é obrigatório');
    if (Buffer.byteLength(texto, 'utf8') > MAX_BYTES) throw badRequest(`A mensagem excede o limite de ${MAX_BYTES} bytes do enlace satelital`);
    const s = c.get('session');
    const fila = entityByKey('fila_processamento')!;
    const em = requestEm(c);
    const row = await em.transactional(async (tx) => {
      await assertOwnDevices(tx, s, [serial]);
      const r = tx.create(ormName(tx, fila), {
        serial, event: 'mensagemSatelite', value: { mensagem: texto }, status: 'pendente', processing: false, tentativas: 0, ...tenantOnly(fila, s),
      } as never) as Row;
      await tx.flush();
      return r;
    });
    emitChange({ entity: fila.key, id: Number(row.id), op: 'create', before: null, after: plain(fila, row) });
    return c.json(serialize(fila, row), 201);
  });
}
