// Live map (Rastreamento ao vivo): the latest state of each device, read by the map screen.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/ultimo_estado.ts';

export default defineModule({ name: 'rastreamento', providers });
