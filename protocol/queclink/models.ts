// Per-model data for the Queclink @Track ASCII protocol.
// Model differences live here as tables, not as branches in the decoder.
// Sources: Queclink @Track air interface documents (GV350CEU / GV58 series / GV50 series / GV350M / GV55 / GL300),
// public frame captures and public decoders (read only: Traccar's device-type table and test frames).

/** A field in a layout: a name known to fields.ts, or a structural segment. */
export type Segment =
  | string
  /** 'counted': a Number field, then that many position blocks; 'single': one block, no Number field. */
  | { positions: 'counted' | 'single' }
  /** The model's analog inputs (ModelSpec.adcs); for unknown models inferred from where the device status is. */
  | { adcs: true }
  /** CAN report mask followed by the fields its bits select (see CanBit). */
  | { can: true }
  /** GTERI accessory blocks selected by the ERI mask (see EriBlock), after the UART device type. */
  | { eri: true };

/** Bits of the position append mask (after each position block) → the fields they add. */
export type AppendMaskTable = Record<number, string[]>;

/** CAN report mask bit → field name (in frame order). */
export type CanBit = { bit: number; field: string };

/**
 * A GTERI accessory block: the ERI mask bits that select it and how it is read (decoder.ts readEri).
 * - fuel: one digital fuel sensor reading (hex) → fuelSensor1.
 * - fuelSensors: a count, then per sensor its type and the readings of the selected bits: with `uart`, the UART
 *   id and the digital reading (hex, bit 0) → fuelSensorN; bit 3 the percentage → fuelSensorLevelN; bit 4 the
 *   volume → fuelSensorVolumeN.
 * - oneWire: a count, then per device id, type, value (hex, signed, 1/16 °C) → oneWireIdN, temperatureN.
 * - can: CAN bus state, CAN report mask and its fields (as in GTCAN, without location and cell).
 * - rf433: a count, then per sensor serial, type, temperature [, humidity when type 2] → rfIdN, rfTemperatureN, rfHumidityN.
 * - ble: a count, then per accessory index, type, model [, raw data length], raw data, accessory mask (hex) and
 *   the fields of that mask (BLE_FIELDS) → bleNameN, bleMacN, bleTemperatureN...
 */
export type EriBlock = { bits: number; kind: 'fuel' | 'fuelSensors' | 'oneWire' | 'can' | 'rf433' | 'ble'; uart?: boolean };

/** BLE accessory mask bit → attribute stem (N = the accessory's position, 1-based) and how its value is read. */
export type BleField = { bit: number; stem: string; read: 'str' | 'int' | 'dec' | 'mv' };

export interface ModelSpec {
  /** Model key used across Rastro (equipamento.modelo). */
  key: string;
  /** Default device password (Queclink default is the lower-case model name). */
  password: string;
  /** Position append mask; null when the model sends none (GL300/GL500 families). */
  appendMask: AppendMaskTable | null;
  /** Analog-input fields of GTFRI/GTERI between hour meter and battery; null = infer from the frame. */
  adcs: string[] | null;
  /** CAN report mask layout (bits in frame order). */
  canBits: CanBit[] | null;
  /** Per-message layouts (between device name and send time); merged over DEFAULT_LAYOUTS. */
  layouts: Record<string, Segment[]>;
  /** GTOUT parameter template: fields after the password; {o1},{o2},{o3} are output states. */
  outTemplate: string[];
  /** GTERI accessory blocks in frame order (ERI mask bits); a set bit not in the table stops the reading there. */
  eriBlocks: EriBlock[];
  /** BLE accessory: a raw data length field before the raw data by default (GV600M family); inferred per frame. */
  bleRawLength: boolean;
  /**
   * Battery-powered trackers (GL500/GL505, GT501, GL530, GL500M...): the position reports end with the battery
   * percentage this many fields before the send time (1 = the field just before it); 0 = not at the end. A Wi-Fi
   * list after the position block (GT501) is read too.
   */
  batteryFromEnd?: number;
}

// Position append mask: bit0 satellites; bit1 GNSS trigger type; bit3 HDOP/VDOP/PDOP; bit4 jamming state.
// (Captures: "01,12" sats; "02,0" trigger; "03,12,3"; "08,0.69,1.11,1.30"; "11,12,0" sats + jamming.)
const APPEND_MASK: AppendMaskTable = {
  0: ['satellites'],
  1: ['gnssTriggerType'],
  3: ['hdop', 'vdop', 'pdop'],
  4: ['gnssJammingState'],
};

