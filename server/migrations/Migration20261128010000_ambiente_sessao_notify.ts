import { Migration } from '@mikro-orm/migrations';

// Session cache (issue 24): a session's ambiente is its active company's, and a session in an ambiente that is
// deactivated (or deleted) ends. The ambiente's row therefore notifies `rastro_sessao` like sessao, usuario, empresa
// and cargo do (kind 'a': every process drops its whole cache, server/auth/session-cache.ts). Hand-written: triggers
// are outside the entity diff.
export class Migration20261128010000_ambiente_sessao_notify extends Migration {

  override name = 'Migration20261128010000_ambiente_sessao_notify';

  override up(): void | Promise<void> {
    this.addSql(`create trigger "ambiente_rastro_sessao_notify" after update of "ativo" or delete on "ambiente" for each row execute function "rastro_sessao_notify"('a');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "ambiente_rastro_sessao_notify" on "ambiente";`);
  }

}
