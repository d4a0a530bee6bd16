// Fence entries, exits and time inside as positions are stored: the gateway hands each committed batch here
// (server/core/ingest.ts).
import { defineIngest } from '../../server/core/ingest.ts';
import { FenceProcessor } from './server/processor.ts';

export default defineIngest({
  name: 'cercas',
  start: ({ pool, log, publish }) => new FenceProcessor(pool, log, undefined, publish),
});