const ADCS = { adcs: true } as const;
const ERI = { eri: true } as const;
const COUNTED = { positions: 'counted' } as const;
const SINGLE = { positions: 'single' } as const;
const EVENT: Segment[] = ['externalPowerVoltage', 'reportIdType', COUNTED, 'mileage'];

/** Layouts shared by all models. Fields before device name and the tail (send time, count) are fixed. */
export const DEFAULT_LAYOUTS: Record<string, Segment[]> = {
  GTFRI: ['externalPowerVoltage', 'reportIdType', COUNTED, 'mileage', 'hourMeter', ADCS,
    'batteryLevel', 'deviceStatus', 'reserved', 'reserved', 'reserved'],
  GTERI: ['eriMask', 'externalPowerVoltage', 'reportIdType', COUNTED, 'mileage', 'hourMeter', ADCS,
    'batteryLevel', 'deviceStatus', 'uartDeviceType', ERI],
  // Event reports with the common "reserved/power, report id+type, number, positions, mileage" body.
  GTSOS: EVENT, GTSPD: EVENT, GTGEO: EVENT, GTHBM: EVENT, GTTOW: EVENT, GTDOS: EVENT, GTDIS: EVENT, GTRTL: EVENT,
  GTIGL: EVENT, GTIDL: EVENT, GTGIN: EVENT, GTGOT: EVENT, GTDOG: EVENT, GTPEO: EVENT, GTAIS: EVENT, GTCTN: EVENT,
  GTIGN: ['ignitionOffDuration', SINGLE, 'hourMeter', 'mileage'],
  GTIGF: ['ignitionOnDuration', SINGLE, 'hourMeter', 'mileage'],
  GTVGN: ['ignitionOffDuration', SINGLE, 'hourMeter', 'mileage'],
  GTVGF: ['ignitionOnDuration', SINGLE, 'hourMeter', 'mileage'],
  GTSTT: ['motionStatus', SINGLE],
  GTMPN: [SINGLE],
  GTMPF: [SINGLE],
  GTEPN: [SINGLE],
  GTEPF: [SINGLE],
  GTBTC: [SINGLE],
  GTSTC: [SINGLE],
  GTBPL: ['backupBatteryVoltage', SINGLE],
  GTJDR: [SINGLE],
  GTJDS: ['jammingState', SINGLE],
  GTCRA: ['crashCounter', SINGLE],
  GTPNA: ['powerOnReason'],
  GTPFA: ['powerOffReason'],
  GTINF: ['motionStatus', 'iccid', 'rssi', 'ber', 'externalPowerConnected', 'externalPowerVoltage', 'networkType',
    'backupBatteryVoltage', 'charging', 'ledOn', 'reserved', 'reserved', 'lastFixTime', 'reserved', 'analogInput1',
    'analogInput2', 'analogInput3', 'digitalInputs', 'digitalOutputs', 'timezoneOffset', 'daylightSaving'],
  GTCAN: ['canReportType', 'canBusState', { can: true }],
  GTHBD: [],
  // ID report: an RFID card (ID number, hex) read by the reader on the accessory port; ID report type 1 = authorized.
  // +RESP:GTIDA,<ver>,<imei>,<name>,<reserved>,<ID>,<ID report type>,<number>,<positions>,<mileage>,<reserved ×5>,<send time>,<count>$
  GTIDA: ['reserved', 'rfid', 'rfidAuthorized', COUNTED, 'mileage'],
};

// CAN report mask bits 0-21 are the same on every model with a CAN interface (GV65, GV300W, GV350M, GV35xCEU...).
const CAN_COMMON: CanBit[] = [
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
];
// GV35xCEU: bits 22 and 28 (electric-vehicle block, at the end), 29 (expansion mask), 30 (location) and 31 (cell)
// are structural and handled by the decoder. Other models: bits above 21 stop the field walk (location is
// found from the end of the frame anyway).
const CAN_GV350CEU: CanBit[] = [
  ...CAN_COMMON,
  { bit: 23, field: 'canEngineColdStarts' },
  { bit: 24, field: 'canEngineStarts' },
  { bit: 25, field: 'canEngineStartsByIgnition' },
  { bit: 26, field: 'canEngineColdRunningTime' },
  { bit: 27, field: 'canHandbrakeApplies' },
];

