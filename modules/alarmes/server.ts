// Alarms (issue 21, "Eventos e alarmes"): the alarm console (provider `alarme` pushed live as socket event `alarme`,
// take and close in server/alarmes.ts, kept in the register tratamento_alarme = /tlm/evt/historico_de_tratamento)
// and the heat map (server/calor.ts, /tlm/evt/mapa_de_calor).
import type { Hono } from 'hono';
import type { AppEnv } from '../../server/app/env.ts';
import { defineModule } from '../../server/core/module.ts';
import { alarmeRoutes } from './server/alarmes.ts';
import { calorRoutes } from './server/calor.ts';

export default defineModule({
  name: 'alarmes',
  routes: (api: Hono<AppEnv>) => { alarmeRoutes(api); calorRoutes(api); },
  live: [{ event: 'alarme', provider: 'alarme', key: 'serial' }],
});
