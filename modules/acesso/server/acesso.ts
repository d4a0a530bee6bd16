// Provider acesso_ativo (modules/acesso/metadata/adm/acesso_ativo.yaml): the asset record's Controle de acesso tab. Lists the users of
// the active company who may see the asset — wiki/dev roles, a cargo of this company or extra keys holding
// tlm.fro.ativo.visualizar or .lista — and through what. The company condition is added by sqlPage.
import { HttpError } from '../../../server/http/envelope.ts';
import { likeOf, sqlPage, type Provider } from '../../../server/crud/provider.ts';
import { SUPER_ROLES } from '../../../server/auth/users.ts';
import { ativo, cargo, empresa, usuario as u } from '../../../server/generated/columns.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { inCompany, qParams, scopeSql } from '../../../server/tenancy/scope.ts';

const KEYS = ['tlm.fro.ativo.visualizar', 'tlm.fro.ativo.lista'];
const arr = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(', ')}]::text[]`;

export const providers: Record<string, Provider> = {
  acesso_ativo: {
    list: async (q, ctx) => {
      const p = qParams();
      const found = await ctx.em.getConnection().execute(`SELECT 1 FROM ${ativo.table} a WHERE a.${ativo.id} = ${p.add(q.params.id)} AND ${scopeSql(entityByKey('ativo')!, ctx.session, 'a', p)}`, p.values);
      if (!found.length) throw new HttpError(404, 'Registro pai não encontrado');
      const where = ["x.origem <> ''"], params: unknown[] = [];
      if (typeof q.filter.q === 'string' && q.filter.q) { where.push('(x.login ILIKE ? OR x.nome ILIKE ?)'); params.push(likeOf(q.filter.q), likeOf(q.filter.q)); }
      return sqlPage(ctx, q, {
        select: 'x.id, x.login, x.nome, x.origem',
        from: `(SELECT u.${u.id} AS id, u.${u.login} AS login, u.${u.nome} AS nome, e.${empresa.id} AS empresa_id, concat_ws('; ',
                  (SELECT 'Perfil ' || string_agg(r, ', ' ORDER BY r) FROM jsonb_array_elements_text(coalesce(u.${u.roles}, '[]')) r WHERE r = ANY(${arr(SUPER_ROLES)})),
                  (SELECT 'Cargo ' || string_agg(c.${cargo.descricao}, ', ' ORDER BY c.${cargo.descricao}) FROM ${cargo.table} c
                    WHERE c.${cargo.id} = ANY(u.${u.cargos}) AND ${inCompany('c', `e.${empresa.id}`)} AND jsonb_exists_any(c.${cargo.permissoes}, ${arr(KEYS)})),
                  CASE WHEN jsonb_exists_any(coalesce(u.${u.permissoesExtras}, '[]'), ${arr(KEYS)}) THEN 'Permissão extra' END) AS origem
                FROM ${u.table} u JOIN ${empresa.table} e ON e.${empresa.id} = ANY(u.${u.empresas}) WHERE u.${u.ativo}) x`,
        scope: 'x', where, params,
        orderBy: { login: 'x.login', nome: 'x.nome' }, tiebreak: 'x.id',
      });
    },
  },
};
