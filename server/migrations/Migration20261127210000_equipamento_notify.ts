import { Migration } from '@mikro-orm/migrations';

// Device directory invalidation (issue 24): the gateway caches each serial's registration (server/ingest/devices.ts)
// for minutes, longer than a device's report period. Every committed change that can alter a serial's resolution
// notifies channel `rastro_equipamento`, whoever wrote it (the API of any process, a script, psql), and every gateway
// process LISTENs and forgets what it concerns. Payload "{kind}:{key}": q serial (equipamento, equipamento_ativo),
// a ativo id (an asset created, deleted or moved), m ativo id (its driver assignment), e empresa id (allowed networks).
// Columns the gateway itself writes (ultima_comunicacao) do not notify. Hand-written: triggers are outside the diff.
export class Migration20261127210000_equipamento_notify extends Migration {

  override name = 'Migration20261127210000_equipamento_notify';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "rastro_equipamento_notify"() returns trigger language plpgsql as $$
declare k text := TG_ARGV[0]; col text := TG_ARGV[1]; o text; n text;
begin
  if TG_OP <> 'INSERT' then o := to_jsonb(old) ->> col; end if;
  if TG_OP <> 'DELETE' then n := to_jsonb(new) ->> col; end if;
  if o is not null then perform pg_notify('rastro_equipamento', k || ':' || o); end if;
  if n is not null and n is distinct from o then perform pg_notify('rastro_equipamento', k || ':' || n); end if;
  return null;
end $$;`);
    this.addSql(`create trigger "equipamento_rastro_equipamento_notify" after insert or delete or update of "serial", "empresa_id", "modelo", "tecnologia", "ativado" on "equipamento" for each row execute function "rastro_equipamento_notify"('q', 'serial');`);
    this.addSql(`create trigger "equipamento_ativo_rastro_equipamento_notify" after insert or delete or update on "equipamento_ativo" for each row execute function "rastro_equipamento_notify"('q', 'serial');`);
    this.addSql(`create trigger "ativo_rastro_equipamento_notify" after insert or delete or update of "empresa_id" on "ativo" for each row execute function "rastro_equipamento_notify"('a', 'id');`);
    this.addSql(`create trigger "motorista_temporario_rastro_equipamento_notify" after insert or delete or update on "motorista_temporario" for each row execute function "rastro_equipamento_notify"('m', 'ativo_id');`);
    this.addSql(`create trigger "empresa_rastro_equipamento_notify" after delete or update of "redes_permitidas" on "empresa" for each row execute function "rastro_equipamento_notify"('e', 'id');`);
  }

  override down(): void | Promise<void> {
    for (const t of ['equipamento', 'equipamento_ativo', 'ativo', 'motorista_temporario', 'empresa']) this.addSql(`drop trigger if exists "${t}_rastro_equipamento_notify" on "${t}";`);
    this.addSql(`drop function if exists "rastro_equipamento_notify"();`);
  }

}
