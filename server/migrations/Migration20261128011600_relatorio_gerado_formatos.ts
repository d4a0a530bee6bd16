// relatorio_gerado is read by column privileges (Migration20261127211200_relatorio_gerado_link_token: its link token
// stays out of reach): its new column formatos (the other formats a job produced) gets its `grant select`.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261128011600_relatorio_gerado_formatos extends Migration {

  override name = 'Migration20261128011600_relatorio_gerado_formatos';

  override up(): void | Promise<void> {
    this.addSql(`grant select (formatos) on table public.relatorio_gerado to rastro_app, rastro_ingest;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`revoke select (formatos) on table public.relatorio_gerado from rastro_app, rastro_ingest;`);
  }

}
