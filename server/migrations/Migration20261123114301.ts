import { Migration } from '@mikro-orm/migrations';

export class Migration20261123114301 extends Migration {

  override name = 'Migration20261123114301';

  override up(): void | Promise<void> {
    // Quick search: trigram indexes (added by hand to the generated migration).
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create index "ambiente_descricao_trgm_index" on "ambiente" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "ambiente_descricao_id_sort_index" on "ambiente" ("descricao", "id");`);

    this.addSql(`create index "cargo_descricao_trgm_index" on "cargo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "cargo_ambiente_id_descricao_id_sort_index" on "cargo" ("ambiente_id", "descricao", "id");`);

    this.addSql(`create index "empresa_fantasia_trgm_index" on "empresa" using gin ("fantasia" gin_trgm_ops);`);
    this.addSql(`create index "empresa_razao_social_trgm_index" on "empresa" using gin ("razao_social" gin_trgm_ops);`);
    this.addSql(`create index "empresa_cnpj_trgm_index" on "empresa" using gin ("cnpj" gin_trgm_ops);`);
    this.addSql(`create index "empresa_ambiente_id_fantasia_id_sort_index" on "empresa" ("ambiente_id", "fantasia", "id");`);

    this.addSql(`create index "categoria_de_ativo_descricao_trgm_index" on "categoria_de_ativo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "categoria_de_ativo_empresa_id_descricao_id_sort_index" on "categoria_de_ativo" ("empresa_id", "descricao", "id");`);

    this.addSql(`create index "equipamento_serial_trgm_index" on "equipamento" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "equipamento_firmware_trgm_index" on "equipamento" using gin ("firmware" gin_trgm_ops);`);
    this.addSql(`create index "equipamento_simcard_trgm_index" on "equipamento" using gin ("simcard" gin_trgm_ops);`);
    this.addSql(`create index "equipamento_empresa_id_serial_id_sort_index" on "equipamento" ("empresa_id", "serial", "id");`);

    this.addSql(`create index "equipamento_pendente_serial_trgm_index" on "equipamento_pendente" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "equipamento_pendente_ultima_mensagem_id_sort_index" on "equipamento_pendente" ("ultima_mensagem", "id");`);

    this.addSql(`create index "fabricante_de_ativo_descricao_trgm_index" on "fabricante_de_ativo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "fabricante_de_ativo_empresa_id_descricao_id_sort_index" on "fabricante_de_ativo" ("empresa_id", "descricao", "id");`);

    this.addSql(`create index "fila_processamento_serial_trgm_index" on "fila_processamento" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "fila_processamento_empresa_id_created_at_id_sort_index" on "fila_processamento" ("empresa_id", "created_at", "id");`);

    this.addSql(`create index "garagem_nome_trgm_index" on "garagem" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "garagem_descricao_trgm_index" on "garagem" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "garagem_empresa_id_nome_id_sort_index" on "garagem" ("empresa_id", "nome", "id");`);

    this.addSql(`create index "modelo_de_ativo_descricao_trgm_index" on "modelo_de_ativo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "modelo_de_ativo_empresa_id_descricao_id_sort_index" on "modelo_de_ativo" ("empresa_id", "descricao", "id");`);

    this.addSql(`create index "motorista_nome_trgm_index" on "motorista" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "motorista_documento_trgm_index" on "motorista" using gin ("documento" gin_trgm_ops);`);
    this.addSql(`create index "motorista_matricula_trgm_index" on "motorista" using gin ("matricula" gin_trgm_ops);`);
    this.addSql(`create index "motorista_tag_trgm_index" on "motorista" using gin ("tag" gin_trgm_ops);`);
    this.addSql(`create index "motorista_empresa_id_nome_id_sort_index" on "motorista" ("empresa_id", "nome", "id");`);

    this.addSql(`create index "permissao_descricao_trgm_index" on "permissao" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "permissao_ambiente_id_descricao_id_sort_index" on "permissao" ("ambiente_id", "descricao", "id");`);

    this.addSql(`create index "situacao_do_ativo_descricao_trgm_index" on "situacao_do_ativo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "situacao_do_ativo_empresa_id_descricao_id_sort_index" on "situacao_do_ativo" ("empresa_id", "descricao", "id");`);

    this.addSql(`create index "ativo_descricao_trgm_index" on "ativo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "ativo_placa_trgm_index" on "ativo" using gin ("placa" gin_trgm_ops);`);
    this.addSql(`create index "ativo_numero_frota_trgm_index" on "ativo" using gin ("numero_frota" gin_trgm_ops);`);
    this.addSql(`create index "ativo_empresa_id_descricao_id_sort_index" on "ativo" ("empresa_id", "descricao", "id");`);

    this.addSql(`create index "equipamento_ativo_serial_trgm_index" on "equipamento_ativo" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "equipamento_ativo_empresa_id_data_inicio_id_sort_index" on "equipamento_ativo" ("empresa_id", "data_inicio", "id");`);

    this.addSql(`create index "usuario_nome_trgm_index" on "usuario" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "usuario_login_trgm_index" on "usuario" using gin ("login" gin_trgm_ops);`);
    this.addSql(`create index "usuario_email_trgm_index" on "usuario" using gin ("email" gin_trgm_ops);`);
    this.addSql(`create index "usuario_ambiente_id_nome_id_sort_index" on "usuario" ("ambiente_id", "nome", "id");`);

    this.addSql(`create index "sessao_login_trgm_index" on "sessao" using gin ("login" gin_trgm_ops);`);
    this.addSql(`create index "sessao_ip_trgm_index" on "sessao" using gin ("ip" gin_trgm_ops);`);
    this.addSql(`create index "sessao_ambiente_id_data_inicio_id_sort_index" on "sessao" ("ambiente_id", "data_inicio", "id");`);

    this.addSql(`create index "historico_de_login_nome_trgm_index" on "historico_de_login" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "historico_de_login_ip_trgm_index" on "historico_de_login" using gin ("ip" gin_trgm_ops);`);
    this.addSql(`create index "historico_de_login_ambiente_id_data_login_id_sort_index" on "historico_de_login" ("ambiente_id", "data_login", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "ambiente_descricao_trgm_index";`);
    this.addSql(`drop index "ambiente_descricao_id_sort_index";`);

    this.addSql(`drop index "ativo_descricao_trgm_index";`);
    this.addSql(`drop index "ativo_placa_trgm_index";`);
    this.addSql(`drop index "ativo_numero_frota_trgm_index";`);
    this.addSql(`drop index "ativo_empresa_id_descricao_id_sort_index";`);

    this.addSql(`drop index "cargo_descricao_trgm_index";`);
    this.addSql(`drop index "cargo_ambiente_id_descricao_id_sort_index";`);

    this.addSql(`drop index "categoria_de_ativo_descricao_trgm_index";`);
    this.addSql(`drop index "categoria_de_ativo_empresa_id_descricao_id_sort_index";`);

    this.addSql(`drop index "empresa_fantasia_trgm_index";`);
    this.addSql(`drop index "empresa_razao_social_trgm_index";`);
    this.addSql(`drop index "empresa_cnpj_trgm_index";`);
    this.addSql(`drop index "empresa_ambiente_id_fantasia_id_sort_index";`);

    this.addSql(`drop index "equipamento_serial_trgm_index";`);
    this.addSql(`drop index "equipamento_firmware_trgm_index";`);
    this.addSql(`drop index "equipamento_simcard_trgm_index";`);
    this.addSql(`drop index "equipamento_empresa_id_serial_id_sort_index";`);

    this.addSql(`drop index "equipamento_ativo_serial_trgm_index";`);
    this.addSql(`drop index "equipamento_ativo_empresa_id_data_inicio_id_sort_index";`);

    this.addSql(`drop index "equipamento_pendente_serial_trgm_index";`);
    this.addSql(`drop index "equipamento_pendente_ultima_mensagem_id_sort_index";`);

    this.addSql(`drop index "fabricante_de_ativo_descricao_trgm_index";`);
    this.addSql(`drop index "fabricante_de_ativo_empresa_id_descricao_id_sort_index";`);

    this.addSql(`drop index "fila_processamento_serial_trgm_index";`);
    this.addSql(`drop index "fila_processamento_empresa_id_created_at_id_sort_index";`);

    this.addSql(`drop index "garagem_nome_trgm_index";`);
    this.addSql(`drop index "garagem_descricao_trgm_index";`);
    this.addSql(`drop index "garagem_empresa_id_nome_id_sort_index";`);

    this.addSql(`drop index "historico_de_login_nome_trgm_index";`);
    this.addSql(`drop index "historico_de_login_ip_trgm_index";`);
    this.addSql(`drop index "historico_de_login_ambiente_id_data_login_id_sort_index";`);

    this.addSql(`drop index "modelo_de_ativo_descricao_trgm_index";`);
    this.addSql(`drop index "modelo_de_ativo_empresa_id_descricao_id_sort_index";`);

    this.addSql(`drop index "motorista_nome_trgm_index";`);
    this.addSql(`drop index "motorista_documento_trgm_index";`);
    this.addSql(`drop index "motorista_matricula_trgm_index";`);
    this.addSql(`drop index "motorista_tag_trgm_index";`);
    this.addSql(`drop index "motorista_empresa_id_nome_id_sort_index";`);

    this.addSql(`drop index "permissao_descricao_trgm_index";`);
    this.addSql(`drop index "permissao_ambiente_id_descricao_id_sort_index";`);

    this.addSql(`drop index "sessao_login_trgm_index";`);
    this.addSql(`drop index "sessao_ip_trgm_index";`);
    this.addSql(`drop index "sessao_ambiente_id_data_inicio_id_sort_index";`);

    this.addSql(`drop index "situacao_do_ativo_descricao_trgm_index";`);
    this.addSql(`drop index "situacao_do_ativo_empresa_id_descricao_id_sort_index";`);

    this.addSql(`drop index "usuario_nome_trgm_index";`);
    this.addSql(`drop index "usuario_login_trgm_index";`);
    this.addSql(`drop index "usuario_email_trgm_index";`);
    this.addSql(`drop index "usuario_ambiente_id_nome_id_sort_index";`);
  }

}
