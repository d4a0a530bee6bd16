// Satellite panel: messages of the satellite terminals.
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/satelite.ts';

export default defineModule({ name: 'satelite', providers });
