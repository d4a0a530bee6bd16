// Internal types of the ingest gateway.
import type { DecodeResult, Reply } from '../../protocol/types.ts';

/** Where a device's replies go: a TCP socket, a UDP peer or an HTTP request. */
export interface Link {
  id: string;
  protocol: string;
  send(data: Reply): boolean;
  readonly alive: boolean;
  /** Byte stream (TCP): replies of one batch may be joined into one write. */
  stream?: boolean;
  /** The peer's IP address (TCP/UDP/HTTP), checked against the company's allowed networks. */
  address?: string;
  /** Serial seen on this link (set by the first decoded frame). */
  serial?: string;
  model?: string;
  /** Frames of this link that did not decode (only the first few are logged). */
  badFrames?: number;
  pause?(): void;
  resume?(): void;
}

/** One decoded message waiting to be committed. */
export interface IngestMessage {
  link: Link;
  result: DecodeResult;
  /** The frame as received (Buffer) or its text; see rawOf(). */
  raw: string | Buffer;
  receivedAt: Date;
  /** Called after commit (true) or when the message is rejected for good (false). */
  done?: (ok: boolean) => void;
}

/** Text of a message's frame (ASCII as is, binary as hex), computed only when needed. */
export function rawOf(m: IngestMessage): string {
  if (typeof m.raw === 'string') return m.raw;
  const f = m.raw;
  for (let i = 0; i < f.length; i++) {
    const c = f[i]!;
    if ((c < 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) || c > 0x7e) return (m.raw = f.toString('hex'));
  }
  return (m.raw = f.toString('latin1'));
}

/** What the gateway knows of a registered device. */
export interface DeviceInfo {
  equipamentoId: number;
  serial: string;
  empresaId: number;
  ativoId: number | null;
  motoristaId: number | null;
  modelo: string | null;
  tecnologia: string | null;
  /** The company's allowed source networks (empresa.redes_permitidas); null: any. */
  redes?: import('./networks.ts').Redes | null;
}
