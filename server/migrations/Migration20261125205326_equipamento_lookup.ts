import { Migration } from '@mikro-orm/migrations';

export class Migration20261125205326_equipamento_lookup extends Migration {

  override name = 'Migration20261125205326_equipamento_lookup';

  override up(): void | Promise<void> {
    this.addSql(`drop policy "equipamento_empresa" on "equipamento";`);
    this.addSql(`drop policy "equipamento_ingest" on "equipamento";`);

    this.addSql(`alter table "equipamento" drop constraint "equipamento_modelo_check";`);
    this.addSql(`alter table "equipamento" drop constraint "equipamento_tecnologia_check";`);
    this.addSql(`alter table "equipamento" alter column "modelo" type varchar(40) using ("modelo"::varchar(40));`);
    this.addSql(`alter table "equipamento" alter column "tecnologia" type varchar(40) using ("tecnologia"::varchar(40));`);
    this.addSql(`create policy "equipamento_empresa" on "equipamento" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "equipamento_ingest" on "equipamento" to "rastro_ingest" using (true) with check (true);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop policy "equipamento_empresa" on "equipamento";`);
    this.addSql(`drop policy "equipamento_ingest" on "equipamento";`);

    this.addSql(`alter table "equipamento" alter column "tecnologia" type text using ("tecnologia"::text);`);
    this.addSql(`alter table "equipamento" alter column "modelo" type text using ("modelo"::text);`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_modelo_check" check ("modelo" in ('gv50cg', 'gv58cg', 'gv350ceu', 'gv300', 'gv310lau', 'gv350m', 'gv55', 'gv55w', 'gv56', 'gv600m', 'gl300', 'gl300m', 'cv100lg', 'legacy', 'osmand', 'vdo_telemetria', 'vdo_compact', 'mix'));`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_tecnologia_check" check ("tecnologia" in ('queclink', 'legacy', 'osmand', 'vdo'));`);
    this.addSql(`create policy "equipamento_empresa" on "equipamento" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "equipamento_ingest" on "equipamento" to "rastro_ingest" using (true) with check (true);`);
  }

}
