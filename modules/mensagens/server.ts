// Cloud messages (spec sections 1 and 7, /adm/cloudMessage): Web Push with VAPID to the users' browsers by topic,
// and the same message as an in-app notification. See README.md for the choice of Web Push over FCM.
import { defineModule } from '../../server/core/module.ts';
import { mensagemRoutes, setIo } from './server/routes.ts';

export default defineModule({
  name: 'mensagens',
  routes: mensagemRoutes,
  start: ({ io }) => { setIo(io); return { stop: async () => { setIo(undefined); } }; },
});
