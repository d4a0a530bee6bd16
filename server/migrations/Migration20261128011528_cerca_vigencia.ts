import { Migration } from '@mikro-orm/migrations';

export class Migration20261128011528_cerca_vigencia extends Migration {

  override name = 'Migration20261128011528_cerca_vigencia';

  override up(): void | Promise<void> {
    this.addSql(`alter table "cerca" add "dias_semana" jsonb null, add "hora_inicial" varchar(5) null, add "hora_final" varchar(5) null, add "vigente_de" date null, add "vigente_ate" date null, add "nao_vale_em_feriados" boolean null default false, add "vigencia" varchar(160) null default 'Sempre';`);
  }

}
