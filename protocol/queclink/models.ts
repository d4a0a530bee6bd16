// Per-model data for the Queclink @Track ASCII protocol.
// Model differences live here as tables, not as branches in the decoder.
// Sources: Queclink @Track air interface documents (GV350CEU / GV58 series / GV50 series),
// public frame captures and public decoders (read only).

/** A field in a layout: a name known to fields.ts, or a structural segment. */
export type Segment =
  | string
  /** 'counted': a Number field, then that many position blocks; 'single': one block, no Number field. */
  | { positions: 'counted' | 'single' }
  /** CAN report mask followed by the fields its bits select (see CanBit). */
  | { can: true };

/** Bits of the position append mask (after each position block) → the fields they add. */
export type AppendMaskTable = Record<number, string[]>;

/** CAN report mask bit → field name (in frame order). */
export type CanBit = { bit: number; field: string };

export interface ModelSpec {
  /** Model key used across Rastro (equipamento.modelo). */
  key: string;
  /** Default device password (Queclink default is the lower-case model name). */
  password: string;
  appendMask: AppendMaskTable;
  /** CAN report mask layout; null when the model has no CAN interface. */
  canBits: CanBit[] | null;
  /** Per-message layouts (between device name and send time); merged over DEFAULT_LAYOUTS. */
  layouts: Record<string, Segment[]>;
  /** GTOUT parameter template: fields after the password; {o1},{o2},{o3} are output states. */
  outTemplate: string[];
}

// Position append mask: bit0 satellites; bit1 GNSS trigger type; bit3 HDOP/VDOP/PDOP; bit4 jamming state.
// (Captures: "01,12" sats; "02,0" trigger; "03,12,3"; "08,0.69,1.11,1.30"; "11,12,0" sats + jamming.)
const APPEND_MASK: AppendMaskTable = {
  0: ['satellites'],
  1: ['gnssTriggerType'],
  3: ['hdop', 'vdop', 'pdop'],
  4: ['gnssJammingState'],
};

const AN3 = ['analogInput1', 'analogInput2', 'analogInput3'];

/** Layouts shared by the three models. Fields before device name and the tail (send time, count) are fixed. */
export const DEFAULT_LAYOUTS: Record<string, Segment[]> = {
  GTFRI: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage', 'hourMeter', ...AN3,
    'batteryLevel', 'deviceStatus', 'reserved', 'reserved', 'reserved'],
  GTERI: ['eriMask', 'externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage', 'hourMeter', ...AN3,
    'batteryLevel', 'deviceStatus', 'uartDeviceType'],
  // Event reports with the common "reserved/power, report id+type, number, positions, mileage" body.
  GTSOS: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTSPD: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTGEO: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTHBM: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTTOW: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTDOS: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTDIS: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTRTL: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTIGL: ['externalPowerVoltage', 'reportIdType', { positions: 'counted' }, 'mileage'],
  GTIGN: ['ignitionOffDuration', { positions: 'single' }, 'hourMeter', 'mileage'],
  GTIGF: ['ignitionOnDuration', { positions: 'single' }, 'hourMeter', 'mileage'],
  GTVGN: ['ignitionOffDuration', { positions: 'single' }, 'hourMeter', 'mileage'],
  GTVGF: ['ignitionOnDuration', { positions: 'single' }, 'hourMeter', 'mileage'],
  GTSTT: ['motionStatus', { positions: 'single' }],
  GTMPN: [{ positions: 'single' }],
  GTMPF: [{ positions: 'single' }],
  GTCRA: ['crashCounter', { positions: 'single' }],
  GTPNA: ['powerOnReason'],
  GTPFA: ['powerOffReason'],
  GTINF: ['motionStatus', 'iccid', 'rssi', 'ber', 'externalPowerConnected', 'externalPowerVoltage', 'networkType',
    'backupBatteryVoltage', 'charging', 'ledOn', 'reserved', 'reserved', 'lastFixTime', 'reserved', ...AN3,
    'digitalInputs', 'digitalOutputs', 'timezoneOffset', 'daylightSaving'],
  GTCAN: ['canReportType', 'canBusState', { can: true }],
  GTHBD: [],
};

