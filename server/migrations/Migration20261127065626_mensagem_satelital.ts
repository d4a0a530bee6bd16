import { Migration } from '@mikro-orm/migrations';

export class Migration20261127065626_mensagem_satelital extends Migration {

  override name = 'Migration20261127065626_mensagem_satelital';

  override up(): void | Promise<void> {
    this.addSql(`alter table "fila_processamento" drop constraint "fila_processamento_event_check";`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_event_check" check ("event" in ('reboot', 'sync', 'readConfig', 'writeConfig', 'engineBlock', 'engineUnblock', 'firmwareUpdate', 'mensagemSatelite'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "fila_processamento" drop constraint "fila_processamento_event_check";`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_event_check" check ("event" in ('reboot', 'sync', 'readConfig', 'writeConfig', 'engineBlock', 'engineUnblock', 'firmwareUpdate'));`);
  }

}