// GV350M: bits 22-24 are in the middle (impulse distance, gross vehicle weight, catalyst liquid level).
const CAN_GV350M: CanBit[] = [
  ...CAN_COMMON,
  { bit: 22, field: 'canImpulseDistance' },
  { bit: 23, field: 'canGrossVehicleWeight' },
  { bit: 24, field: 'canCatalystLevel' },
];
/**
 * Main CAN mask bits whose data, when the model has no field for them, comes after the expansion blocks (or not
 * at all): bit 22 (GV300W, GV35xCEU: impulse distance at the end) and bit 28 (GV35xCEU electric-vehicle block).
 * Any other set bit without a field stops the walk (the location is still found from the end).
 */
export const CAN_TAIL_BITS = (1 << 22) | (1 << 28);
/** CAN report mask bit 29: the CAN report expansion mask follows the main fields. */
export const CAN_EXPANSION_BIT = 29;

/**
 * CAN report expansion mask (announced by bit 29 of the CAN report mask) → fields, in frame order. Bits 26 and
 * 27 (tachograph driver working-time masks) have a length not known here: set, they stop the walk. Bit 31
 * announces a third mask (CAN_EXPANSION3).
 */
export const CAN_EXPANSION: CanBit[] = [
  { bit: 0, field: 'canAdBlueLevel' },
  { bit: 1, field: 'canAxleWeight1' },
  { bit: 2, field: 'canAxleWeight3' },
  { bit: 3, field: 'canAxleWeight4' },
  { bit: 4, field: 'canTachographOverspeed' },
  { bit: 5, field: 'canTachographMotion' },
  { bit: 6, field: 'canTachographDirection' },
  { bit: 7, field: 'analogInput1' },
  { bit: 8, field: 'canPedalBrakingFactor' },
  { bit: 9, field: 'canEngineBrakingFactor' },
  { bit: 10, field: 'canKickdowns' },
  { bit: 11, field: 'canEffectiveEngineSpeedTime' },
  { bit: 12, field: 'canCruiseControlTime' },
  { bit: 13, field: 'canKickdownTime' },
  { bit: 14, field: 'canBrakeApplications' },
  { bit: 15, field: 'canDriver1Card' },
  { bit: 16, field: 'canDriver2Card' },
  { bit: 17, field: 'canDriver1Name' },
  { bit: 18, field: 'canDriver2Name' },
  { bit: 19, field: 'canRegistration' },
  { bit: 20, field: 'canExpansionInformation' },
  { bit: 21, field: 'canRapidBrakings' },
  { bit: 22, field: 'canRapidAccelerations' },
  { bit: 23, field: 'canEngineTorque' },
  { bit: 24, field: 'canServiceDistance' },
  { bit: 25, field: 'canAmbientTemperature' },
  { bit: 28, field: 'canDtcCodes' },
  { bit: 29, field: 'canGaseousFuelLevel' },
  { bit: 30, field: 'canTachographInfoExpand' },
];
/** Bit 31 of the expansion mask: a third mask follows, selecting these fields. */
export const CAN_EXPANSION3: CanBit[] = [
  { bit: 0, field: 'canRetarderUsage' },
  { bit: 1, field: 'canPowerMode' },
  { bit: 2, field: 'canTachographTimestamp' },
];

// GTERI accessory blocks (ERI mask): bit 0 digital fuel sensor, 1 1-wire, 2 CAN data, 3/4 percentage/volume fuel
// sensors, 7 RF433 sensors, 8 BLE accessories. Captures: GV300 "1,0394,1,4,100.0,100.0" (bits 0, 3, 4),
// GV300W "2,1,28F8A149F69A3C25,1,0190" (1-wire), GV355CEU "0,1,FFFFF,VR3..." (1-wire count, CAN), GV310LAU /
// GV600M / GV350CEU BLE sensors.
const ERI_BLOCKS: EriBlock[] = [
  { bits: 1 << 0, kind: 'fuel' },
  { bits: 1 << 1, kind: 'oneWire' },
  { bits: 1 << 2, kind: 'can' },
  { bits: (1 << 3) | (1 << 4), kind: 'fuelSensors' },
  { bits: 1 << 7, kind: 'rf433' },
  { bits: 1 << 8, kind: 'ble' },
];
// GV350M: the digital fuel sensors are counted, with type and UART id ("1,1,1,01DF": one sensor, reading 0x1DF);
// the percentage and volume of bits 3/4 are read in the same per-sensor list.
const ERI_BLOCKS_GV350M: EriBlock[] = [
  { bits: (1 << 0) | (1 << 3) | (1 << 4), kind: 'fuelSensors', uart: true },
  { bits: 1 << 1, kind: 'oneWire' },
  { bits: 1 << 2, kind: 'can' },
  { bits: 1 << 7, kind: 'rf433' },
  { bits: 1 << 8, kind: 'ble' },
];

