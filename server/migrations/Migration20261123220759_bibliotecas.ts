import { Migration } from '@mikro-orm/migrations';

export class Migration20261123220759_bibliotecas extends Migration {

  override name = 'Migration20261123220759_bibliotecas';

  override up(): void | Promise<void> {
    this.addSql(`create table "biblioteca_evento" ("id" serial primary key, "tecnologia" text not null, "event" varchar(80) not null, "description" varchar(200) null, "subtitle" varchar(120) null, "type" text not null, "unit_value" varchar(40) null, "unit_full" varchar(60) null, "unit_short" varchar(20) null, "code" int null, "message" varchar(5) null, "grupo" text null, "risk" text null, "ordem" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "biblioteca_evento_event_trgm_index" on "biblioteca_evento" using gin ("event" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_evento_description_trgm_index" on "biblioteca_evento" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_evento_subtitle_trgm_index" on "biblioteca_evento" using gin ("subtitle" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_evento_event_id_sort_index" on "biblioteca_evento" ("event", "id");`);

    this.addSql(`create table "biblioteca_parametro" ("id" serial primary key, "origem" text not null, "event" varchar(80) not null, "description" varchar(200) null, "subtitle" varchar(120) null, "type" text not null, "unit_value" varchar(40) null, "unit_full" varchar(60) null, "unit_short" varchar(20) null, "ordem" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "biblioteca_parametro_event_trgm_index" on "biblioteca_parametro" using gin ("event" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_parametro_description_trgm_index" on "biblioteca_parametro" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_parametro_subtitle_trgm_index" on "biblioteca_parametro" using gin ("subtitle" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_parametro_event_id_sort_index" on "biblioteca_parametro" ("event", "id");`);

    this.addSql(`create table "biblioteca_periferico" ("id" serial primary key, "origem" text not null, "event" varchar(80) not null, "description" varchar(200) null, "subtitle" varchar(120) null, "type" text not null, "unit_value" varchar(40) null, "unit_full" varchar(60) null, "unit_short" varchar(20) null, "ordem" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "biblioteca_periferico_event_trgm_index" on "biblioteca_periferico" using gin ("event" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_periferico_description_trgm_index" on "biblioteca_periferico" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_periferico_subtitle_trgm_index" on "biblioteca_periferico" using gin ("subtitle" gin_trgm_ops);`);
    this.addSql(`create index "biblioteca_periferico_event_id_sort_index" on "biblioteca_periferico" ("event", "id");`);

    this.addSql(`alter table "biblioteca_evento" add constraint "biblioteca_evento_tecnologia_check" check ("tecnologia" in ('queclink', 'legacy', 'vdo'));`);
    this.addSql(`alter table "biblioteca_evento" add constraint "biblioteca_evento_type_check" check ("type" in ('primary', 'weekdays', 'date_range', 'time_range', 'latlng', 'number', 'angle', 'velocity', 'boolean', 'bit', 'voltage', 'temperature', 'distance', 'acceleration', 'rpm', 'volume', 'time', 'driver', 'percentage', 'litres', 'ampere', 'weight', 'watt', 'motionStatus', 'gnssTriggerType', 'enterGeofence', 'exitGeofence', 'parkingGeofence', 'roamingState', 'powerOnReason', 'powerOffReason', 'harshBehaviorType', 'driverIdentification', 'ignitionKey', 'tachographDrivingDirection', 'rebootMessage', 'speedLevel', 'tireStatus', 'powerMode', 'statusInverterMode', 'chargeState', 'groupIdClt'));`);
    this.addSql(`alter table "biblioteca_evento" add constraint "biblioteca_evento_grupo_check" check ("grupo" in ('rsp', 'evt'));`);
    this.addSql(`alter table "biblioteca_evento" add constraint "biblioteca_evento_risk_check" check ("risk" in ('baixo', 'médio', 'alto'));`);

    this.addSql(`alter table "biblioteca_parametro" add constraint "biblioteca_parametro_origem_check" check ("origem" in ('queclink', 'legacy', 'viagem'));`);
    this.addSql(`alter table "biblioteca_parametro" add constraint "biblioteca_parametro_type_check" check ("type" in ('primary', 'weekdays', 'date_range', 'time_range', 'latlng', 'number', 'angle', 'velocity', 'boolean', 'bit', 'voltage', 'temperature', 'distance', 'acceleration', 'rpm', 'volume', 'time', 'driver', 'percentage', 'litres', 'ampere', 'weight', 'watt', 'motionStatus', 'gnssTriggerType', 'enterGeofence', 'exitGeofence', 'parkingGeofence', 'roamingState', 'powerOnReason', 'powerOffReason', 'harshBehaviorType', 'driverIdentification', 'ignitionKey', 'tachographDrivingDirection', 'rebootMessage', 'speedLevel', 'tireStatus', 'powerMode', 'statusInverterMode', 'chargeState', 'groupIdClt'));`);

    this.addSql(`alter table "biblioteca_periferico" add constraint "biblioteca_periferico_origem_check" check ("origem" in ('can', 'camera'));`);
    this.addSql(`alter table "biblioteca_periferico" add constraint "biblioteca_periferico_type_check" check ("type" in ('primary', 'weekdays', 'date_range', 'time_range', 'latlng', 'number', 'angle', 'velocity', 'boolean', 'bit', 'voltage', 'temperature', 'distance', 'acceleration', 'rpm', 'volume', 'time', 'driver', 'percentage', 'litres', 'ampere', 'weight', 'watt', 'motionStatus', 'gnssTriggerType', 'enterGeofence', 'exitGeofence', 'parkingGeofence', 'roamingState', 'powerOnReason', 'powerOffReason', 'harshBehaviorType', 'driverIdentification', 'ignitionKey', 'tachographDrivingDirection', 'rebootMessage', 'speedLevel', 'tireStatus', 'powerMode', 'statusInverterMode', 'chargeState', 'groupIdClt'));`);
  }

}
