// Keyboards (teclados): the on-board keyboards' registers, their macro action and their logs.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/teclado.ts';
import { actions } from './server/actions.ts';

export default defineModule({ name: 'teclado', providers, actions });