/**
 * BLE accessory mask → fields (captures: "283F,SENTEMP1,7805412CF2DD,1,3466,24,36,24.91,100" = name, MAC,
 * status, battery mV, temperature, humidity, enhanced temperature (replaces the whole-degree one), battery %).
 * Bit 6 and bits above 14 are not known: set, they stop the reading.
 */
export const BLE_FIELDS: BleField[] = [
  { bit: 0, stem: 'bleName', read: 'str' },
  { bit: 1, stem: 'bleMac', read: 'str' },
  { bit: 2, stem: 'bleStatus', read: 'int' },
  { bit: 3, stem: 'bleBatteryVoltage', read: 'mv' },
  { bit: 4, stem: 'bleTemperature', read: 'dec' },
  { bit: 5, stem: 'bleHumidity', read: 'dec' },
  { bit: 7, stem: 'bleInputOutput', read: 'str' },
  { bit: 8, stem: 'bleEvent', read: 'str' },
  { bit: 9, stem: 'bleTirePressure', read: 'dec' },
  { bit: 10, stem: 'bleTimestamp', read: 'str' },
  { bit: 11, stem: 'bleTemperature', read: 'dec' },
  { bit: 12, stem: 'bleMagnet', read: 'int' },
  { bit: 13, stem: 'bleBatteryLevel', read: 'int' },
  { bit: 14, stem: 'bleRelay', read: 'int' },
];

// GTOUT (GV series): per output: status, duration, toggle times; then long-operation and reserved fields.
const OUT_GV = ['{o1}', '', '', '{o2}', '0', '0', '{o3}', '0', '0', '0', '', '', '', '', '', ''];

const AN1 = ['analogInput1'];
const AN2 = ['analogInput1', 'analogInput2'];
const AN3 = ['analogInput1', 'analogInput2', 'analogInput3'];

function gv(key: string, adcs: string[] | null, extra: Partial<ModelSpec> = {}): ModelSpec {
  return { key, password: key, appendMask: APPEND_MASK, adcs, canBits: CAN_COMMON, layouts: {}, outTemplate: OUT_GV,
    eriBlocks: ERI_BLOCKS, bleRawLength: false, ...extra };
}

// GL300 family (personal/asset trackers): no append mask; each position block is followed by the mileage,
// the report ends with the battery percentage (captures "...,0228,0001,077F,4812,25.2,83,{send time}").
// The field before the report type is reserved (battery trackers: no external power).
const GL_EVENT: Segment[] = ['reserved', 'reportIdType', COUNTED, 'batteryLevel'];
const GL300_LAYOUTS: Record<string, Segment[]> = {
  GTFRI: GL_EVENT, GTRTL: GL_EVENT, GTGEO: GL_EVENT, GTSOS: GL_EVENT, GTSPD: GL_EVENT, GTDOG: GL_EVENT, GTDIS: GL_EVENT,
  GTIGL: GL_EVENT,
  GTINF: ['motionStatus', 'iccid', 'rssi', 'ber', 'externalPowerConnected', 'mileage', 'reserved',
    'backupBatteryVoltage', 'charging', 'ledOn', 'reserved', 'reserved', 'reserved', 'lastFixTime', 'batteryLevel'],
};
function gl(key: string): ModelSpec {
  return { key, password: key, appendMask: null, adcs: [], canBits: null, layouts: GL300_LAYOUTS, outTemplate: OUT_GV,
    eriBlocks: ERI_BLOCKS, bleRawLength: false };
}

