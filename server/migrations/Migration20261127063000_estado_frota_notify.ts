import { Migration } from '@mikro-orm/migrations';

// Fleet state push (issue 20, home page): each statement that writes telemetria.ultimo_estado (the gateway's upsert
// per batch, or anyone else) notifies channel `rastro_estado` once per company it touched (payload: the company id).
// The API LISTENs (server/realtime/frota.ts) and tells that company's sockets `estado_frota`; the home page then
// reads its numbers again through the pipeline. Statement-level with a transition table: one notification per
// company and statement, not per row. Hand-written: triggers are outside the entity diff.
export class Migration20261127063000_estado_frota_notify extends Migration {

  override name = 'Migration20261127063000_estado_frota_notify';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function telemetria.estado_frota_notify() returns trigger language plpgsql as $$
declare e integer;
begin
  for e in select distinct n.empresa_id from novo n where n.empresa_id is not null loop
    perform pg_notify('rastro_estado', e::text);
  end loop;
  return null;
end $$;`);
    this.addSql(`create trigger ultimo_estado_notify_insert after insert on telemetria.ultimo_estado referencing new table as novo for each statement execute function telemetria.estado_frota_notify();`);
    this.addSql(`create trigger ultimo_estado_notify_update after update on telemetria.ultimo_estado referencing new table as novo for each statement execute function telemetria.estado_frota_notify();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists ultimo_estado_notify_insert on telemetria.ultimo_estado;`);
    this.addSql(`drop trigger if exists ultimo_estado_notify_update on telemetria.ultimo_estado;`);
    this.addSql(`drop function if exists telemetria.estado_frota_notify();`);
  }

}
