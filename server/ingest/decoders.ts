// Finds the protocol decoders (protocol/<name>/index.ts) without hard-wiring their export names.
import type { Decoder } from '../../protocol/types.ts';
import { log } from './log.ts';
import { osmandDecoder } from './osmand.ts';

function isDecoder(v: unknown): v is Decoder {
  const d = v as Decoder;
  return !!d && typeof d === 'object' && typeof d.frame === 'function' && typeof d.decode === 'function';
}

async function loadOne(name: string): Promise<Decoder | null> {
  try {
    const mod: Record<string, unknown> = await import(`../../protocol/${name}/index.ts`);
    for (const v of [mod.decoder, mod.default, ...Object.values(mod)]) {
      if (isDecoder(v)) return v;
      if (typeof v === 'function' && /^create.*Decoder$/.test(v.name)) {
        const d = (v as () => unknown)();
        if (isDecoder(d)) return d;
      }
    }
    log.warn({ protocol: name }, 'módulo do protocolo não exporta um Decoder');
  } catch (err) {
    log.warn({ protocol: name, err: (err as Error).message }, 'decodificador indisponível');
  }
  return null;
}

/** Decoders by protocol name: queclink, legacy (when present) and osmand (always). */
export async function loadDecoders(): Promise<Record<string, Decoder>> {
  const out: Record<string, Decoder> = { osmand: osmandDecoder };
  for (const name of ['queclink', 'legacy']) {
    const d = await loadOne(name);
    if (d) out[name] = d;
  }
  return out;
}

let shared: Promise<Record<string, Decoder>> | null = null;
/** The decoders loaded once per process (for the back-office: configuration templates of a protocol). */
export function decoders(): Promise<Record<string, Decoder>> {
  return (shared ??= loadDecoders());
}
