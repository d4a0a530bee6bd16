// The public link's token hash (link_publico.token, a secretToken field) is a credential like the API key's hash
// (Migration20261126233845_rls_credenciais): out of the app's and the gateway's roles' reach by column privileges.
// The public route finds a link by it as the system role (modules/link_publico/server/publico.ts); the ORM never
// selects it (lazy property); writing a new token stays allowed. A new column of link_publico needs its
// `grant select (column)` (server/db/rls-walk.test.ts fails until it has it).
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127140000_link_publico_token extends Migration {

  override name = 'Migration20261127140000_link_publico_token';

  override up(): void | Promise<void> {
    this.addSql(`do $$
declare cols text;
begin
  revoke select on table public.link_publico from rastro_app, rastro_ingest;
  select string_agg(quote_ident(column_name::text), ', ' order by ordinal_position) into cols
    from information_schema.columns where table_schema = 'public' and table_name = 'link_publico' and column_name <> 'token';
  execute format('grant select (%s) on table public.link_publico to rastro_app, rastro_ingest', cols);
end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`grant select on table public.link_publico to rastro_app, rastro_ingest;`);
  }

}
