// Daily totals as positions are stored: the gateway hands each committed batch here (server/core/ingest.ts), after
// the trip detector (its stored trips give the trip counts).
import { defineIngest } from '../../server/core/ingest.ts';
import { TotaisProcessor } from './server/processor.ts';

export default defineIngest({
  name: 'totais',
  after: ['viagens'],
  start: ({ pool, log }) => new TotaisProcessor(pool, log),
});
