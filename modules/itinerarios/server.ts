// Itineraries and lines: the line's route and corridor and the itinerary's stop points are drawn with the core's
// geometry map widget (metadata/tlm/linha.yaml, itinerario_ponto.yaml); the itinerary history compares an asset's
// trips with the itinerary (deviations from the corridor, lateness per stop) and the line recognition names the line
// each trip ran (comparacao.ts: pure; server/rotas.ts: the named calls over the declared providers in metadata/).
import { defineModule } from '../../server/core/module.ts';
import { routes } from './server/rotas.ts';

export default defineModule({ name: 'itinerarios', routes });
