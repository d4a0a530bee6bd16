// Track replay (Histórico de rastreamento): the tracks of 1..10 assets in a period, simplified per zoom on the server
// (server/simplify.ts), with the trips, stops and events of the period, and their export as CSV, GPX and KML
// (server/routes.ts). The sources are declared providers (metadata/), read through the read engine in the company scope.
import { defineModule } from '../../server/core/module.ts';
import { historicoRoutes } from './server/routes.ts';

export default defineModule({ name: 'historico', routes: historicoRoutes });
