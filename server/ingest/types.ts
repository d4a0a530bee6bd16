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
  /** Serial seen on this link (set by the first decoded frame). */
  serial?: string;
  model?: string;
  pause?(): void;
  resume?(): void;
}

/** One decoded message waiting to be committed. */
export interface IngestMessage {
  link: Link;
  result: DecodeResult;
  raw: string;
  receivedAt: Date;
  /** Called after commit (true) or when the message is rejected for good (false). */
  done?: (ok: boolean) => void;
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
}
