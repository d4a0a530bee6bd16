// The search box under row-level security (issue 19, bench:api): PostgreSQL only uses an index for a condition of a
// query on a table with a policy when the condition's function is LEAKPROOF, and ILIKE's (texticlike) is not — so
// under rastro_app every `q` search read all of the company's rows instead of the trigram indexes (129 ms against
// 1.7 ms on 50k ativos). texticlike can raise an error only for a malformed pattern, and the application always
// passes the pattern as a parameter (never a column), so marking it LEAKPROOF lets no row's value out through an
// error. Only a superuser may mark a function LEAKPROOF: on a server where the migrating role is not one, this does
// nothing and the search stays correct, only slower (README, "Security model").
import { Migration } from '@mikro-orm/migrations';

const WHEN_SUPERUSER = (sql: string) => `do $$ begin
  if (select rolsuper from pg_roles where rolname = current_user) then ${sql}; end if;
end $$;`;

export class Migration20261127041500_busca_trigram_rls extends Migration {

  override name = 'Migration20261127041500_busca_trigram_rls';

  override up(): void | Promise<void> {
    this.addSql(WHEN_SUPERUSER('alter function pg_catalog.texticlike(text, text) leakproof'));
  }

  override down(): void | Promise<void> {
    this.addSql(WHEN_SUPERUSER('alter function pg_catalog.texticlike(text, text) not leakproof'));
  }

}
