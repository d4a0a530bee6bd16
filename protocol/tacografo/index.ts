// Tachograph transfer frames of the video/telemetry family (vdo_telemetria): the on-board unit reads the VDR
// (tachograph) over USB or RS232 ("download") and sends the file to the server in blocks ("upload"); the server
// asks for either, or interrupts. Pure codec: no I/O. The byte layout is Rastro's own (README.md of
// modules/tacografo says why: no public layout of this family exists); names and values follow catalogues.md 3.7.
//
// Frame (all integers big-endian):
//   0  2  sync 'VT' (56 54)
//   2  1  control        0 single_frame, 1 first_frame, 2 middle_frame, 3 last_frame
//   3  1  service        1 upload, 2 download, 3 interrupt
//   4  1  subCommand     0 request, 1 data, 2 response, 3 cancel USB, 4 cancel RS232
//   5  4  transferId     chosen by the unit for a file (device + transferId name one transfer)
//   9  2  blockSequence  0 for the first/single frame, +1 per frame
//  11  1  responseType   0 none, 1 ack, 2 nack
//  12  1  fileType       1 24h, 2 7 days, 3 90 days with suppression, 4 24h current day
//  13  1  reasonCode     0..5 (REASONS)
//  14  2  referenceDate  days since 1970-01-01 (UTC)
//  16  2  dataLength     n (≤ MAX_DATA)
//  18  n  data
//  18+n 2 CRC-16/CCITT-FALSE of bytes 0 .. 17+n

import { crc16 } from '../crc16.ts';

export const SYNC = 0x5654;
export const HEADER = 18;
export const MAX_DATA = 4096;

export const CONTROLS = ['single_frame', 'first_frame', 'middle_frame', 'last_frame'] as const;
export type Control = (typeof CONTROLS)[number];
export const SERVICES = { 1: 'upload', 2: 'download', 3: 'interrupt' } as const;
export type Service = (typeof SERVICES)[keyof typeof SERVICES];
export const SUB_COMMANDS = { 0: 'request', 1: 'data', 2: 'response', 3: 'cancelUsb', 4: 'cancelRs232' } as const;
export type SubCommand = (typeof SUB_COMMANDS)[keyof typeof SUB_COMMANDS];
export const RESPONSE_TYPES = { 0: 'none', 1: 'ack', 2: 'nack' } as const;
export type ResponseType = (typeof RESPONSE_TYPES)[keyof typeof RESPONSE_TYPES];

/** File types (catalogues 3.7) with their pt-BR labels. */
export const FILE_TYPES = {
  1: { key: '24h', label: '24 horas' },
  2: { key: '7d', label: '7 dias' },
  3: { key: '90d_supressao', label: '90 dias com supressão' },
  4: { key: '24h_dia_atual', label: '24 horas (dia atual)' },
} as const;
export type FileType = (typeof FILE_TYPES)[keyof typeof FILE_TYPES]['key'];

/** Reason codes (catalogues 3.7) with their pt-BR labels. */
export const REASONS = {
  0: { key: 'no_error', label: 'Sem erro' },
  1: { key: 'operation_aborted', label: 'Operação abortada' },
  2: { key: 'vdr_interrupted', label: 'VDR interrompido' },
  3: { key: 'usb_restarted', label: 'USB reiniciado' },
  4: { key: 'usb_aborted', label: 'USB abortado' },
  5: { key: 'usb_bvdr_busy', label: 'USB: BVDR ocupado' },
} as const;
export type ReasonCode = keyof typeof REASONS;

export const CANCEL_TYPES = { usb: 'cancelUsb', rs232: 'cancelRs232' } as const;
export type CancelType = keyof typeof CANCEL_TYPES;

export interface Frame {
  control: Control;
  service: Service;
  subCommand: SubCommand;
  transferId: number;
  blockSequence: number;
  responseType: ResponseType;
  fileType: FileType;
  reasonCode: ReasonCode;
  /** Days since 1970-01-01. */
  referenceDate: number;
  data: Buffer;
}

export class FrameError extends Error {
  constructor(public code: 'SHORT' | 'SYNC' | 'LENGTH' | 'CRC' | 'VALUE', message: string) { super(message); }
}

const codeOf = <T extends Record<number, unknown>>(table: T, value: unknown, what: string): number => {
  for (const [k, v] of Object.entries(table)) {
    if (v === value || (typeof v === 'object' && v && (v as { key: unknown }).key === value)) return Number(k);
  }
  throw new FrameError('VALUE', `${what} inválido: ${String(value)}`);
};
const valueOf = <T extends Record<number, unknown>>(table: T, code: number, what: string): T[keyof T] => {
  const v = table[code as keyof T];
  if (v === undefined) throw new FrameError('VALUE', `${what} desconhecido: ${code}`);
  return v;
};

