// Queclink @Track decoder (every @Track model; see the device-type table in models.ts). Notes: protocol/queclink/README.md.
import type { Decoder } from '../types.ts';
import { decode, PROTOCOL, type DecodeOptions } from './decoder.ts';
import { compileConfigTemplate } from './config.ts';
import { encode } from './encoder.ts';
import { frame } from './framer.ts';

export { decode, PROTOCOL, type DecodeOptions } from './decoder.ts';
export { encode, RTO } from './encoder.ts';
export { compileConfigTemplate } from './config.ts';
export { frame, MAX_FRAME } from './framer.ts';
export { eventCatalogue, eventsFor } from './events.ts';
export { DEVICE_TYPES, MODELS, modelFromVersion } from './models.ts';

export function createQueclinkDecoder(opts: DecodeOptions = {}): Decoder {
  return {
    protocol: PROTOCOL,
    frame: (buffer) => frame(buffer),
    decode: (f, now) => decode(f, now, opts),
    encode,
    configTemplate: compileConfigTemplate,
  };
}

export const queclinkDecoder: Decoder = createQueclinkDecoder();
export default queclinkDecoder;
