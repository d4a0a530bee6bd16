// The operator's overview: the home page's numbers (GET /api/home/...) and the fleet monitoring list (provider
// situacao_frota, screen /rel/ges/gestao_a_vista/monitoramento); the user's shortcuts on it (server/atalhos.ts, /api/atalhos).
import { defineModule } from '../../server/core/module.ts';
import { providers, routes } from './server/frota.ts';
import { atalhoRoutes } from './server/atalhos.ts';

export default defineModule({ name: 'inicio', routes: (api) => { routes(api); atalhoRoutes(api); }, providers });
