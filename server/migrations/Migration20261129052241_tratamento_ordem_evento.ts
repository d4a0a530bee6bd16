import { Migration } from '@mikro-orm/migrations';

export class Migration20261129052241_tratamento_ordem_evento extends Migration {

  override name = 'Migration20261129052241_tratamento_ordem_evento';

  override up(): void | Promise<void> {
    this.addSql(`drop index "tratamento_alarme_empresa_id_assumido_em_id_sort_index";`);
    this.addSql(`create index "tratamento_alarme_empresa_id_data_evento_id_sort_index" on "tratamento_alarme" ("empresa_id", "data_evento", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "tratamento_alarme_empresa_id_data_evento_id_sort_index";`);
    this.addSql(`create index "tratamento_alarme_empresa_id_assumido_em_id_sort_index" on "tratamento_alarme" ("empresa_id", "assumido_em", "id");`);
  }

}