// Battery-powered trackers (GL500/GL505, GT501, GL530, GL500M, GL50...): no external power, no append mask, no
// mileage after the block; the battery percentage is at the end of the position reports (batteryFromEnd) or, in
// GTSTR/GTCTN (GL500, GL530), before the block after the device temperature. Captures (Traccar's public tests):
// GL500 "+RESP:GTFRI,110100,...,0460,0000,18d8,6141,00,80,{send}" (battery 80), GT501
// "...,310,10,711D,81ECF0F,00,,93,{send}" (93), GL500M "...,00D07F02,18,0,,93,0,,,{send}" (93), GL500 GTSTR
// "...,GL500,0,0,2,21.1,86,0,1.6,..." (21.1 °C, 86 %), GL530 GTSTR "...,GL530,0,0,2,,100,3,0.6,..." (100 %).
// GTINF as the GL300 ("...,4.19,1,1,1,0,0,{last fix},100,..." battery after the last fix time).
const BAT_EVENT: Segment[] = ['reserved', 'reportIdType', COUNTED];
const BAT_STR: Segment[] = ['reserved', 'reserved', 'reserved', 'deviceTemperature', 'batteryLevel', SINGLE];
const BAT_LAYOUTS: Record<string, Segment[]> = {
  GTFRI: BAT_EVENT, GTRTL: BAT_EVENT, GTGEO: BAT_EVENT, GTSOS: BAT_EVENT, GTSPD: BAT_EVENT, GTDOG: BAT_EVENT,
  GTDIS: BAT_EVENT, GTIGL: BAT_EVENT, GTPNL: BAT_EVENT, GTTMP: BAT_EVENT,
  GTERI: ['eriMask', 'reserved', 'reportIdType', COUNTED],
  GTSTR: BAT_STR, GTCTN: BAT_STR,
  GTINF: GL300_LAYOUTS.GTINF!,
};
function bat(key: string, batteryFromEnd: number): ModelSpec {
  return { ...gl(key), layouts: BAT_LAYOUTS, batteryFromEnd };
}

// GV600M: one analog input and a reserved field before the battery (capture "...,0.0,,,,3,410000,"); GTINF has
// a second power voltage after the first (capture "...,19,0,11,12295,13985,4.25,0,0,,,{last fix},...").
const GV600M_ADCS = ['analogInput1', 'reserved'];
const GV600M_LAYOUTS: Record<string, Segment[]> = {
  GTINF: ['motionStatus', 'iccid', 'rssi', 'ber', 'reserved', 'externalPowerVoltage', 'externalPowerVoltage2', 'backupBatteryVoltage',
    'charging', 'ledOn', 'reserved', 'reserved', 'lastFixTime'],
};

export const MODELS: Record<string, ModelSpec> = {
  gv350ceu: gv('gv350ceu', AN3, { canBits: CAN_GV350CEU }),
  gv58cg: gv('gv58cg', AN3, { canBits: null, layouts: { GTCAN: [] } }),
  gv50cg: gv('gv50cg', AN3, { canBits: null, layouts: { GTCAN: [] } }),
  gv58lau: gv('gv58lau', AN3, { canBits: null }),
  gv355ceu: gv('gv355ceu', AN3, { canBits: CAN_GV350CEU }),
  gv310lau: gv('gv310lau', AN3),
  gv350m: gv('gv350m', AN1, { canBits: CAN_GV350M, eriBlocks: ERI_BLOCKS_GV350M }),
  gv600m: gv('gv600m', GV600M_ADCS, { layouts: GV600M_LAYOUTS, bleRawLength: true }),
  gv600mg: gv('gv600mg', GV600M_ADCS, { layouts: GV600M_LAYOUTS, bleRawLength: true }),
  gv600w: gv('gv600w', GV600M_ADCS, { layouts: GV600M_LAYOUTS, bleRawLength: true }),
  gv55: gv('gv55', AN2, { canBits: null }),
  gv55lite: gv('gv55lite', AN2, { canBits: null }),
  gv55w: gv('gv55w', AN2, { canBits: null }),
  gv56: gv('gv56', AN2, { canBits: null }),
  gv300: gv('gv300', AN2),
  gv300w: gv('gv300w', AN2),
  gv200: gv('gv200', null, {
    layouts: { GTERI: ['eriMask', 'externalPowerVoltage', 'reportIdType', COUNTED, 'mileage', 'hourMeter', ...AN3,
      'digitalInputs', 'digitalOutputs', 'uartDeviceType', ERI] },
  }),
  gv500: gv('gv500', AN2),
  gv500vc: gv('gv500vc', AN2),
  gv65: gv('gv65', null),
  // CV100LG: two analog inputs, device status as the motion-state byte only ("...,0.0,,,,100,21,").
  cv100lg: gv('cv100lg', AN2, { canBits: null }),
  cv200: gv('cv200', AN2, { canBits: null }),
  gl300: gl('gl300'),
  gl300m: gl('gl300m'),
  gl300w: gl('gl300w'),
  gl300vc: gl('gl300vc'),
  gl500: bat('gl500', 1),
  gt501: bat('gt501', 1),
  gl530: bat('gl530', 0),
  gl500m: bat('gl500m', 4),
  gl50: bat('gl50', 1),
  gl50b: bat('gl50b', 1),
};

