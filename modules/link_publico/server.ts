// Public link (issue 21): /tlm/ras/link_publico manages the links (metadata/tlm/link_publico.yaml, actions below);
// /public/rastreamento_ao_vivo/query shows a link's assets live with no sign-in (server/publico.ts: the declared
// public route and the /publico socket namespace; screens/RastreamentoPublico.tsx).
import { defineModule } from '../../server/core/module.ts';
import { secretToken } from '../../server/auth/api-key.ts';
import { actionHandlers, type ActionHandler } from '../../server/crud/actions.ts';
import { history, plain } from '../../server/crud/history.ts';
import { serialize } from '../../server/crud/query.ts';
import { HttpError } from '../../server/http/envelope.ts';
import { publicRoutes, startPublic } from './server/publico.ts';

/** Copiar link: a new token for the link (only its hash kept); the answer carries it once, the old address stops. */
const copia: ActionHandler = async (ctx) => {
  const { tx, entity, session, row } = ctx;
  const secret = secretToken(entity)!;
  const before = plain(entity, row);
  tx.assign(row as never, secret.columns as never);
  await tx.flush();
  const after = plain(entity, row);
  history(tx, entity, session, Number(row.id), 'copia', before, after);
  await tx.flush();
  return { body: { ...serialize(entity, row), ...secret.answer }, changes: [{ entity: entity.key, id: Number(row.id), op: 'copia', before, after }] };
};

/** Prorrogar: a later expiry (the same address keeps opening). */
const prorroga: ActionHandler = async (ctx) => {
  const quando = new Date(String(ctx.payload.validoAte));
  if (!(quando.getTime() > Date.now())) throw new HttpError(422, 'A nova validade deve ser uma data futura');
  return actionHandlers.altera({ ...ctx, payload: { validoAte: quando.toISOString() } });
};

export default defineModule({
  name: 'link_publico',
  routes: publicRoutes,
  actions: { link_publico_copia: copia, link_publico_prorroga: prorroga },
  start: startPublic,
});
