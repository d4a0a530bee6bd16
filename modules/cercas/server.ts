// Fences (cercas): the register's geometry check (hook cerca), the geometry utilities (server/rotas.ts), the ingest
// hook computing entries, exits and time inside (ingest.ts → server/processor.ts) and the screens (map widget of the
// geometry field is the core's; the fences' map is screens/MapaDeCercas.tsx, its events card pushed live).
import { defineModule } from '../../server/core/module.ts';
import { cercaHook, routes } from './server/rotas.ts';

export default defineModule({
  name: 'cercas',
  routes,
  hooks: { cerca: cercaHook },
  // The fences map's card of the latest entries, exits and speeding: the processor tells the bus which serials got
  // events; their events of the last day (the 20 latest) are pushed to the company's open maps.
  live: [{ event: 'evento_cerca', provider: 'evento_cerca', key: 'serial', recent: { filter: 'fixTime_gte', ms: 24 * 3600_000, limit: 20 } }],
});
