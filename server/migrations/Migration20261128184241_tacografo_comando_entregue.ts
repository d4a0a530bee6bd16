import { Migration } from '@mikro-orm/migrations';

export class Migration20261128184241_tacografo_comando_entregue extends Migration {

  override name = 'Migration20261128184241_tacografo_comando_entregue';

  override up(): void | Promise<void> {
    this.addSql(`alter table "log_tacografo" drop constraint "log_tacografo_evento_check";`);
    this.addSql(`alter table "log_tacografo" add constraint "log_tacografo_evento_check" check ("evento" in ('transferencia_iniciada', 'arquivo_recebido', 'transferencia_falhou', 'comando_enfileirado', 'comando_entregue', 'comando_sem_resposta'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "log_tacografo" drop constraint "log_tacografo_evento_check";`);
    this.addSql(`alter table "log_tacografo" add constraint "log_tacografo_evento_check" check ("evento" in ('transferencia_iniciada', 'arquivo_recebido', 'transferencia_falhou', 'comando_enfileirado'));`);
  }

}
