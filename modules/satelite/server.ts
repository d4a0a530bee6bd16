// Satellite panel: the company's satellite terminals (provider painel_satelite, declared in its YAML `sql:` and served
// by the read engine) and the message sent to one of them through its command queue (server/mensagem.ts).
import { defineModule } from '../../server/core/module.ts';
import routes from './server/mensagem.ts';

export default defineModule({ name: 'satelite', routes });
