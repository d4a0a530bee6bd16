// Trips and stops computed as data arrives: the detector (server/detector.ts) runs at ingest (ingest.ts, the
// gateway's after-commit hook) and stores telemetria.viagem / telemetria.parada with the company's parameters
// (metadata/cfg/parametro_viagem.yaml); the lists are declared providers (metadata/), the analysis screen is screens/.
// Recalcular período (parametro_viagem action) is the background job server/recalculo.ts.
import { defineModule } from '../../server/core/module.ts';
import { recalcula, recalculoViagens } from './server/recalculo.ts';

export default defineModule({ name: 'viagens', actions: { viagens_recalcula: recalcula }, jobs: [recalculoViagens] });
