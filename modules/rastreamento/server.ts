// Live map (Rastreamento ao vivo): the latest state of each device, read by the map screen. Its provider
// (ultimo_estado) is declared in its YAML (`sql:`) and served by the read engine: no code.
import { defineModule } from '../../server/core/module.ts';

export default defineModule({ name: 'rastreamento' });
