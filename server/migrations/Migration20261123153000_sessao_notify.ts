import { Migration } from '@mikro-orm/migrations';

// Session cache invalidation (issue 7, speed): the API caches each session with its user, active company and
// keys in process. Any committed change that may end or alter a session notifies channel `rastro_sessao`
// (payload "{kind}:{id}": s sessao, u usuario, e empresa, c cargo), whoever wrote it (any API process, a
// script, psql); every API process LISTENs and drops the affected entries (server/auth/session-cache.ts).
// Hand-written: triggers are outside the entity diff.
export class Migration20261123153000_sessao_notify extends Migration {

  override name = 'Migration20261123153000_sessao_notify';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "rastro_sessao_notify"() returns trigger language plpgsql as $$
declare rid bigint;
begin
  if TG_OP = 'DELETE' then rid := old."id"; else rid := new."id"; end if;
  perform pg_notify('rastro_sessao', TG_ARGV[0] || ':' || rid);
  return null;
end $$;`);
    this.addSql(`create trigger "sessao_rastro_sessao_notify" after update of "ativa", "data_fim", "empresa_ativa", "data_valido_ate", "usuario", "ambiente_id", "login" or delete on "sessao" for each row execute function "rastro_sessao_notify"('s');`);
    this.addSql(`create trigger "usuario_rastro_sessao_notify" after update of "ativo", "empresas", "empresa_ativa", "cargos", "permissoes_extras", "roles", "senha", "login", "ambiente_id" or delete on "usuario" for each row execute function "rastro_sessao_notify"('u');`);
    this.addSql(`create trigger "empresa_rastro_sessao_notify" after update of "status", "ambiente_id" or delete on "empresa" for each row execute function "rastro_sessao_notify"('e');`);
    this.addSql(`create trigger "cargo_rastro_sessao_notify" after update of "permissoes", "empresa_id" or delete on "cargo" for each row execute function "rastro_sessao_notify"('c');`);
  }

  override down(): void | Promise<void> {
    for (const t of ['sessao', 'usuario', 'empresa', 'cargo']) this.addSql(`drop trigger if exists "${t}_rastro_sessao_notify" on "${t}";`);
    this.addSql(`drop function if exists "rastro_sessao_notify"();`);
  }

}
