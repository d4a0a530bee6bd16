import { Migration } from '@mikro-orm/migrations';

export class Migration20261123122403 extends Migration {

  override name = 'Migration20261123122403';

  override up(): void | Promise<void> {
    this.addSql(`alter table "garagem" drop constraint "garagem_grupo_superior_foreign";`);

    this.addSql(`alter table "motorista" drop constraint "motorista_id_garagem_foreign";`);

    this.addSql(`alter table "ativo" drop constraint "ativo_categoria_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_fabricante_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_id_garagem_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_modelo_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_situacao_foreign";`);

    this.addSql(`alter table "sessao" drop constraint "sessao_empresa_ativa_foreign";`);
    this.addSql(`alter table "sessao" drop constraint "sessao_usuario_foreign";`);

    this.addSql(`alter table "garagem" add constraint "garagem_grupo_superior_foreign" foreign key ("grupo_superior") references "garagem" ("id") on delete no action;`);

    this.addSql(`alter table "motorista" add constraint "motorista_id_garagem_foreign" foreign key ("id_garagem") references "garagem" ("id") on delete no action;`);

    this.addSql(`alter table "ativo" add constraint "ativo_categoria_foreign" foreign key ("categoria") references "categoria_de_ativo" ("id") on delete no action;`);
    this.addSql(`alter table "ativo" add constraint "ativo_fabricante_foreign" foreign key ("fabricante") references "fabricante_de_ativo" ("id") on delete no action;`);
    this.addSql(`alter table "ativo" add constraint "ativo_id_garagem_foreign" foreign key ("id_garagem") references "garagem" ("id") on delete no action;`);
    this.addSql(`alter table "ativo" add constraint "ativo_modelo_foreign" foreign key ("modelo") references "modelo_de_ativo" ("id") on delete no action;`);
    this.addSql(`alter table "ativo" add constraint "ativo_situacao_foreign" foreign key ("situacao") references "situacao_do_ativo" ("id") on delete no action;`);

    this.addSql(`alter table "sessao" add constraint "sessao_empresa_ativa_foreign" foreign key ("empresa_ativa") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "sessao" add constraint "sessao_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "ativo" drop constraint "ativo_id_garagem_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_categoria_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_fabricante_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_modelo_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_situacao_foreign";`);

    this.addSql(`alter table "garagem" drop constraint "garagem_grupo_superior_foreign";`);

    this.addSql(`alter table "motorista" drop constraint "motorista_id_garagem_foreign";`);

    this.addSql(`alter table "sessao" drop constraint "sessao_usuario_foreign";`);
    this.addSql(`alter table "sessao" drop constraint "sessao_empresa_ativa_foreign";`);

    this.addSql(`alter table "ativo" add constraint "ativo_id_garagem_foreign" foreign key ("id_garagem") references "garagem" ("id") on delete set null;`);
    this.addSql(`alter table "ativo" add constraint "ativo_categoria_foreign" foreign key ("categoria") references "categoria_de_ativo" ("id") on delete set null;`);
    this.addSql(`alter table "ativo" add constraint "ativo_fabricante_foreign" foreign key ("fabricante") references "fabricante_de_ativo" ("id") on delete set null;`);
    this.addSql(`alter table "ativo" add constraint "ativo_modelo_foreign" foreign key ("modelo") references "modelo_de_ativo" ("id") on delete set null;`);
    this.addSql(`alter table "ativo" add constraint "ativo_situacao_foreign" foreign key ("situacao") references "situacao_do_ativo" ("id") on delete set null;`);

    this.addSql(`alter table "garagem" add constraint "garagem_grupo_superior_foreign" foreign key ("grupo_superior") references "garagem" ("id") on delete set null;`);

    this.addSql(`alter table "motorista" add constraint "motorista_id_garagem_foreign" foreign key ("id_garagem") references "garagem" ("id") on delete set null;`);

    this.addSql(`alter table "sessao" add constraint "sessao_usuario_foreign" foreign key ("usuario") references "usuario" ("id");`);
    this.addSql(`alter table "sessao" add constraint "sessao_empresa_ativa_foreign" foreign key ("empresa_ativa") references "empresa" ("id") on delete set null;`);
  }

}
