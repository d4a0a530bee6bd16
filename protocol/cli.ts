// npm run decode -- --protocol queclink|legacy [file]
// npm run decode -- '<frame>' ...   (frames given as arguments: an @Track text frame "+RESP:...$", or hex for
//                                    binary frames; "+..." and "2b..." lines default to --protocol queclink)
// Reads one message per line (hex for binary protocols) from the file or stdin and prints one JSON
// object per line in the normalized shape; undecodable lines print an object with an `error` field.
import { createReadStream, existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { isDecodeError, toJson, type DecodeError, type DecodeResult, type Decoder } from './types.ts';

interface CliProtocol {
  /** Turn one input line into a frame; a string result is an error message. */
  toFrame(line: string): Buffer | string;
  decoder: Decoder;
}

function isDecoder(x: unknown): x is Decoder {
  const d = x as Decoder;
  return !!d && typeof d === 'object' && typeof d.decode === 'function' && typeof d.protocol === 'string';
}

function hexFrame(line: string): Buffer | string {
  const clean = line.replace(/\s+/g, '');
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(clean)) return 'hexadecimal inválido';
  return Buffer.from(clean, 'hex');
}

/** Protocols known to the CLI; the queclink decoder is loaded from protocol/queclink/ when present. */
export async function loadProtocol(name: string): Promise<CliProtocol | undefined> {
  if (name === 'legacy') {
    const { legacyDecoder } = await import('./legacy/index.ts');
    return { decoder: legacyDecoder, toFrame: hexFrame };
  }
  if (name === 'queclink') {
    let mod: Record<string, unknown>;
    try {
      mod = await import('./queclink/index.ts');
    } catch {
      return undefined;
    }
    const decoder = [mod.default, mod.queclinkDecoder, mod.decoder, ...Object.values(mod)].find(isDecoder);
    if (!decoder) return undefined;
    // ASCII protocol: the line is the frame; a hex line (binary capture) is accepted too
    return { decoder, toFrame: (line) => (/^(?:[0-9a-fA-F]{2})+$/.test(line) && !line.startsWith('+') ? Buffer.from(line, 'hex') : Buffer.from(line, 'latin1')) };
  }
  return undefined;
}

export function decodeLine(p: CliProtocol, line: string, lineNo: number): Record<string, unknown> {
  const frame = p.toFrame(line);
  let r: DecodeResult | DecodeError;
  if (typeof frame === 'string') {
    r = { protocol: p.decoder.protocol, error: frame, errorCode: 'MALFORMED' };
  } else {
    try {
      r = p.decoder.decode(frame);
    } catch (err) {
      r = { protocol: p.decoder.protocol, error: `erro interno: ${(err as Error)?.message ?? String(err)}`, errorCode: 'INTERNAL' };
    }
  }
  return isDecodeError(r) ? { ...toJson(r), line: lineNo } : toJson(r);
}

function usage(msg?: string): never {
  if (msg) process.stderr.write(`${msg}\n`);
  process.stderr.write("uso: npm run decode -- --protocol queclink|legacy [arquivo]\n     npm run decode -- [--protocol queclink|legacy] '<quadro>' ...\n");
  process.exit(2);
}

export async function main(argv: string[]): Promise<void> {
  let protocol: string | undefined;
  let file: string | undefined;
  const frames: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--protocol' || a === '-p') protocol = argv[++i];
    else if (a.startsWith('--protocol=')) protocol = a.slice('--protocol='.length);
    else if (a === '--help' || a === '-h') usage();
    else if (a.startsWith('+') || (!existsSync(a) && /^[0-9a-fA-F\s]+$/.test(a) && a.length > 8)) frames.push(a); // a frame, not a file
    else if (a.startsWith('-') && a !== '-') usage(`opção desconhecida: ${a}`);
    else file = a;
  }
  if (!protocol && frames.length && frames.every((f) => f.startsWith('+') || /^2b/i.test(f))) protocol = 'queclink';
  if (!protocol) usage('informe --protocol');
  const p = await loadProtocol(protocol);
  if (!p) usage(`protocolo indisponível: ${protocol}`);

  const input = frames.length ? Readable.from([frames.join('\n')]) : file && file !== '-' ? createReadStream(file) : process.stdin;
  input.on('error', (err) => { process.stderr.write(`${err.message}\n`); process.exit(1); });
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const raw of rl) {
    n++;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    process.stdout.write(`${JSON.stringify(decodeLine(p, line, n))}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((err) => { process.stderr.write(`${err?.stack ?? err}\n`); process.exit(1); });
}
