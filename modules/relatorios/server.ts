// Reports (/rel/rel/relatorios): the families are metadata (kind relatorio, metadata/rel/*.yaml) read through the
// read engine in the caller's company; server/routes.ts serves the index, the pages and the exports (server/export.ts,
// exportReport); favourites are the register relatorio_favorito. server/spool.ts: background generation into the
// spool (relatorio_gerado), sharing, and scheduled e-mails (agendamento_relatorio) — here, not in a module of their
// own, because they run exportReport and modules do not import each other.
import { defineModule } from '../../server/core/module.ts';
import { relatorioRoutes } from './server/routes.ts';
import { relatorioFavorito } from './server/favoritos.ts';
import { agendadoJob, agendamentoHook, formatoJob, geraJob, spoolActions, spoolRoutes, startSpool } from './server/spool.ts';

export default defineModule({
  name: 'relatorios',
  routes: (api) => { relatorioRoutes(api); spoolRoutes(api); },
  hooks: { relatorio_favorito: relatorioFavorito, agendamento_relatorio: agendamentoHook },
  actions: spoolActions,
  jobs: [geraJob, formatoJob, agendadoJob],
  start: startSpool,
});
