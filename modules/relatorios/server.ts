// Reports (/rel/rel/relatorios): the families are metadata (kind relatorio, metadata/rel/*.yaml) read through the
// read engine in the caller's company; server/routes.ts serves the index, the pages and the exports (server/export.ts,
// exportReport: the seam a background job can take over); favourites are the register relatorio_favorito.
import { defineModule } from '../../server/core/module.ts';
import { relatorioRoutes } from './server/routes.ts';
import { relatorioFavorito } from './server/favoritos.ts';

export default defineModule({ name: 'relatorios', routes: relatorioRoutes, hooks: { relatorio_favorito: relatorioFavorito } });
