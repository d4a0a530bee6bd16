// Normalized shape shared by every protocol decoder (protocol/<name>/).
// Pure data: no database, no I/O. JSON Schema twin: protocol/normalized.schema.json.

/** One GNSS fix. */
export interface NormalizedPosition {
  /** ISO-8601 UTC, e.g. 2024-05-01T12:34:56.000Z */
  fixTime: string;
  latitude: number;
  longitude: number;
  speedKmh: number;
  /** Degrees 0..359 (azimuth). */
  course: number;
  /** Metres above sea level. */
  altitude?: number;
  /** false when the device had no current fix (e.g. Queclink GNSS accuracy 0). */
  valid: boolean;
  hdop?: number;
  satellites?: number;
}

/** A primary event; key is the catalogue key (catalogues.md 3.2/3.3), description pt-BR. */
export interface NormalizedEvent {
  /** Protocol code as sent (e.g. "GTIGN", "12"). */
  code: string;
  /** Catalogue key (e.g. "ignitionOn"). */
  key: string;
  /** pt-BR description; "" when the meaning is not sourced. */
  description: string;
}

export type AttributeValue =
  | string
  | number
  | boolean
  | null
  | AttributeValue[]
  | { [key: string]: AttributeValue };

/** Acknowledgement of a command sent to the device (marks the processing-queue entry done). */
export interface CommandAck {
  /** Command name as the device echoes it (e.g. "GTRTO"). */
  command: string;
  /** Serial number the command was sent with (hex string as sent, e.g. "0A1F"). */
  serial: string;
  /** false when the device reported a failure. */
  success: boolean;
}

/** Bytes to send back to the device. ASCII protocols use a string; binary ones a Buffer. */
export type Reply = string | Buffer;

/** Successful decode of one frame. */
export interface DecodeResult {
  protocol: string;
  /** IMEI / serial as the device reports it. */
  deviceId: string;
  /**
   * Model key (e.g. "gv58cg") when the frame tells it; a device type the decoder does not know is reported as
   * such (Queclink: "desconhecido (4B)") while the message still decodes.
   */
  model?: string;
  /** Message type (e.g. "GTFRI", "GTHBD", "ack"). */
  type: string;
  /** true for messages replayed from the device's buffer (sent late). */
  buffered?: boolean;
  /** Device send time (ISO-8601 UTC), when the frame carries it. */
  sentTime?: string;
  positions: NormalizedPosition[];
  events: NormalizedEvent[];
  /** Secondary parameters keyed by catalogue key (catalogues.md 3.4). */
  attributes: Record<string, AttributeValue>;
  /** Present when the frame acknowledges a command. */
  ack?: CommandAck;
  /** The device's configuration as it reported it, answering a read (readConfig); protocol text, as is. */
  configuration?: string;
  /** What the gateway must send back (only after the data is committed). */
  reply?: Reply;
}

export type DecodeErrorCode =
  | 'EMPTY'
  | 'TRUNCATED'
  | 'OVERSIZE'
  | 'MALFORMED'
  | 'UNSUPPORTED'
  | 'INTERNAL';

/** Decoding failed; decoders return this instead of throwing. */
export interface DecodeError {
  protocol: string;
  error: string;
  errorCode: DecodeErrorCode;
  /** Device id if it could be read before failing. */
  deviceId?: string;
  /** Message type if it could be read before failing. */
  type?: string;
}

export function isDecodeError(r: DecodeResult | DecodeError): r is DecodeError {
  return typeof (r as DecodeError).error === 'string';
}

export interface FrameResult {
  /** Complete frames, in order. */
  frames: Buffer[];
  /** Unconsumed bytes (start of an incomplete frame); feed again with the next chunk prepended. */
  rest: Buffer;
  /** Number of bytes skipped as garbage or oversize. */
  garbage?: number;
}

/** Command kinds the back-office queues (spec: Reiniciar/Reset, Sincronizar, Ler/Gravar no equipamento, bloqueio). */
export type CommandType =
  | 'reboot'
  | 'sync'
  | 'readConfig'
  | 'writeConfig'
  | 'engineBlock'
  | 'engineUnblock'
  | 'output';

export type CommandParamValue = string | number | boolean;

export interface DeviceCommand {
  type: CommandType;
  /** Serial number the ack will echo; protocol-specific range (Queclink: 0..0xFFFF). */
  serial?: number;
  /** Device password (Queclink default per model). */
  password?: string;
  /** Model key, when the frame layout depends on it. */
  model?: string;
  /** Command-specific parameters (e.g. { group: 'GTFRI', ... }, { output: 1, active: true }). */
  params?: Record<string, CommandParamValue | CommandParamValue[]>;
}

/** Thrown by encode() when a command or parameter is invalid (e.g. carries a protocol delimiter). */
export class CommandValidationError extends Error {
  readonly field: string;
  readonly code: 'REQUIRED' | 'INVALID' | 'DELIMITER' | 'RANGE' | 'UNSUPPORTED';
  constructor(code: CommandValidationError['code'], field: string, message: string) {
    super(message);
    this.name = 'CommandValidationError';
    this.code = code;
    this.field = field;
  }
}

export interface Decoder<C extends DeviceCommand = DeviceCommand> {
  protocol: string;
  /** Split a TCP byte stream into frames; tolerant of many frames per chunk, split frames, garbage, oversize. */
  frame(buffer: Buffer): FrameResult;
  /** Decode one frame; never throws. `now` helps protocols whose frames lack a full date. */
  decode(frame: Buffer, now?: Date): DecodeResult | DecodeError;
  /** Build the bytes of a command; throws CommandValidationError on invalid input. */
  encode(command: C): Buffer;
  /** Compiles a device model's configuration command templates (text protocols); throws CommandValidationError.
   *  Absent: the protocol takes no configuration from templates. */
  configTemplate?(text: string): ConfigTemplate;
}

/** A writeConfig command: params.group and params.values of DeviceCommand. */
export interface ConfigCommand { group: string; values: CommandParamValue[] }

/** A device model's configuration commands, compiled (see protocol/queclink/config.ts). */
export interface ConfigTemplate {
  /** Parameters the template reads, in order of first use. */
  fields: string[];
  /** The commands for one configuration (labels name the parameters in errors); throws CommandValidationError. */
  render(values: Record<string, unknown>, labels?: Record<string, string>): ConfigCommand[];
}

/** JSON form of a result (Buffer replies become replyHex), as printed by the CLI. */
export function toJson(r: DecodeResult | DecodeError): Record<string, unknown> {
  if (isDecodeError(r) || r.reply === undefined || typeof r.reply === 'string') return { ...r };
  const { reply, ...rest } = r;
  return { ...rest, replyHex: reply.toString('hex') };
}
