// Fences (cercas): the register's geometry check (hook cerca), the geometry utilities (server/rotas.ts), the ingest
// hook computing entries, exits and time inside (ingest.ts → server/processor.ts) and the screens (map widget of the
// geometry field is the core's; the fences' map is screens/MapaDeCercas.tsx).
import { defineModule } from '../../server/core/module.ts';
import { cercaHook, routes } from './server/rotas.ts';

export default defineModule({ name: 'cercas', routes, hooks: { cerca: cercaHook } });
