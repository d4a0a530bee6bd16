// The share link's token hash of a generated report (relatorio_gerado.link_token, a secretToken field) is a credential
// like the public link's (Migration20261127140000_link_publico_token): out of the app's and the gateway's roles' reach
// by column privileges. The public route /api/report/get/{token} finds the row by it as the system role
// (modules/relatorios/server/spool.ts); the ORM never selects it (lazy property); writing a new token stays allowed.
// A new column of relatorio_gerado needs its `grant select (column)` (server/db/rls-walk.test.ts fails until it has it).
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127211200_relatorio_gerado_link_token extends Migration {

  override name = 'Migration20261127211200_relatorio_gerado_link_token';

  override up(): void | Promise<void> {
    this.addSql(`do $$
declare cols text;
begin
  revoke select on table public.relatorio_gerado from rastro_app, rastro_ingest;
  select string_agg(quote_ident(column_name::text), ', ' order by ordinal_position) into cols
    from information_schema.columns where table_schema = 'public' and table_name = 'relatorio_gerado' and column_name <> 'link_token';
  execute format('grant select (%s) on table public.relatorio_gerado to rastro_app, rastro_ingest', cols);
end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`grant select on table public.relatorio_gerado to rastro_app, rastro_ingest;`);
  }

}