/** Fallback for devices of unknown types: @Track rules with the layout inferred from the frame. */
export const GENERIC_MODEL: ModelSpec = { ...MODELS.gv58cg!, key: '', password: 'gv58cg', adcs: null, canBits: CAN_COMMON, layouts: {} };

/**
 * Device type (leading part of the protocol version) → model key.
 * 6-char versions: 2 hex type + 4 hex version (e.g. 740904); 10-char: 6 hex type + 4 hex (e.g. 8020030100).
 * Types without a spec of their own are named so a capture shows what it is, and decode with the generic rules.
 */
export const DEVICE_TYPES: Record<string, { model: string; spec: ModelSpec }> = {};
const TYPES: Array<[string, string, ModelSpec?]> = [
  ['74', 'gv350ceu'], ['802003', 'gv58cg'], ['802008', 'gv50cg'], ['802004', 'gv58lau'], ['802005', 'gv355ceu'],
  ['6E', 'gv310lau'], ['F1', 'gv350m'], ['C2', 'gv600m'], ['DC', 'gv600mg'], ['FC', 'gv600w'],
  ['0F', 'gv55'], ['2F', 'gv55'], ['10', 'gv55lite'], ['50', 'gv55w'], ['4F', 'gv56'],
  ['06', 'gv300'], ['25', 'gv300'], ['27', 'gv300w'], ['04', 'gv200'], ['35', 'gv200'],
  ['1F', 'gv500'], ['36', 'gv500'], ['2D', 'gv500vc'], ['31', 'gv65'], ['38', 'gv65'], ['DF', 'cv100lg'], ['BD', 'cv200'],
  // F5 GL300M and 30 GL300N: types of public captures and of the qtripp device table.
  ['1A', 'gl300'], ['30', 'gl300'], ['F5', 'gl300m'], ['2C', 'gl300w'], ['28', 'gl300vc'],
  // Named only (generic rules):
  ['02', 'gl200'], ['21', 'gl200'], ['08', 'gmt100'], ['3F', 'gmt100'], ['09', 'gv50p'], ['11', 'gl500'],
  ['40', 'gl500'], ['41', 'gv75w'], ['42', 'gt501'], ['44', 'gl530'], ['45', 'gb100'], ['52', 'gl50'],
  ['55', 'gl50b'], ['5E', 'gv500map'], ['C3', 'gl320m'], ['DE', 'gl500m'], ['F8', 'gv800w'], ['80201E', 'gv30ceu'],
  // 46 GB200S: the device type of the binary +ACK frame of the public Boxon codec's tests; 4B GV300CAN: its @Track
  // protocol document ("'4B' means GV300CAN").
  ['46', 'gb200s'], ['4B', 'gv300can'],
];
for (const [code, model] of TYPES) {
  // Named-only GL5xx/GL3xx trackers send no position append mask.
  const spec = MODELS[model] ?? { ...GENERIC_MODEL, key: model, password: model, appendMask: model.startsWith('gl') ? null : APPEND_MASK };
  DEVICE_TYPES[code] = { model, spec };
}

/** The spec of a model key (MODELS, or a type only named in DEVICE_TYPES); the generic one otherwise. */
export function specFor(model: string | undefined): ModelSpec {
  if (!model) return GENERIC_MODEL;
  const m = MODELS[model];
  if (m) return m;
  for (const t of Object.values(DEVICE_TYPES)) if (t.model === model) return t.spec;
  return GENERIC_MODEL;
}

export interface ModelInfo {
  /** Model key, or "desconhecido (XX)" for a device type not in the table. */
  model: string;
  /** true when the device type is in DEVICE_TYPES. */
  known: boolean;
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
  return hit
    ? { model: hit.model, known: true, spec: hit.spec, deviceType, firmware }
    : { model: `desconhecido (${deviceType})`, known: false, spec: GENERIC_MODEL, deviceType, firmware };
}

export function layoutFor(spec: ModelSpec, message: string): Segment[] | undefined {
  return spec.layouts[message] ?? DEFAULT_LAYOUTS[message];
}
