// Field decoders: raw @Track field text → catalogue attributes (catalogues.md 3.4, newer family).
import type { AttributeValue } from '../types.ts';

export class FieldError extends Error {
  constructor(field: string, raw: string) {
    super(`campo ${field} inválido: ${JSON.stringify(raw.slice(0, 40))}`);
    this.name = 'FieldError';
  }
}

export type Attrs = Record<string, AttributeValue>;
type FieldFn = (raw: string, attrs: Attrs, name: string) => void;

const DEC = /^-?\d+(\.\d+)?$/;
const INT = /^\d+$/;
const HEX = /^[0-9A-Fa-f]+$/;

export function num(raw: string, name: string): number {
  if (!DEC.test(raw)) throw new FieldError(name, raw);
  return Number(raw);
}
export function int(raw: string, name: string): number {
  if (!INT.test(raw) || raw.length > 12) throw new FieldError(name, raw);
  return Number(raw);
}
export function hex(raw: string, name: string): number {
  if (!HEX.test(raw) || raw.length > 12) throw new FieldError(name, raw);
  return parseInt(raw, 16);
}
const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d;

/** YYYYMMDDHHMMSS (UTC) → ISO-8601, strictly validated. */
export function utc(raw: string, name: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(raw);
  if (!m) throw new FieldError(name, raw);
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const dt = new Date(t);
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d
    || dt.getUTCHours() !== h || dt.getUTCMinutes() !== mi || dt.getUTCSeconds() !== s) throw new FieldError(name, raw);
  return dt.toISOString();
}

