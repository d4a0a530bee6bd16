// Keyboards (teclados): the logs of the on-board keyboards.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/teclado.ts';

export default defineModule({ name: 'teclado', providers });
