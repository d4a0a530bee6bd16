// Passengers by RFID at ingest: the gateway hands each committed batch's positions here (server/core/ingest.ts); the
// card reads board and alight passengers (server/processor.ts).
import { defineIngest } from '../../server/core/ingest.ts';
import { PassengerProcessor } from './server/processor.ts';

export default defineIngest({
  name: 'passageiros',
  start: ({ pool, log, publish }) => new PassengerProcessor(pool, log, undefined, publish),
});
