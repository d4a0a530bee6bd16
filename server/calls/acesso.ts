// Provider acesso_ativo (metadata/adm/acesso_ativo.yaml): the asset record's Controle de acesso tab. Lists the users of
// the active company who may see the asset — wiki/dev roles, a cargo of this company or extra keys holding
// tlm.fro.ativo.visualizar or .lista — and through what. The company condition is added by sqlPage.
import { HttpError } from '../http/envelope.ts';
import { likeOf, sqlPage, type Provider } from '../crud/provider.ts';
import { SUPER_ROLES } from '../auth/users.ts';

const KEYS = ['tlm.fro.ativo.visualizar', 'tlm.fro.ativo.lista'];
const arr = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(', ')}]::text[]`;

export const providers: Record<string, Provider> = {
  acesso_ativo: {
    list: async (q, ctx) => {
      const found = await ctx.em.getConnection().execute('SELECT 1 FROM ativo WHERE id = ? AND empresa_id = ?', [q.params.id, ctx.empresaId]);
      if (!found.length) throw new HttpError(404, 'Registro pai não encontrado');
      const where = ["x.origem <> ''"], params: unknown[] = [];
      if (typeof q.filter.q === 'string' && q.filter.q) { where.push('(x.login ILIKE ? OR x.nome ILIKE ?)'); params.push(likeOf(q.filter.q), likeOf(q.filter.q)); }
      return sqlPage(ctx, q, {
        select: 'x.id, x.login, x.nome, x.origem',
        from: `(SELECT u.id, u.login, u.nome, e.id AS empresa_id, concat_ws('; ',
                  (SELECT 'Perfil ' || string_agg(r, ', ' ORDER BY r) FROM jsonb_array_elements_text(coalesce(u.roles, '[]')) r WHERE r = ANY(${arr(SUPER_ROLES)})),
                  (SELECT 'Cargo ' || string_agg(c.descricao, ', ' ORDER BY c.descricao) FROM cargo c
                    WHERE c.id = ANY(u.cargos) AND c.empresa_id = e.id AND jsonb_exists_any(c.permissoes, ${arr(KEYS)})),
                  CASE WHEN jsonb_exists_any(coalesce(u.permissoes_extras, '[]'), ${arr(KEYS)}) THEN 'Permissão extra' END) AS origem
                FROM usuario u JOIN empresa e ON e.id = ANY(u.empresas) WHERE u.ativo) x`,
        scope: 'x.empresa_id', where, params,
        orderBy: { login: 'x.login', nome: 'x.nome' }, tiebreak: 'x.id',
      });
    },
  },
};
