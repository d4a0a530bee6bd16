// Live map (Rastreamento ao vivo): the latest state of each device, read by the map screen. Its provider
// (ultimo_estado) is declared in its YAML (`sql:`) and served by the read engine: no code. The screens load it once
// and then apply the rows pushed as `ultimo_estado` (server/realtime/live.ts) when the gateway writes them.
import { defineModule } from '../../server/core/module.ts';

export default defineModule({
  name: 'rastreamento',
  live: [{ event: 'ultimo_estado', provider: 'ultimo_estado', key: 'serial' }],
});
