// Trips and stops as positions are stored: the gateway hands each committed batch here (server/core/ingest.ts).
import { defineIngest } from '../../server/core/ingest.ts';
import { TripProcessor } from './server/processor.ts';

export default defineIngest({
  name: 'viagens',
  start: ({ pool, log }) => new TripProcessor(pool, log),
});
