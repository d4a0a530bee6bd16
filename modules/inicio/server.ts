// The operator's overview: the home page's numbers (GET /api/home/...) and the fleet monitoring list (provider
// situacao_frota, screen /rel/ges/gestao_a_vista/monitoramento).
import { defineModule } from '../../server/core/module.ts';
import { providers, routes } from './server/frota.ts';

export default defineModule({ name: 'inicio', routes, providers });
