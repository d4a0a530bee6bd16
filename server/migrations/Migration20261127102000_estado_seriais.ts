import { Migration } from '@mikro-orm/migrations';

// Latest states pushed (issue 21): the one notification of a write to telemetria.ultimo_estado (channel
// `rastro_estado`, see estado_frota_notify) now also names the serials written: payload `<empresa>:<serial>,<serial>…`,
// split in several notifications below NOTIFY's 8 KB. The API (server/realtime/bus.ts) pushes the fleet counters and
// the changed latest states to that company's sockets. A writer that publishes on Redis instead (REDIS_URL) sets
// `rastro.estado_bus = 'redis'` in its transaction: the trigger then stays quiet (publish once, on one bus).
export class Migration20261127102000_estado_seriais extends Migration {

  override name = 'Migration20261127102000_estado_seriais';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function telemetria.estado_frota_notify() returns trigger language plpgsql as $$
declare m text;
begin
  if current_setting('rastro.estado_bus', true) = 'redis' then return null; end if;
  for m in
    select c.empresa_id::text || ':' || string_agg(c.serial, ',' order by c.serial)
      from (select n.empresa_id, n.serial,
                   (sum(octet_length(n.serial) + 1) over (partition by n.empresa_id order by n.serial)) / 7800 as parte
              from novo n where n.empresa_id is not null) c
     group by c.empresa_id, c.parte
  loop
    perform pg_notify('rastro_estado', m);
  end loop;
  return null;
end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create or replace function telemetria.estado_frota_notify() returns trigger language plpgsql as $$
declare e integer;
begin
  for e in select distinct n.empresa_id from novo n where n.empresa_id is not null loop
    perform pg_notify('rastro_estado', e::text);
  end loop;
  return null;
end $$;`);
  }

}
