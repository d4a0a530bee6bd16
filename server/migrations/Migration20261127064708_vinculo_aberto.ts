import { Migration } from '@mikro-orm/migrations';

// One open link per device (equipamento_ativo.serial while data_fim is empty). Links already duplicated (written
// before the check) keep only the latest open: the older ones end now and stay as history.
export class Migration20261127064708_vinculo_aberto extends Migration {

  override name = 'Migration20261127064708_vinculo_aberto';

  override up(): void | Promise<void> {
    this.addSql(`update "equipamento_ativo" ea set "data_fim" = now() where ea."data_fim" is null and exists (select 1 from "equipamento_ativo" o where o."empresa_id" = ea."empresa_id" and o."serial" = ea."serial" and o."data_fim" is null and (o."data_inicio", o."id") > (ea."data_inicio", ea."id"));`);
    this.addSql(`create unique index "equipamento_ativo_empresa_id_serial_open_unique" on "equipamento_ativo" ("empresa_id", "serial") where "data_fim" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "equipamento_ativo_empresa_id_serial_open_unique";`);
  }

}
