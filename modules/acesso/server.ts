// Access to assets (acesso_ativo): which users see which assets.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/acesso.ts';

export default defineModule({ name: 'acesso', providers });
