// Daily totals as positions are stored: the gateway hands each committed batch here (server/core/ingest.ts), after
// the trip detector (its stored trips give the trip counts). TOTAIS_INGESTAO=off: not kept (e.g. a gateway process
// that should only write; another process, or a later run, aggregates the days it touches).
import { defineIngest } from '../../server/core/ingest.ts';
import { TotaisProcessor } from './server/processor.ts';

export default defineIngest({
  name: 'totais',
  after: ['viagens'],
  start: ({ pool, log }) => process.env.TOTAIS_INGESTAO === 'off'
    ? { positions: () => {}, drain: async () => {}, stop: async () => {} }
    : new TotaisProcessor(pool, log),
});
