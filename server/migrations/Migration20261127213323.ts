import { Migration } from '@mikro-orm/migrations';

export class Migration20261127213323 extends Migration {

  override name = 'Migration20261127213323';

  override up(): void | Promise<void> {
    this.addSql(`alter table "tratamento_alarme" drop constraint "tratamento_alarme_situacao_check";`);
    this.addSql(`alter table "tratamento_alarme" add "passos" jsonb null;`);
    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_situacao_check" check ("situacao" in ('assumido', 'liberado', 'encerrado'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "tratamento_alarme" drop constraint "tratamento_alarme_situacao_check";`);
    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_situacao_check" check ("situacao" in ('assumido', 'encerrado'));`);
  }

}
