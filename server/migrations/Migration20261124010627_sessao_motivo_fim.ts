import { Migration } from '@mikro-orm/migrations';

export class Migration20261124010627_sessao_motivo_fim extends Migration {

  override name = 'Migration20261124010627_sessao_motivo_fim';

  override up(): void | Promise<void> {
    this.addSql(`alter table "sessao" add "motivo_fim" text null;`);
    this.addSql(`alter table "sessao" add constraint "sessao_motivo_fim_check" check ("motivo_fim" in ('logout', 'administrador', 'senha'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sessao" drop constraint "sessao_motivo_fim_check";`);
    this.addSql(`alter table "sessao" drop column "motivo_fim";`);
  }

}