/** "HHHHHHH:MM:SS" (also "HHHHH:MM:SS") → seconds. */
export function hours(raw: string, name: string): number {
  const m = /^(\d{1,7}):([0-5]\d):([0-5]\d)$/.exec(raw);
  if (!m) throw new FieldError(name, raw);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** Device status: motion state byte, input bits, output bits (6 or 10 hex). */
function deviceStatus(raw: string, a: Attrs, name: string): void {
  if (!HEX.test(raw) || (raw.length !== 6 && raw.length !== 10)) throw new FieldError(name, raw);
  const wide = raw.length === 10;
  a.deviceStatus = raw.toUpperCase();
  motionStatus(raw.slice(0, 2), a, name);
  bits(parseInt(raw.slice(2, wide ? 6 : 4), 16), wide ? 16 : 8, 'input', a);
  bits(parseInt(raw.slice(wide ? 6 : 4), 16), wide ? 16 : 8, 'output', a);
}

/** Digital inputs: bit0 is ignition detection, bitN is input N. Outputs: bitN is output N+1. */
function bits(value: number, width: number, kind: 'input' | 'output', a: Attrs): void {
  const top = Math.max(kind === 'input' ? 4 : 3, Math.min(width, 32 - Math.clz32(value)));
  for (let i = 0; i < top; i++) {
    const on = ((value >>> i) & 1) === 1;
    if (kind === 'input') {
      if (i === 0) a.ignitionInput = on;
      else a[`digitalInput${i}`] = on;
    } else a[`digitalOutput${i + 1}`] = on;
  }
}

/** Motion state codes (hex): 1x ignition off, 2x ignition on, 4x motion sensor only; x1 rest, x2 motion, 16/1A tow. */
function motionStatus(raw: string, a: Attrs, name: string): void {
  if (!/^[0-9A-Fa-f]{2}$/.test(raw)) throw new FieldError(name, raw);
  const v = parseInt(raw, 16);
  a.motionStatus = raw.toUpperCase();
  const hi = v >> 4;
  if (hi === 1) a.ignition = false;
  else if (hi === 2) a.ignition = true;
  const lo = v & 0xf;
  if (lo === 1) a.motion = false;
  else if (lo === 2 || lo === 6 || lo === 0xa) a.motion = true;
}

function analog(raw: string, a: Attrs, name: string): void {
  const n = name.slice(-1);
  if (/^F\d{1,3}$/.test(raw)) a[`fuelLevel${n}`] = Number(raw.slice(1)); // percentage
  else a[name] = round(int(raw, name) / 1000, 3); // mV → V
}

const setNum = (key: string, scale = 1, digits = 3): FieldFn => (raw, a, name) => { a[key] = round(num(raw, name) * scale, digits); };
const setInt = (key: string): FieldFn => (raw, a, name) => { a[key] = int(raw, name); };
const setStr = (key: string, re: RegExp): FieldFn => (raw, a, name) => { if (!re.test(raw)) throw new FieldError(name, raw); a[key] = raw; };
const setBool = (key: string): FieldFn => (raw, a, name) => { if (raw !== '0' && raw !== '1') throw new FieldError(name, raw); a[key] = raw === '1'; };

/** Prefixed CAN values: "H123" hectometres, "L25.5" litres, "P83.6" percent, "M23" ... → number. */
const canPrefixed = (key: string, scale: Record<string, number>): FieldFn => (raw, a, name) => {
  const m = /^([A-Z/]*)(-?\d+(?:\.\d+)?)$/.exec(raw);
  if (!m) throw new FieldError(name, raw);
  const s = scale[m[1]!] ?? (m[1] === '' ? 1 : undefined);
  if (s === undefined) { a[`${key}Raw`] = raw; return; }
  a[key] = round(Number(m[2]) * s, 3);
};

export const FIELDS: Record<string, FieldFn> = {
  reserved: () => {},
  externalPowerVoltage: (raw, a, name) => { a.externalPowerSupplyVoltage = round(int(raw, name) / 1000, 3); },
  reportIdType: (raw, a, name) => {
    if (!/^[0-9A-Fa-f]{1,2}$/.test(raw)) throw new FieldError(name, raw);
    const s = raw.padStart(2, '0');
    a.reportId = parseInt(s[0]!, 16);
    a.reportType = parseInt(s[1]!, 16);
  },
  mileage: setNum('odometer', 1, 1),
  hourMeter: (raw, a, name) => { a.hourMeter = hours(raw, name); },
  analogInput1: analog,
  analogInput2: analog,
  analogInput3: analog,
  batteryLevel: setInt('batteryLevel'),
  deviceStatus,
  motionStatus,
  uartDeviceType: setInt('uartDeviceType'),
  eriMask: setStr('eriMask', /^[0-9A-Fa-f]{8}$/),
  ignitionOffDuration: setInt('ignitionOffDuration'),
  ignitionOnDuration: setInt('ignitionOnDuration'),
  crashCounter: setInt('crashCounter'),
  powerOnReason: setInt('powerOnReason'),
  powerOffReason: setInt('powerOffReason'),
  iccid: setStr('iccid', /^[0-9A-Fa-f]{19,20}$/),
  rssi: setInt('rssi'),
  ber: setInt('ber'),
  externalPowerConnected: setBool('externalPowerConnected'),
  networkType: setInt('networkType'),
  backupBatteryVoltage: setNum('backupBatteryVoltage', 1, 2),
  charging: setBool('charging'),
  ledOn: setBool('ledOn'),
  lastFixTime: (raw, a, name) => { a.lastFixTime = utc(raw, name); },
  digitalInputs: (raw, a, name) => bits(hex(raw, name), raw.length * 4, 'input', a),
  digitalOutputs: (raw, a, name) => bits(hex(raw, name), raw.length * 4, 'output', a),
  timezoneOffset: setStr('timezoneOffset', /^[+-]\d{4}$/),
  daylightSaving: setBool('daylightSaving'),
  canReportType: setInt('canReportType'),
  canBusState: setBool('canBusState'),
  // Position append-mask fields
  gnssTriggerType: setInt('gnssTriggerType'),
  gnssJammingState: setInt('gnssJammingState'),
  vdop: setNum('vdop', 1, 2),
  pdop: setNum('pdop', 1, 2),
  // CAN (GV350CEU)
  vin: setStr('vin', /^[0-9A-Za-z]{1,17}$/),
  canIgnitionKey: setInt('ignitionKey'),
  canTotalDistance: canPrefixed('odo_can', { H: 0.1, '': 1 }),
  canTotalFuelUsed: canPrefixed('fuel_consumption_can', { L: 1, '': 1 }),
  canEngineRpm: setInt('engine_speed_can'),
  canVehicleSpeed: setNum('vehicle_speed_can', 1, 1),
  canCoolantTemperature: setInt('temperature_can'),
  canFuelConsumption: canPrefixed('fuelRate', { 'L/H': 1, '': 1 }),
  canFuelLevel: canPrefixed('fuelLevel', { P: 1, L: 1 }),
  canRange: canPrefixed('range', { '': 0.1 }),
  canAcceleratorPedal: setInt('acceleratorPedal'),
  canEngineHours: setNum('engine_running_time_meter', 3600, 0),
  canDrivingTime: setNum('drivingTime', 3600, 0),
  canIdleTime: setNum('idleTime', 3600, 0),
  canIdleFuel: canPrefixed('idleFuelUsed', { L: 1, '': 1 }),
  canAxleWeight: setInt('axleWeight'),
  canTachographInfo: setStr('tachographInfo', /^[0-9A-Fa-f]+$/),
  canIndicators: setStr('indicators', /^[0-9A-Fa-f]+$/),
  canLights: setStr('lights', /^[0-9A-Fa-f]+$/),
  canDoors: setStr('doors', /^[0-9A-Fa-f]+$/),
  canVehicleOverspeedTime: setNum('vehicleOverspeedTime', 3600, 0),
  canEngineOverspeedTime: setNum('engineOverspeedTime', 3600, 0),
  canEngineColdStarts: setInt('engineColdStarts'),
  canEngineStarts: setInt('engineStarts'),
  canEngineStartsByIgnition: setInt('engineStartsByIgnition'),
  canEngineColdRunningTime: setNum('engineColdRunningTime', 1, 2),
  canHandbrakeApplies: setInt('handbrakeApplies'),
};

/** Apply a named field; empty raw values are absent. */
export function applyField(name: string, raw: string, attrs: Attrs): void {
  if (raw === '') return;
  const fn = FIELDS[name];
  if (!fn) throw new Error(`layout names unknown field ${name}`);
  fn(raw, attrs, name);
}
