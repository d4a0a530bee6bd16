// Position records (registros): the positions of the company's devices over a period.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/registros.ts';

export default defineModule({ name: 'registros', providers });
