// Dashboards (issue 22) and the Grafana proxy (issue 24): Gestão à vista (/rel/ges/gestao_a_vista and /ambiente), the
// users' own Painéis (/rel/ges/paineis, register painel) and the system map (/base_layout). The numbers come from
// declared providers (metadata/rel/gestao_*.yaml: the daily totals of modules/totais and the latest states), the
// vehicles' situation from live rows pushed as `gestao_estado` (no polling). server/grafana.ts: /api/wkd/grafana/….
import { defineModule } from '../../server/core/module.ts';
import { painelHook } from './server/painel.ts';
import { grafanaRoutes } from './server/grafana.ts';

export default defineModule({
  name: 'gestao',
  routes: grafanaRoutes,
  hooks: { painel: painelHook },
  live: [{ event: 'gestao_estado', provider: 'gestao_estado', key: 'serial' }],
});
