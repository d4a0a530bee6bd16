import { Migration } from '@mikro-orm/migrations';

export class Migration20261123155553_equipamento_modelos extends Migration {

  override name = 'Migration20261123155553_equipamento_modelos';

  override up(): void | Promise<void> {
    this.addSql(`alter table "equipamento" drop constraint "equipamento_modelo_check";`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_modelo_check" check ("modelo" in ('gv50cg', 'gv58cg', 'gv350ceu', 'gv300', 'gv310lau', 'gv350m', 'gv55', 'gv55w', 'gv56', 'gv600m', 'gl300', 'gl300m', 'cv100lg', 'legacy', 'osmand'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "equipamento" drop constraint "equipamento_modelo_check";`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_modelo_check" check ("modelo" in ('gv50cg', 'gv58cg', 'gv350ceu', 'legacy', 'osmand'));`);
  }

}