// GV35xCEU CAN report mask (frame order = bit order). Bits 22, 28 (electric-vehicle block, at the end),
// 29 (expansion mask), 30 (location) and 31 (cell) are structural and handled by the decoder.
const CAN_GV350CEU: CanBit[] = [
  { bit: 0, field: 'vin' },
  { bit: 1, field: 'canIgnitionKey' },
  { bit: 2, field: 'canTotalDistance' },
  { bit: 3, field: 'canTotalFuelUsed' },
  { bit: 4, field: 'canEngineRpm' },
  { bit: 5, field: 'canVehicleSpeed' },
  { bit: 6, field: 'canCoolantTemperature' },
  { bit: 7, field: 'canFuelConsumption' },
  { bit: 8, field: 'canFuelLevel' },
  { bit: 9, field: 'canRange' },
  { bit: 10, field: 'canAcceleratorPedal' },
  { bit: 11, field: 'canEngineHours' },
  { bit: 12, field: 'canDrivingTime' },
  { bit: 13, field: 'canIdleTime' },
  { bit: 14, field: 'canIdleFuel' },
  { bit: 15, field: 'canAxleWeight' },
  { bit: 16, field: 'canTachographInfo' },
  { bit: 17, field: 'canIndicators' },
  { bit: 18, field: 'canLights' },
  { bit: 19, field: 'canDoors' },
  { bit: 20, field: 'canVehicleOverspeedTime' },
  { bit: 21, field: 'canEngineOverspeedTime' },
  { bit: 23, field: 'canEngineColdStarts' },
  { bit: 24, field: 'canEngineStarts' },
  { bit: 25, field: 'canEngineStartsByIgnition' },
  { bit: 26, field: 'canEngineColdRunningTime' },
  { bit: 27, field: 'canHandbrakeApplies' },
];

// GTOUT (GV series): per output: status, duration, toggle times; then long-operation and reserved fields.
const OUT_GV = ['{o1}', '', '', '{o2}', '0', '0', '{o3}', '0', '0', '0', '', '', '', '', '', ''];

export const MODELS: Record<string, ModelSpec> = {
  gv350ceu: { key: 'gv350ceu', password: 'gv350ceu', appendMask: APPEND_MASK, canBits: CAN_GV350CEU, layouts: {}, outTemplate: OUT_GV },
  gv58cg: { key: 'gv58cg', password: 'gv58cg', appendMask: APPEND_MASK, canBits: null, layouts: { GTCAN: [] }, outTemplate: OUT_GV },
  gv50cg: { key: 'gv50cg', password: 'gv50cg', appendMask: APPEND_MASK, canBits: null, layouts: { GTCAN: [] }, outTemplate: OUT_GV },
};

/** Fallback for devices of other types (layouts of the GV58CG platform). */
export const GENERIC_MODEL: ModelSpec = { ...MODELS.gv58cg!, key: '', password: 'gv58cg' };

/**
 * Device type (leading part of the protocol version) → model key.
 * 6-char versions: 2 hex type + 4 hex version (e.g. 740904); 10-char: 6 hex type + 4 hex (e.g. 8020030100).
 * Other known types are named so a capture shows what it is; they decode with the nearest layout.
 */
export const DEVICE_TYPES: Record<string, { model: string; spec: ModelSpec }> = {
  '74': { model: 'gv350ceu', spec: MODELS.gv350ceu! },
  '802003': { model: 'gv58cg', spec: MODELS.gv58cg! },
  '802008': { model: 'gv50cg', spec: MODELS.gv50cg! },
  // Relatives (same platform generation), not supported models of Rastro:
  '802004': { model: 'gv58lau', spec: MODELS.gv58cg! },
  '802005': { model: 'gv355ceu', spec: MODELS.gv350ceu! },
  '6E': { model: 'gv310lau', spec: MODELS.gv350ceu! },
};

export interface ModelInfo {
  model?: string;
  spec: ModelSpec;
  deviceType: string;
  /** e.g. "09.04" (major.minor, hex digits as sent). */
  firmware?: string;
}

export function modelFromVersion(version: string): ModelInfo {
  const v = version.toUpperCase();
  const deviceType = v.length >= 10 ? v.slice(0, v.length - 4) : v.slice(0, 2);
  const firmware = v.length >= 6 ? `${v.slice(-4, -2)}.${v.slice(-2)}` : undefined;
  const hit = DEVICE_TYPES[deviceType];
  return hit ? { model: hit.model, spec: hit.spec, deviceType, firmware } : { spec: GENERIC_MODEL, deviceType, firmware };
}

export function layoutFor(spec: ModelSpec, message: string): Segment[] | undefined {
  return spec.layouts[message] ?? DEFAULT_LAYOUTS[message];
}