// the frames' checksum (tests and encoders of the frames use it from here)
export { crc16 };

export function encodeFrame(f: Frame): Buffer {
  if (f.data.length > MAX_DATA) throw new FrameError('LENGTH', `bloco maior que ${MAX_DATA} bytes`);
  const out = Buffer.alloc(HEADER + f.data.length + 2);
  out.writeUInt16BE(SYNC, 0);
  out[2] = CONTROLS.indexOf(f.control);
  if (out[2] === 255) throw new FrameError('VALUE', `control inválido: ${f.control}`);
  out[3] = codeOf(SERVICES, f.service, 'service');
  out[4] = codeOf(SUB_COMMANDS, f.subCommand, 'subCommand');
  out.writeUInt32BE(f.transferId >>> 0, 5);
  out.writeUInt16BE(f.blockSequence, 9);
  out[11] = codeOf(RESPONSE_TYPES, f.responseType, 'responseType');
  out[12] = codeOf(FILE_TYPES, f.fileType, 'fileType');
  out[13] = f.reasonCode;
  valueOf(REASONS, f.reasonCode, 'reasonCode');
  out.writeUInt16BE(f.referenceDate, 14);
  out.writeUInt16BE(f.data.length, 16);
  f.data.copy(out, HEADER);
  out.writeUInt16BE(crc16(out, 0, HEADER + f.data.length), HEADER + f.data.length);
  return out;
}

/** One frame from the start of `buf`; its length is HEADER + data + 2 (bytes after it are left to the caller). */
export function decodeFrame(buf: Buffer): { frame: Frame; length: number } {
  if (buf.length < HEADER + 2) throw new FrameError('SHORT', `quadro curto: ${buf.length} bytes`);
  if (buf.readUInt16BE(0) !== SYNC) throw new FrameError('SYNC', 'quadro sem o início VT');
  const n = buf.readUInt16BE(16);
  if (n > MAX_DATA) throw new FrameError('LENGTH', `bloco maior que ${MAX_DATA} bytes`);
  if (buf.length < HEADER + n + 2) throw new FrameError('SHORT', `quadro incompleto: ${buf.length} de ${HEADER + n + 2} bytes`);
  const crc = buf.readUInt16BE(HEADER + n);
  if (crc !== crc16(buf, 0, HEADER + n)) throw new FrameError('CRC', 'CRC do quadro não confere');
  const control = CONTROLS[buf[2]];
  if (!control) throw new FrameError('VALUE', `control desconhecido: ${buf[2]}`);
  valueOf(REASONS, buf[13], 'reasonCode');
  return {
    length: HEADER + n + 2,
    frame: {
      control,
      service: valueOf(SERVICES, buf[3], 'service'),
      subCommand: valueOf(SUB_COMMANDS, buf[4], 'subCommand'),
      transferId: buf.readUInt32BE(5),
      blockSequence: buf.readUInt16BE(9),
      responseType: valueOf(RESPONSE_TYPES, buf[11], 'responseType'),
      fileType: valueOf(FILE_TYPES, buf[12], 'fileType').key,
      reasonCode: buf[13] as ReasonCode,
      referenceDate: buf.readUInt16BE(14),
      data: Buffer.from(buf.subarray(HEADER, HEADER + n)),
    },
  };
}

/** Every frame of a byte stream (frames back to back); throws on the first bad one. */
export function decodeFrames(buf: Buffer): Frame[] {
  const out: Frame[] = [];
  let at = 0;
  while (at < buf.length) {
    const { frame, length } = decodeFrame(buf.subarray(at));
    out.push(frame);
    at += length;
  }
  return out;
}

const DAY = 86_400_000;
/** Days since 1970-01-01 of an ISO date (YYYY-MM-DD) or Date (its UTC day). */
export function daysFromEpoch(d: string | Date): number {
  const t = typeof d === 'string' ? Date.parse(`${d.slice(0, 10)}T00:00:00Z`) : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (!Number.isFinite(t)) throw new FrameError('VALUE', `data inválida: ${String(d)}`);
  return Math.floor(t / DAY);
}
/** The ISO date (YYYY-MM-DD) of a day count since 1970-01-01. */
export const dateFromDays = (days: number): string => new Date(days * DAY).toISOString().slice(0, 10);

