// Profile (Meu perfil): the signed-in user's own name and e-mail.
import { defineModule } from '../../server/core/module.ts';
import routes from './server/perfil.ts';

export default defineModule({ name: 'perfil', routes });
