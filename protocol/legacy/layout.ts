// Byte layout of Continental VDO "Rastrear" frames (`SV` protocol) as DATA; README.md documents every table.
// Multi-byte integers are big-endian. A field capture that shows more should change these tables, not the code.

export type FieldKind =
  | 'u8' | 'u16' | 'u32'
  | 'i8'              // signed byte (two's complement)
  | 'volt2'           // 2 bytes: integer volts, then tenths 0..9 (0C 06 = 12.6)
  | 'tenths'          // 1 byte 0..9 added as tenths to the attribute `name` read before (integer + tenths)
  | 'hex';            // raw bytes, lower-case hex string

export interface FieldDef {
  /** Attribute key (catalogue key of legacy-parametros.yaml) or, with `internal`, a name the decoder uses. */
  name: string;
  kind: FieldKind;
  /** Byte size of a 'hex' field (derived for the others). */
  size?: number;
  /** Attribute = raw × scale (e.g. metres → km = 0.001). */
  scale?: number;
  /** All bits set means 0 (catalogues 9). */
  allOnesZero?: boolean;
  /** All bytes zero: the attribute is left out. */
  zeroAbsent?: boolean;
  /** One boolean attribute `${prefix}${bit name}` per named bit (bit 0 = least significant). */
  bits?: readonly (string | null)[];
  prefix?: string;
  /** With `bits`: the raw word is kept too, under `name`. */
  keepRaw?: boolean;
  /** Read by the decoder itself (times, coordinates, event), not an attribute. */
  internal?: boolean;
  /** Inclusive upper bound; a larger value makes the frame MALFORMED. */
  max?: number;
}

const KIND_SIZE: Record<Exclude<FieldKind, 'hex'>, number> = { u8: 1, u16: 2, u32: 4, i8: 1, volt2: 2, tenths: 1 };

export function fieldSize(f: FieldDef): number {
  return f.kind === 'hex' ? (f.size ?? 0) : KIND_SIZE[f.kind];
}

// ---- Envelope (seen in public captures) --------------------------------------------------------
/** ASCII `SV`. */
export const HEADER = [0x53, 0x56] as const;
/** Offsets inside a frame: length counts the WHOLE frame (header and length included). */
export const OFFSET = { length: 2, version: 4, serial: 5, product: 9, type: 10, body: 11 } as const;
/** Smallest frame: header, length, version, serial, product, type (a keep-alive or an ACK). */
export const MIN_FRAME = 11;
/** Largest accepted frame (longer: OVERSIZE; the status frames seen are 42 and 50 bytes). */
export const MAX_FRAME = 1024;

// ---- Status (type 0x02), body from offset 11 -----------------------------------------------------
/** Main input word bits. Bit 0 = ignition (public decoders); the other names are the spec's, not yet confirmed. */
export const MAIN_INPUT_BITS = [
  'ignition', 'panic_button', 'aux_input_1', 'aux_input_2', 'aux_input_3', 'aux_input_4',
  'anti_theft', 'gps_antenna_cut', 'battery_voltage', 'temperature', 'weak_gsm',
  'backup_battery_low', 'backup_battery_faulty', null, null, null,
] as const;
/** Output word bits (spec names, not yet confirmed). */
export const OUTPUT_BITS = ['blocking', 'siren', 'aux_output_1', null, null, null, null, null, null, null, null, null, null, null, null, null] as const;
export const EXTENDED_1_BITS = ['jamming', 'over_speed', 'free_wheel', 'satellites_zero', null, null, null, null] as const;
export const EXTENDED_2_BITS = [
  'position_violation', 'tilt', 'idle_engine', 'alternator_failure', 'rain',
  'harsh_acceleration', 'harsh_braking', 'driver_identification',
] as const;

/** The 31 bytes every status frame carries (offsets 11..41). */
export const STATUS: FieldDef[] = [
  { name: 'fixTime', kind: 'u32', internal: true },          // last GNSS fix, Unix seconds
  { name: 'latitude', kind: 'u32', internal: true },         // see COORDINATES
  { name: 'longitude', kind: 'u32', internal: true },
  { name: 'gps_course', kind: 'u16', max: 360 },
  { name: 'gps_instant_speed', kind: 'u16' },                // km/h
  { name: 'gps_quality', kind: 'u8' },                       // 0 = no fix -> valid: false
  { name: 'deviceTime', kind: 'u32', internal: true },       // time the device built the message -> sentTime
  { name: 'event', kind: 'u16', internal: true },
  { name: 'status_inputs', kind: 'u16', bits: MAIN_INPUT_BITS, prefix: 'main_input-', keepRaw: true },
  { name: 'status_outputs', kind: 'u16', bits: OUTPUT_BITS, prefix: 'output_status-', keepRaw: true },
  { name: 'main_battery', kind: 'u8' },                      // volts (integer)
  { name: 'temperature', kind: 'i8' },                       // °C
  { name: 'reserved', kind: 'u16' },                         // meaning not published; kept raw
];

/** Counters after the status: present when the frame is long enough (42 bytes: none, 46: odometer, 50: both). */
export const COUNTERS: FieldDef[] = [
  { name: 'odo_gps', kind: 'u32', scale: 0.001 },            // metres -> km
  { name: 'hour_meter', kind: 'u32' },                       // unit not published; kept raw (see README)
];

/** Coordinates: 1/3600° in 24 bits or, extended, 1/360000° in 28 bits; two's complement (sign bit 23 or 27). */
export const COORDINATES = {
  standard: { bits: 24, divisor: 3600 },
  extended: { bits: 28, divisor: 360000 },
} as const;

