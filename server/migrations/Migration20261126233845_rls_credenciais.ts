// Row-level security, second round (issue 18; design in server/db/rls.ts). Written by
// `npm run migration:create -- --name rls_credenciais`: the ambiente policies (usuario, sessao, historico_de_login,
// empresa) and the change history's policy come from the metadata. Added by hand at the end: credentials are out of
// the app's and the gateway's roles' reach — the password hash (usuario.senha) and the API key hash
// (chave_de_api.chave) by column privileges (every other column stays readable; the ORM never selects these: lazy
// properties), the password recovery tokens (recuperacao_senha) entirely. The sign-in path, session lookup and
// password recovery read them as the system role (outside a company). A new credential column needs the same
// treatment (server/db/rls-walk.test.ts fails until it has it); a new column of these two tables needs its
// `grant select (column)` (the same test fails until it has it).
import { Migration } from '@mikro-orm/migrations';

export class Migration20261126233845_rls_credenciais extends Migration {

  override name = 'Migration20261126233845_rls_credenciais';

  override up(): void | Promise<void> {
    this.addSql(`alter table "empresa" enable row level security;`);
    this.addSql(`create policy "empresa_ambiente" on "empresa" to "rastro_app" using (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer) with check (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer);`);
    this.addSql(`create policy "empresa_ingest" on "empresa" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "historico_alteracao" enable row level security;`);
    this.addSql(`create policy "historico_alteracao_empresa" on "historico_alteracao" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer or (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer and entidade in ('ambiente', 'aplicacao', 'biblioteca_evento', 'biblioteca_parametro', 'biblioteca_periferico', 'categoria_unidade_medida', 'empresa', 'equipamento_pendente', 'estado', 'fabricante', 'firmware', 'firmware_hardware', 'grupo_programa', 'hardware_equipamento', 'healthcheck', 'historico_de_login', 'imei', 'menu', 'modelo', 'modulo', 'municipio', 'notificacao_sistema', 'novidade', 'pais', 'permissao_operacao', 'programa', 'protocolo', 'rotina', 'script', 'sessao', 'tipo_script', 'usuario'))) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer or (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer and entidade in ('ambiente', 'aplicacao', 'biblioteca_evento', 'biblioteca_parametro', 'biblioteca_periferico', 'categoria_unidade_medida', 'empresa', 'equipamento_pendente', 'estado', 'fabricante', 'firmware', 'firmware_hardware', 'grupo_programa', 'hardware_equipamento', 'healthcheck', 'historico_de_login', 'imei', 'menu', 'modelo', 'modulo', 'municipio', 'notificacao_sistema', 'novidade', 'pais', 'permissao_operacao', 'programa', 'protocolo', 'rotina', 'script', 'sessao', 'tipo_script', 'usuario')));`);
    this.addSql(`create policy "historico_alteracao_ingest" on "historico_alteracao" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "usuario" enable row level security;`);
    this.addSql(`create policy "usuario_ambiente" on "usuario" to "rastro_app" using (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer) with check (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer);`);
    this.addSql(`create policy "usuario_ingest" on "usuario" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "sessao" enable row level security;`);
    this.addSql(`create policy "sessao_ambiente" on "sessao" to "rastro_app" using (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer) with check (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer);`);
    this.addSql(`create policy "sessao_ingest" on "sessao" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "historico_de_login" enable row level security;`);
    this.addSql(`create policy "historico_de_login_ambiente" on "historico_de_login" to "rastro_app" using (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer) with check (ambiente_id = nullif(current_setting('rastro.ambiente', true), '')::integer);`);
    this.addSql(`create policy "historico_de_login_ingest" on "historico_de_login" to "rastro_ingest" using (true) with check (true);`);

    // Credentials (by hand): SELECT on every column but the secret; INSERT/UPDATE stay (an administrator sets a
    // password, the server stores a new key's hash), so they are write-only for these roles.
    this.addSql(`do $$
declare t text; secret text; cols text;
begin
  for t, secret in select * from (values ('usuario', 'senha'), ('chave_de_api', 'chave')) v loop
    execute format('revoke select on table public.%I from rastro_app, rastro_ingest', t);
    select string_agg(quote_ident(column_name::text), ', ' order by ordinal_position) into cols
      from information_schema.columns where table_schema = 'public' and table_name = t and column_name <> secret;
    execute format('grant select (%s) on table public.%I to rastro_app, rastro_ingest', cols, t);
  end loop;
end $$;`);
    this.addSql(`revoke all on table "recuperacao_senha" from rastro_app, rastro_ingest;`);
    this.addSql(`revoke all on sequence "recuperacao_senha_id_seq" from rastro_app, rastro_ingest;`);
  }

}
