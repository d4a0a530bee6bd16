import { Migration } from '@mikro-orm/migrations';

export class Migration20261127205712 extends Migration {

  override name = 'Migration20261127205712';

  override up(): void | Promise<void> {
    this.addSql(`alter table "formulario" add "frequencia" int null, add "unidade_de_freq" text null, add "usuarios" integer[] null, add "motoristas" integer[] null, add "nomes" jsonb null;`);
    this.addSql(`alter table "formulario" add constraint "formulario_unidade_de_freq_check" check ("unidade_de_freq" in ('dia', 'semana', 'mes'));`);

    this.addSql(`alter table "resposta_formulario" add "quem_respondeu" varchar(160) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "formulario" drop constraint "formulario_unidade_de_freq_check";`);
  }

}
