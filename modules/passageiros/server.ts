// Passengers by RFID (issue 23): boarding and alighting from the trackers' card reads at ingest (ingest.ts →
// server/processor.ts, telemetria.viagem_passageiro / telemetria.embarque), who is on board now pushed as live rows
// (provider passageiros_a_bordo keyed by serial), the history (provider embarque), the dashboard's providers
// (server/painel.ts) and the passenger report family (metadata/rel/passageiro.yaml, served by modules/relatorios).
import { defineModule } from '../../server/core/module.ts';
import { providers } from './server/painel.ts';

export default defineModule({
  name: 'passageiros',
  providers,
  live: [{ event: 'passageiros_a_bordo', provider: 'passageiros_a_bordo', key: 'serial' }],
});