// ---- Extension: spec blocks not yet seen in a public capture ------------------------------------
/** Extended status (3 bytes): extended_1 and extended_2 bit bytes, tenths of the main battery. */
export const STATUS_EXT: FieldDef[] = [
  { name: 'extended_1', kind: 'u8', bits: EXTENDED_1_BITS, prefix: 'extended_1-' },
  { name: 'extended_2', kind: 'u8', bits: EXTENDED_2_BITS, prefix: 'extended_2-' },
  { name: 'main_battery', kind: 'tenths' },
];

/** Optional-field message: a flag byte read in REVERSE bit order (bit 7 announces OPTIONAL_FIELDS[0]). */
export const OPTIONAL_FIELDS: FieldDef[] = [
  { name: 'transmission_gear', kind: 'u8' },                                        // bit 7
  { name: 'gps_average_speed', kind: 'u16' },                                       // bit 6
  { name: 'engine_running_time_meter', kind: 'u32', allOnesZero: true },            // bit 5
  { name: 'fence_group_a_id', kind: 'u16' },                                        // bit 4
  { name: 'fence_group_b_id', kind: 'u16' },                                        // bit 3
  { name: 'fence_route_id', kind: 'u16' },                                          // bit 2
  { name: 'odo_sensor', kind: 'u32', scale: 0.001, allOnesZero: true },             // bit 1
  // bit 0: reserved, must be 0
];

export const MODEM: FieldDef[] = [
  { name: 'battery_backup_voltage', kind: 'volt2' },
  { name: 'server_status', kind: 'u8' },
  { name: 'software_additional_info', kind: 'u16' },
  { name: 'accelerometer_data_x', kind: 'i8' },
  { name: 'accelerometer_data_y', kind: 'i8' },
  { name: 'accelerometer_data_z', kind: 'i8' },
  { name: 'accelerometer_data_r', kind: 'u8' },
  { name: 'vehicle_speed_sensor', kind: 'u8' },
];

export const CAN: FieldDef[] = [
  { name: 'engine_speed_sensor', kind: 'u16' },
  { name: 'can_status', kind: 'u8' },
  { name: 'vehicle_speed_can', kind: 'u8' },
  { name: 'odo_can', kind: 'u32', scale: 0.001 },
  { name: 'engine_speed_can', kind: 'u16' },
  { name: 'temperature_can', kind: 'i8' },
  { name: 'fuel_consumption_can', kind: 'u32', scale: 0.1 },
  { name: 'driver_identification', kind: 'hex', size: 8, zeroAbsent: true },
];

/** Body of a device ACK/NACK when it names the command (extension; a bare ACK has no body). */
export const COMMAND_ACK: FieldDef[] = [
  { name: 'command', kind: 'u8', internal: true },
  { name: 'commandSequence', kind: 'u16', internal: true },
];

// ---- Message types --------------------------------------------------------------------------------
/**
 * A block name; `?` = each field only when the bytes are there (no error when the frame ends first).
 * 'optional' is the flag-byte message.
 */
export type BlockRef = 'status' | 'counters' | 'counters?' | 'statusExt' | 'optional' | 'modem' | 'can' | 'commandAck?';

export interface MessageType {
  /** `type` of the normalized result. */
  name: string;
  blocks: BlockRef[];
  /** Frames shorter than this are TRUNCATED (the framer also rejects them). */
  minLength: number;
  /** The server answers with the ACK frame (REPLY). */
  reply: boolean;
  /** Device answer to a command: true = ACK, false = NACK. */
  ack?: boolean;
  /** From the spec, not yet seen in a public capture (the code is provisional). */
  extension?: boolean;
}

const STATUS_LEN = MIN_FRAME + 31;
const EXT_BASE = STATUS_LEN + 8 + 3; // status, both counters, extended status

export const MESSAGE_TYPES: Record<number, MessageType> = {
  0x00: { name: 'keepAlive', blocks: [], minLength: MIN_FRAME, reply: true },
  0x02: { name: 'status', blocks: ['status', 'counters?'], minLength: STATUS_LEN, reply: true },
  0x06: { name: 'ack', blocks: ['commandAck?'], minLength: MIN_FRAME, reply: false, ack: true },
  0x15: { name: 'nack', blocks: ['commandAck?'], minLength: MIN_FRAME, reply: false, ack: false },
  // extension (spec): status + counters + extended status + one block; type codes provisional
  0x82: { name: 'optional', blocks: ['status', 'counters', 'statusExt', 'optional'], minLength: EXT_BASE + 1, reply: true, extension: true },
  0x83: { name: 'modem', blocks: ['status', 'counters', 'statusExt', 'modem'], minLength: EXT_BASE + 10, reply: true, extension: true },
  0x84: { name: 'can', blocks: ['status', 'counters', 'statusExt', 'can'], minLength: EXT_BASE + 23, reply: true, extension: true },
};

/**
 * Server ACK: `SV`, length 11, version, serial (echoed), product, type 0x06 — the answer Traccar sent to
 * these devices (traccar commit 96f2d63, 2018); no public capture shows a device requiring more.
 */
export const REPLY = { version: 0x01, product: 0x00, type: 0x06 } as const;

// ---- Commands (server -> device): provisional, no public capture --------------------------------------
export const COMMAND_TYPE = 0x90;
/** Command codes, echoed in the device's ACK/NACK body (extension). */
export const COMMAND_CODES: Record<string, number> = { reboot: 0x01, output: 0x02, engineBlock: 0x03, engineUnblock: 0x04 };
/** Output index for the 'output' command (bit of the output word). */
export const OUTPUT_INDEX: Record<string, number> = { blocking: 0, siren: 1, aux_output_1: 2 };
