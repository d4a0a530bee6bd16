// System parameters read by name (GET /api/adm/parametro/{parametro}).
import { defineModule } from '../../server/core/module.ts';
import routes from './server/parametro.ts';

export default defineModule({ name: 'parametro', routes });
