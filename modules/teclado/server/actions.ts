// Action handlers of the keyboards (metadata dispositivo_teclado: handler enviar_macro; server/crud/actions.ts runs them).
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import { created, createdAnswer, type ActionHandler } from '../../../server/crud/actions.ts';
import type { Row } from '../../../server/crud/query.ts';
import { HttpError } from '../../../server/http/envelope.ts';
import { scopeWhere } from '../../../server/tenancy/scope.ts';

export const actions: Record<string, ActionHandler> = {
  // dispositivo_teclado: the library macro goes to the keyboard as a pending message (the console's Mensagens tab).
  enviar_macro: async (ctx) => {
    const macro = await ctx.tx.findOne(ormName(ctx.tx, entityByKey('macro_teclado')!), { id: ctx.payload.macro, ...scopeWhere(entityByKey('macro_teclado')!, ctx.session) } as never) as Row | null;
    if (!macro) throw new HttpError(422, 'Macro não encontrada na empresa');
    if (ctx.row.ativado === false) throw new HttpError(422, 'O teclado está desativado: ative-o antes de enviar macros');
    return createdAnswer(ctx, [created(ctx, 'comando_teclado', {
      mensagem: macro.texto, dispositivo: Number(ctx.row.id), macro: Number(macro.id), direcao: 'enviada', situacao: 'pendente',
    })]);
  },
};