export const fileTypeLabel = (key: FileType): string => Object.values(FILE_TYPES).find((t) => t.key === key)!.label;
export const reasonLabel = (code: number): string => REASONS[code as ReasonCode]?.label ?? `Motivo desconhecido (${code})`;

/** The frames of a whole file: single_frame when it fits one block, else first, middles, last. */
export function splitFile(file: Buffer, o: { transferId: number; fileType: FileType; referenceDate: number; blockSize?: number }): Buffer[] {
  const size = Math.min(o.blockSize ?? MAX_DATA, MAX_DATA);
  const blocks: Buffer[] = [];
  for (let at = 0; at < file.length || blocks.length === 0; at += size) blocks.push(file.subarray(at, at + size));
  return blocks.map((data, i) => encodeFrame({
    control: blocks.length === 1 ? 'single_frame' : i === 0 ? 'first_frame' : i === blocks.length - 1 ? 'last_frame' : 'middle_frame',
    service: 'upload', subCommand: 'data', transferId: o.transferId, blockSequence: i, responseType: 'none',
    fileType: o.fileType, reasonCode: 0, referenceDate: o.referenceDate, data,
  }));
}

export type Command = 'upload' | 'download' | 'interrupt';

/** The request frame the server sends for a command (single_frame, no data). */
export function commandFrame(o: { command: Command; fileType: FileType; referenceDate: number; transferId?: number; cancel?: CancelType; reason?: ReasonCode }): Buffer {
  if (o.command === 'interrupt' && !o.cancel) throw new FrameError('VALUE', 'interrupção sem o tipo de cancelamento (USB ou RS232)');
  if (o.reason !== undefined && !(o.reason in REASONS)) throw new FrameError('VALUE', `motivo desconhecido: ${o.reason}`);
  return encodeFrame({
    control: 'single_frame', service: o.command,
    subCommand: o.command === 'interrupt' ? CANCEL_TYPES[o.cancel!] : 'request',
    transferId: o.transferId ?? 0, blockSequence: 0, responseType: 'none', fileType: o.fileType,
    reasonCode: o.command === 'interrupt' ? (o.reason ?? 1) : 0, referenceDate: o.referenceDate, data: Buffer.alloc(0),
  });
}

// ---- Reassembly (pure): the blocks of one transfer, out of order and repeated, into one file -----------------

export interface TransferState {
  fileType: FileType;
  referenceDate: number;
  /** blockSequence → data (hex). */
  blocks: Record<string, string>;
  /** blockSequence of the last_frame (or 0 for a single_frame) once seen. */
  last: number | null;
  /** Reason of a failure the device reported (interrupt, nack, last frame with a reason). */
  reason: ReasonCode | null;
  duplicates: number;
}

export const emptyTransfer = (f: Frame): TransferState =>
  ({ fileType: f.fileType, referenceDate: f.referenceDate, blocks: {}, last: null, reason: null, duplicates: 0 });

/** Adds a frame of the transfer (same device + transferId) to `s` (changed in place and answered). A repeated block
 *  is counted and ignored; a frame reporting a failure (interrupt, nack, a reason code) marks the transfer failed. */
export function addFrame(s: TransferState, f: Frame): TransferState {
  if (f.service === 'interrupt' || f.responseType === 'nack' || f.reasonCode !== 0) {
    s.reason = (f.reasonCode || 1) as ReasonCode;
    return s;
  }
  const key = String(f.blockSequence);
  if (key in s.blocks) { s.duplicates++; return s; }
  if ((f.control === 'first_frame' || f.control === 'single_frame') && f.blockSequence !== 0) {
    throw new FrameError('VALUE', `primeiro bloco com sequência ${f.blockSequence}`);
  }
  s.blocks[key] = f.data.toString('hex');
  if (f.control === 'single_frame') s.last = 0;
  else if (f.control === 'last_frame') s.last = f.blockSequence;
  return s;
}

/** The blocks still missing of a transfer whose last frame arrived (empty: complete); null before the last frame. */
export function missingBlocks(s: TransferState): number[] | null {
  if (s.last === null) return null;
  const out: number[] = [];
  for (let i = 0; i <= s.last; i++) if (!(String(i) in s.blocks)) out.push(i);
  return out;
}

/** The file of a complete transfer. */
export function assemble(s: TransferState): Buffer {
  const missing = missingBlocks(s);
  if (missing === null || missing.length) throw new FrameError('VALUE', 'transferência incompleta');
  const parts: Buffer[] = [];
  for (let i = 0; i <= s.last!; i++) parts.push(Buffer.from(s.blocks[String(i)], 'hex'));
  return Buffer.concat(parts);
}
