// Byte layout of the older binary tracker family, as DATA (see README.md for the table).
// All multi-byte integers are big-endian. Offsets are relative to the start of each block.

/** Field kinds the table-driven reader understands. */
export type FieldKind =
  | 'u8' | 'u16' | 'u32'
  | 'i8'              // signed byte (two's complement)
  | 'sm32'            // 32-bit sign-magnitude: bit 31 = sign (1 = negative), bits 0..30 = magnitude
  | 'volt2'           // 2 bytes: integer part, then tenths (0..9) -> e.g. 0C 06 = 12.6
  | 'hex';            // raw bytes, as lower-case hex string

export interface FieldDef {
  /** Name in the decoded record (catalogue key when it becomes an attribute). */
  name: string;
  kind: FieldKind;
  /** Byte size (only needed for 'hex'; derived for the others). */
  size?: number;
  /** Decoded value = raw * scale (e.g. metres -> km = 0.001). */
  scale?: number;
  /** All bits set means "no value" -> 0 (catalogues 9). */
  allOnesZero?: boolean;
  /** All bytes zero means "absent" (field omitted). */
  zeroAbsent?: boolean;
  /** Bit flags: each listed name (bit 0 = least significant) becomes a boolean attribute `${prefix}${name}`. */
  bits?: (string | null)[];
  prefix?: string;
  /** Not an attribute: used by the decoder itself (header, coordinates, flags). */
  internal?: boolean;
  /** Inclusive bounds; a value outside makes the frame MALFORMED. */
  min?: number;
  max?: number;
}

export const KIND_SIZE: Record<Exclude<FieldKind, 'hex'>, number> = {
  u8: 1, u16: 2, u32: 4, i8: 1, sm32: 4, volt2: 2,
};

export function fieldSize(f: FieldDef): number {
  return f.kind === 'hex' ? (f.size ?? 0) : KIND_SIZE[f.kind];
}

// ---- Frame envelope -------------------------------------------------------------------------
export const SYNC = [0xaa, 0x55] as const;
/** Sync (2) + body length (2) before the body, XOR checksum (1) after it. */
export const ENVELOPE_HEAD = 4;
export const ENVELOPE_TAIL = 1;
/** Largest accepted body, in bytes (longer = OVERSIZE). */
export const MAX_BODY = 512;
export const PROTOCOL_VERSION = 1;

// ---- Blocks ---------------------------------------------------------------------------------
export const HEADER: FieldDef[] = [
  { name: 'version', kind: 'u8', internal: true },
  { name: 'serial', kind: 'u32', internal: true },
  { name: 'product', kind: 'u8', internal: true },
  { name: 'type', kind: 'u8', internal: true },
  { name: 'sequence', kind: 'u16', internal: true },
];

export const MAIN_INPUT_BITS = [
  'ignition', 'panic_button', 'aux_input_1', 'aux_input_2', 'aux_input_3', 'aux_input_4',
  'anti_theft', 'gps_antenna_cut', 'battery_voltage', 'temperature', 'weak_gsm',
  'backup_battery_low', 'backup_battery_faulty', null, null, null,
];
export const EXTENDED_1_BITS = ['jamming', 'over_speed', 'free_wheel', 'satellites_zero', null, null, null, null];
export const EXTENDED_2_BITS = [
  'position_violation', 'tilt', 'idle_engine', 'alternator_failure', 'rain',
  'harsh_acceleration', 'harsh_braking', 'driver_identification',
];
export const OUTPUT_BITS = ['blocking', 'siren', 'aux_output_1', null, null, null, null, null];

/** Position-flag bits (base block, byte +8). */
export const POSITION_FLAGS = { HIGH_RESOLUTION: 0x01, VALID: 0x02, BUFFERED: 0x04 } as const;
/** Degrees per unit: bit 0 clear = 1/3600 degree, set = 1/360000 degree. */
export const RESOLUTION = { low: 3600, high: 360000 } as const;

export const BASE: FieldDef[] = [
  { name: 'time', kind: 'u32', internal: true },
  { name: 'gpsTime', kind: 'u32', internal: true },
  { name: 'positionFlags', kind: 'u8', internal: true },
  { name: 'latitude', kind: 'sm32', internal: true },
  { name: 'longitude', kind: 'sm32', internal: true },
  { name: 'gps_course', kind: 'u16', max: 359 },
  { name: 'gps_instant_speed', kind: 'u8' },
  { name: 'gps_satellites', kind: 'u8' },
  { name: 'gps_DOP', kind: 'u8', scale: 0.1 },
  { name: 'gprs_signal_quality', kind: 'u8' },
  { name: 'event', kind: 'u8', internal: true },
  { name: 'main_input', kind: 'u16', bits: MAIN_INPUT_BITS, prefix: 'main_input-' },
  { name: 'extended_1', kind: 'u8', bits: EXTENDED_1_BITS, prefix: 'extended_1-' },
  { name: 'extended_2', kind: 'u8', bits: EXTENDED_2_BITS, prefix: 'extended_2-' },
  { name: 'output_status', kind: 'u8', bits: OUTPUT_BITS, prefix: 'output_status-' },
  { name: 'main_battery', kind: 'volt2' },
  { name: 'temperature', kind: 'i8' },
  { name: 'odo_gps', kind: 'u32', scale: 0.001 },
];

/** Optional-field message: a flag byte, read in REVERSE bit order (bit 7 = first field). */
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

export const ACK: FieldDef[] = [
  { name: 'command', kind: 'u8', internal: true },
  { name: 'commandSequence', kind: 'u16', internal: true },
  { name: 'result', kind: 'u8', internal: true },
];

export const COMMAND: FieldDef[] = [
  { name: 'command', kind: 'u8', internal: true },
  { name: 'paramLength', kind: 'u8', internal: true },
];

export type BlockName = 'base' | 'optional' | 'modem' | 'can' | 'ack';

/** Message types (header byte 6) -> name and the blocks that follow the header. */
export const MESSAGE_TYPES: Record<number, { name: string; blocks: BlockName[]; reply: boolean }> = {
  0x01: { name: 'position', blocks: ['base'], reply: true },
  0x02: { name: 'optional', blocks: ['base', 'optional'], reply: true },
  0x03: { name: 'modem', blocks: ['base', 'modem'], reply: true },
  0x04: { name: 'can', blocks: ['base', 'can'], reply: true },
  0x05: { name: 'ack', blocks: ['ack'], reply: false },
};

/** Server -> device message types. */
export const SERVER_TYPES = { ACK: 0x80, COMMAND: 0x90 } as const;

/** Command codes (server -> device, echoed in the device's ack). */
export const COMMAND_CODES: Record<string, number> = {
  reboot: 0x01,
  output: 0x02,
  engineBlock: 0x03,
  engineUnblock: 0x04,
};
/** Output index for the 'output' command (bit of output_status). */
export const OUTPUT_INDEX: Record<string, number> = { blocking: 0, siren: 1, aux_output_1: 2 };
