// Daily totals kept at ingest: the aggregation (server/processor.ts, server/sql.ts) runs in the gateway (ingest.ts)
// and stores telemetria.total_diario; the providers (metadata/) serve daily rows and month/year sums per asset and
// per driver through the read engine (company scope from the session) — for the reports (diario, mensal, utilizacao).
import { defineModule } from '../../server/core/module.ts';

export default defineModule({ name: 'totais' });
