// Trips and stops computed as data arrives: the detector (server/detector.ts) runs at ingest (ingest.ts, the
// gateway's after-commit hook) and stores telemetria.viagem / telemetria.parada; the lists are declared providers
// (metadata/), the analysis screen is screens/.
import { defineModule } from '../../server/core/module.ts';

export default defineModule({ name: 'viagens' });
