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

// Validation by character codes (no regular expressions on the hot path); same grammar as
// DEC /^-?\d+(\.\d+)?$/, INT /^\d+$/, HEX /^[0-9A-Fa-f]+$/.
const isDigit = (c: number) => c >= 48 && c <= 57;
/** Value of a hex digit, -1 if not one. */
export function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}
function isDec(raw: string): boolean {
  const n = raw.length;
  let i = raw.charCodeAt(0) === 45 ? 1 : 0;
  const first = i;
  while (i < n && isDigit(raw.charCodeAt(i))) i++;
  if (i === first) return false;
  if (i === n) return true;
  if (raw.charCodeAt(i) !== 46) return false;
  const frac = ++i;
  while (i < n && isDigit(raw.charCodeAt(i))) i++;
  return i === n && i > frac;
}
function isInt(raw: string): boolean {
  const n = raw.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) if (!isDigit(raw.charCodeAt(i))) return false;
  return true;
}
export function isHex(raw: string): boolean {
  const n = raw.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) if (hexDigit(raw.charCodeAt(i)) < 0) return false;
  return true;
}
/** The string upper-cased; the same string when it has no lower-case letter (no allocation). */
export function upper(raw: string): string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 97 && c <= 122) return raw.toUpperCase();
  }
  return raw;
}

export function num(raw: string, name: string): number {
  if (!isDec(raw)) throw new FieldError(name, raw);
  return Number(raw);
}
export function int(raw: string, name: string): number {
  if (raw.length > 12 || !isInt(raw)) throw new FieldError(name, raw);
  return Number(raw);
}
export function hex(raw: string, name: string): number {
  const n = raw.length;
  if (n === 0 || n > 12) throw new FieldError(name, raw);
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = hexDigit(raw.charCodeAt(i));
    if (d < 0) throw new FieldError(name, raw);
    v = v * 16 + d; // at most 48 bits: exact, same as parseInt(raw, 16)
  }
  return v;
}
const ROUND_POW = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];
/** n rounded to d (0-6) decimals; the same values as Math.round(n * 10 ** d) / 10 ** d, whose ** cost the decoder
 *  ~4 % of its time. */
export const round = (n: number, d: number): number => { const p = ROUND_POW[d]!; return Math.round(n * p) / p; };

/** Two decimal digits at i as a number, -1 if not digits. */
function dd(raw: string, i: number): number {
  const a = raw.charCodeAt(i) - 48, b = raw.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
let lastUtcRaw = '', lastUtcIso = '';

/**
 * YYYYMMDDHHMMSS (UTC) → ISO-8601 "YYYY-MM-DDTHH:MM:SS.000Z", strictly validated (a real calendar date and
 * time; years 0100-9999), by fixed-width arithmetic: no regular expression, no Date.
 */
export function utc(raw: string, name: string): string {
  if (raw === lastUtcRaw) return lastUtcIso; // fix time and send time are often the same
  if (raw.length !== 14) throw new FieldError(name, raw);
  const y1 = dd(raw, 0), y2 = dd(raw, 2), mo = dd(raw, 4), d = dd(raw, 6), h = dd(raw, 8), mi = dd(raw, 10), s = dd(raw, 12);
  if (y1 < 0 || y2 < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) throw new FieldError(name, raw);
  const y = y1 * 100 + y2;
  // Date.UTC maps years 0-99 to 1900-1999: such a date never round-trips, so it was always rejected.
  if (y < 100) throw new FieldError(name, raw);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (mo === 2 && leap ? 29 : MONTH_DAYS[mo - 1]!)) throw new FieldError(name, raw);
  const iso = `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6, 8)}T${raw.slice(8, 10)}:${raw.slice(10, 12)}:${raw.slice(12, 14)}.000Z`;
  lastUtcRaw = raw;
  lastUtcIso = iso;
  return iso;
}

/** "HHHHHHH:MM:SS" (also "HHHHH:MM:SS") → seconds. Grammar /^(\d{1,7}):([0-5]\d):([0-5]\d)$/. */
export function hours(raw: string, name: string): number {
  const n = raw.length, c = n - 6; // index of the first ':'
  if (c < 1 || c > 7 || raw.charCodeAt(c) !== 58 || raw.charCodeAt(c + 3) !== 58) throw new FieldError(name, raw);
  let hh = 0;
  for (let i = 0; i < c; i++) {
    const x = raw.charCodeAt(i) - 48;
    if (x < 0 || x > 9) throw new FieldError(name, raw);
    hh = hh * 10 + x;
  }
  const mm = dd(raw, c + 1), ss = dd(raw, c + 4);
  if (mm < 0 || mm > 59 || ss < 0 || ss > 59) throw new FieldError(name, raw);
  return hh * 3600 + mm * 60 + ss;
}

// Attributes are written with named stores only (a.key = v, through the small setters below): a computed key
// (a[key] = v) makes V8 turn the object into a slow dictionary after a dozen properties, which costs in
// every later read and in JSON.stringify.
type Setter<T> = (a: Attrs, v: T) => void;

/** Device status: motion state byte, input bits, output bits (6 or 10 hex; CV100LG: the motion state only). */
function deviceStatus(raw: string, a: Attrs, name: string): void {
  const n = raw.length;
  if ((n !== 2 && n !== 6 && n !== 10) || !isHex(raw)) throw new FieldError(name, raw);
  if (n === 2) {
    a.deviceStatus = upper(raw);
    motionStatus(raw, a, name);
    return;
  }
  const wide = n === 10;
  a.deviceStatus = upper(raw);
  motionStatus(raw.slice(0, 2), a, name);
  const w = wide ? 4 : 2;
  bits(hexAt(raw, 2, w), wide ? 16 : 8, 'input', a);
  bits(hexAt(raw, 2 + w, w), wide ? 16 : 8, 'output', a);
}

/** Value of the (already validated) hex digits raw[from, from + len). */
function hexAt(raw: string, from: number, len: number): number {
  let v = 0;
  for (let i = from; i < from + len; i++) v = v * 16 + hexDigit(raw.charCodeAt(i));
  return v;
}

const INPUTS: Setter<boolean>[] = [
  (a, v) => { a.ignitionInput = v; }, (a, v) => { a.digitalInput1 = v; }, (a, v) => { a.digitalInput2 = v; },
  (a, v) => { a.digitalInput3 = v; }, (a, v) => { a.digitalInput4 = v; }, (a, v) => { a.digitalInput5 = v; },
  (a, v) => { a.digitalInput6 = v; }, (a, v) => { a.digitalInput7 = v; }, (a, v) => { a.digitalInput8 = v; },
  (a, v) => { a.digitalInput9 = v; }, (a, v) => { a.digitalInput10 = v; }, (a, v) => { a.digitalInput11 = v; },
  (a, v) => { a.digitalInput12 = v; }, (a, v) => { a.digitalInput13 = v; }, (a, v) => { a.digitalInput14 = v; },
  (a, v) => { a.digitalInput15 = v; },
];
const OUTPUTS: Setter<boolean>[] = [
  (a, v) => { a.digitalOutput1 = v; }, (a, v) => { a.digitalOutput2 = v; }, (a, v) => { a.digitalOutput3 = v; },
  (a, v) => { a.digitalOutput4 = v; }, (a, v) => { a.digitalOutput5 = v; }, (a, v) => { a.digitalOutput6 = v; },
  (a, v) => { a.digitalOutput7 = v; }, (a, v) => { a.digitalOutput8 = v; }, (a, v) => { a.digitalOutput9 = v; },
  (a, v) => { a.digitalOutput10 = v; }, (a, v) => { a.digitalOutput11 = v; }, (a, v) => { a.digitalOutput12 = v; },
  (a, v) => { a.digitalOutput13 = v; }, (a, v) => { a.digitalOutput14 = v; }, (a, v) => { a.digitalOutput15 = v; },
  (a, v) => { a.digitalOutput16 = v; },
];

/** Digital inputs: bit0 is ignition detection, bitN is input N. Outputs: bitN is output N+1. */
export function bits(value: number, width: number, kind: 'input' | 'output', a: Attrs): void {
  const top = Math.max(kind === 'input' ? 4 : 3, Math.min(width, 32 - Math.clz32(value)));
  const table = kind === 'input' ? INPUTS : OUTPUTS;
  for (let i = 0; i < top; i++) {
    const on = ((value >>> i) & 1) === 1;
    const set = table[i];
    if (set) set(a, on);
    else if (kind === 'input') a[`digitalInput${i}`] = on;
    else a[`digitalOutput${i + 1}`] = on;
  }
}

/** Motion state codes (hex): 1x ignition off, 2x ignition on, 4x motion sensor only; x1 rest, x2 motion, 16/1A tow. */
function motionStatus(raw: string, a: Attrs, name: string): void {
  const h = raw.length === 2 ? hexDigit(raw.charCodeAt(0)) : -1, l = h < 0 ? -1 : hexDigit(raw.charCodeAt(1));
  if (l < 0) throw new FieldError(name, raw);
  a.motionStatus = upper(raw);
  if (h === 1) a.ignition = false;
  else if (h === 2) a.ignition = true;
  if (l === 1) a.motion = false;
  else if (l === 2 || l === 6 || l === 0xa) a.motion = true;
}

/** "F" + 1-3 digits: fuel level percentage. */
function isFuel(raw: string): boolean {
  const n = raw.length;
  if (n < 2 || n > 4 || raw.charCodeAt(0) !== 70) return false;
  for (let i = 1; i < n; i++) if (!isDigit(raw.charCodeAt(i))) return false;
  return true;
}
const analog = (setVolts: Setter<number>, setFuel: Setter<number>): FieldFn => (raw, a, name) => {
  if (isFuel(raw)) setFuel(a, Number(raw.slice(1))); // percentage
  else setVolts(a, round(int(raw, name) / 1000, 3)); // mV → V
};

const setNum = (set: Setter<number>, scale = 1, digits = 3): FieldFn => (raw, a, name) => { set(a, round(num(raw, name) * scale, digits)); };
const setInt = (set: Setter<number>): FieldFn => (raw, a, name) => { set(a, int(raw, name)); };
const setStr = (set: Setter<string>, re: RegExp): FieldFn => (raw, a, name) => { if (!re.test(raw)) throw new FieldError(name, raw); set(a, raw); };
const setBool = (set: Setter<boolean>): FieldFn => (raw, a, name) => { if (raw !== '0' && raw !== '1') throw new FieldError(name, raw); set(a, raw === '1'); };

/** Prefixed CAN values: "H123" hectometres, "L25.5" litres, "P83.6" percent, "M23" ... → number. */
const canPrefixed = (key: string, set: Setter<number>, scale: Record<string, number>): FieldFn => (raw, a, name) => {
  const m = /^([A-Z/]*)(-?\d+(?:\.\d+)?)$/.exec(raw);
  if (!m) throw new FieldError(name, raw);
  const s = scale[m[1]!] ?? (m[1] === '' ? 1 : undefined);
  if (s === undefined) { a[`${key}Raw`] = raw; return; }
  set(a, round(Number(m[2]) * s, 3));
};

export const FIELDS: Record<string, FieldFn> = {
  reserved: () => {},
  externalPowerVoltage: (raw, a, name) => { a.externalPowerSupplyVoltage = round(int(raw, name) / 1000, 3); },
  /** GV600M GTINF: the second power input (mV). */
  externalPowerVoltage2: (raw, a, name) => { a.externalPowerSupplyVoltage2 = round(int(raw, name) / 1000, 3); },
  /** Battery trackers (GL500, GL530): device temperature, °C. */
  deviceTemperature: setNum((a, v) => { a.deviceTemperature = v; }, 1, 1),
  reportIdType: (raw, a, name) => {
    // 1 or 2 hex digits: report id, report type ("5" = id 0, type 5).
    const n = raw.length;
    const id = n === 2 ? hexDigit(raw.charCodeAt(0)) : 0, type = n === 1 || n === 2 ? hexDigit(raw.charCodeAt(n - 1)) : -1;
    if (id < 0 || type < 0) throw new FieldError(name, raw);
    a.reportId = id;
    a.reportType = type;
  },
  mileage: setNum((a, v) => { a.odometer = v; }, 1, 1),
  hourMeter: (raw, a, name) => { a.hourMeter = hours(raw, name); },
  analogInput1: analog((a, v) => { a.analogInput1 = v; }, (a, v) => { a.fuelLevel1 = v; }),
  analogInput2: analog((a, v) => { a.analogInput2 = v; }, (a, v) => { a.fuelLevel2 = v; }),
  analogInput3: analog((a, v) => { a.analogInput3 = v; }, (a, v) => { a.fuelLevel3 = v; }),
  batteryLevel: setInt((a, v) => { a.batteryLevel = v; }),
  deviceStatus,
  motionStatus,
  uartDeviceType: setInt((a, v) => { a.uartDeviceType = v; }),
  eriMask: setStr((a, v) => { a.eriMask = v; }, /^[0-9A-Fa-f]{8}$/),
  ignitionOffDuration: setInt((a, v) => { a.ignitionOffDuration = v; }),
  ignitionOnDuration: setInt((a, v) => { a.ignitionOnDuration = v; }),
  // RFID card read (GTIDA ID number): the generic `rfid` attribute the ingest modules read (passengers by tag).
  rfid: setStr((a, v) => { a.rfid = upper(v); }, /^[0-9A-Fa-f]{1,20}$/),
  rfidAuthorized: setBool((a, v) => { a.rfidAuthorized = v; }),
  crashCounter: setInt((a, v) => { a.crashCounter = v; }),
  jammingState: setInt((a, v) => { a.gnssJammingState = v; }),
  powerOnReason: setInt((a, v) => { a.powerOnReason = v; }),
  powerOffReason: setInt((a, v) => { a.powerOffReason = v; }),
  iccid: setStr((a, v) => { a.iccid = v; }, /^[0-9A-Fa-f]{19,20}$/),
  rssi: setInt((a, v) => { a.rssi = v; }),
  ber: setInt((a, v) => { a.ber = v; }),
  externalPowerConnected: setBool((a, v) => { a.externalPowerConnected = v; }),
  networkType: setInt((a, v) => { a.networkType = v; }),
  backupBatteryVoltage: setNum((a, v) => { a.backupBatteryVoltage = v; }, 1, 2),
  charging: setBool((a, v) => { a.charging = v; }),
  ledOn: setBool((a, v) => { a.ledOn = v; }),
  lastFixTime: (raw, a, name) => { a.lastFixTime = utc(raw, name); },
  digitalInputs: (raw, a, name) => bits(hex(raw, name), raw.length * 4, 'input', a),
  digitalOutputs: (raw, a, name) => bits(hex(raw, name), raw.length * 4, 'output', a),
  timezoneOffset: setStr((a, v) => { a.timezoneOffset = v; }, /^[+-]\d{4}$/),
  daylightSaving: setBool((a, v) => { a.daylightSaving = v; }),
  canReportType: setInt((a, v) => { a.canReportType = v; }),
  canBusState: setBool((a, v) => { a.canBusState = v; }),
  // Position append-mask fields
  gnssTriggerType: setInt((a, v) => { a.gnssTriggerType = v; }),
  gnssJammingState: setInt((a, v) => { a.gnssJammingState = v; }),
  vdop: setNum((a, v) => { a.vdop = v; }, 1, 2),
  pdop: setNum((a, v) => { a.pdop = v; }, 1, 2),
  // CAN (GV350CEU)
  vin: setStr((a, v) => { a.vin = v; }, /^[0-9A-Za-z]{1,17}$/),
  canIgnitionKey: setInt((a, v) => { a.ignitionKey = v; }),
  canTotalDistance: canPrefixed('odo_can', (a, v) => { a.odo_can = v; }, { H: 0.1, '': 1 }),
  canTotalFuelUsed: canPrefixed('fuel_consumption_can', (a, v) => { a.fuel_consumption_can = v; }, { L: 1, '': 1 }),
  canEngineRpm: setInt((a, v) => { a.engine_speed_can = v; }),
  canVehicleSpeed: setNum((a, v) => { a.vehicle_speed_can = v; }, 1, 1),
  canCoolantTemperature: setInt((a, v) => { a.temperature_can = v; }),
  canFuelConsumption: canPrefixed('fuelRate', (a, v) => { a.fuelRate = v; }, { 'L/H': 1, '': 1 }),
  canFuelLevel: canPrefixed('fuelLevel', (a, v) => { a.fuelLevel = v; }, { P: 1, L: 1 }),
  canRange: canPrefixed('range', (a, v) => { a.range = v; }, { '': 0.1 }),
  canAcceleratorPedal: setInt((a, v) => { a.acceleratorPedal = v; }),
  canEngineHours: setNum((a, v) => { a.engine_running_time_meter = v; }, 3600, 0),
  canDrivingTime: setNum((a, v) => { a.drivingTime = v; }, 3600, 0),
  canIdleTime: setNum((a, v) => { a.idleTime = v; }, 3600, 0),
  canIdleFuel: canPrefixed('idleFuelUsed', (a, v) => { a.idleFuelUsed = v; }, { L: 1, '': 1 }),
  // Bit 15 is the weight of the second axle (the expansion mask gives the 1st, 3rd and 4th): catalogue keys.
  canAxleWeight: setInt((a, v) => { a['detailedInformation-axleWeight2'] = v; }),
  canTachographInfo: setStr((a, v) => { a.tachographInfo = v; }, /^[0-9A-Fa-f]+$/),
  canIndicators: setStr((a, v) => { a.indicators = v; }, /^[0-9A-Fa-f]+$/),
  canLights: setStr((a, v) => { a.lights = v; }, /^[0-9A-Fa-f]+$/),
  canDoors: setStr((a, v) => { a.doors = v; }, /^[0-9A-Fa-f]+$/),
  canVehicleOverspeedTime: setNum((a, v) => { a.vehicleOverspeedTime = v; }, 3600, 0),
  canEngineOverspeedTime: setNum((a, v) => { a.engineOverspeedTime = v; }, 3600, 0),
  canEngineColdStarts: setInt((a, v) => { a.engineColdStarts = v; }),
  canEngineStarts: setInt((a, v) => { a.engineStarts = v; }),
  canEngineStartsByIgnition: setInt((a, v) => { a.engineStartsByIgnition = v; }),
  canEngineColdRunningTime: setNum((a, v) => { a.engineColdRunningTime = v; }, 1, 2),
  canHandbrakeApplies: setInt((a, v) => { a.handbrakeApplies = v; }),
  // GV350M bits 22-24
  canImpulseDistance: setNum((a, v) => { a.impulseDistance = v; }, 1, 2),
  canGrossVehicleWeight: setInt((a, v) => { a.grossVehicleWeight = v; }),
  canCatalystLevel: canPrefixed('catalystLevel', (a, v) => { a.catalystLevel = v; }, { P: 1, '': 1 }),
  // CAN report expansion mask (models.ts CAN_EXPANSION): "P100.00" AdBlue %, axle weights kg, times in hours.
  canAdBlueLevel: canPrefixed('adBlueLevel', (a, v) => { a.adBlueLevel = v; }, { P: 1, '': 1 }),
  canAxleWeight1: setInt((a, v) => { a['detailedInformation-axleWeight1'] = v; }),
  canAxleWeight3: setInt((a, v) => { a['detailedInformation-axleWeight3'] = v; }),
  canAxleWeight4: setInt((a, v) => { a['detailedInformation-axleWeight4'] = v; }),
  canTachographOverspeed: setInt((a, v) => { a.tachographOverspeed = v; }),
  canTachographMotion: setInt((a, v) => { a.tachographMotion = v; }),
  canTachographDirection: setInt((a, v) => { a['detailedInformation-tachographDrivingDirection'] = v; }),
  canPedalBrakingFactor: setInt((a, v) => { a.pedalBrakingFactor = v; }),
  canEngineBrakingFactor: setInt((a, v) => { a.engineBrakingFactor = v; }),
  canKickdowns: setInt((a, v) => { a['expansionInformation-kickdownCounter'] = v; }),
  canEffectiveEngineSpeedTime: setNum((a, v) => { a.effectiveEngineSpeedTime = v; }, 3600, 0),
  canCruiseControlTime: setNum((a, v) => { a.cruiseControlTime = v; }, 3600, 0),
  canKickdownTime: setNum((a, v) => { a.kickdownTime = v; }, 3600, 0),
  canBrakeApplications: setInt((a, v) => { a['expansionInformation-brakeApplications'] = v; }),
  canDriver1Card: setStr((a, v) => { a.tachographDriver1Card = v; }, /^[ -~]+$/),
  canDriver2Card: setStr((a, v) => { a.tachographDriver2Card = v; }, /^[ -~]+$/),
  canDriver1Name: setStr((a, v) => { a.tachographDriver1Name = v; }, /^[ -~]+$/),
  canDriver2Name: setStr((a, v) => { a.tachographDriver2Name = v; }, /^[ -~]+$/),
  canRegistration: setStr((a, v) => { a.registration = v; }, /^[ -~]+$/),
  canExpansionInformation: setStr((a, v) => { a.expansionInformation = v; }, /^[0-9A-Fa-f]+$/),
  canRapidBrakings: setInt((a, v) => { a.rapidBrakings = v; }),
  canRapidAccelerations: setInt((a, v) => { a.rapidAccelerations = v; }),
  canEngineTorque: setNum((a, v) => { a['detailedInformation-engineTorque'] = v; }, 1, 2),
  canServiceDistance: canPrefixed('serviceDistance', (a, v) => { a.serviceDistance = v; }, { H: 0.1, '': 1 }),
  canAmbientTemperature: setNum((a, v) => { a['detailedInformation-ambientTemperature'] = v; }, 1, 2),
  canDtcCodes: setStr((a, v) => { a.dtcCodes = v; }, /^[ -~]+$/),
  canGaseousFuelLevel: canPrefixed('gaseousFuelLevel', (a, v) => { a.gaseousFuelLevel = v; }, { P: 1, '': 1 }),
  canTachographInfoExpand: setStr((a, v) => { a.tachographInfoExpand = v; }, /^[0-9A-Fa-f]+$/),
  canRetarderUsage: setNum((a, v) => { a.retarderUsage = v; }, 1, 2),
  canPowerMode: setInt((a, v) => { a.powerMode = v; }),
  canTachographTimestamp: setStr((a, v) => { a.tachographTimestamp = v; }, /^[ -~]+$/),
};

/** Apply a named field; empty raw values are absent. */
export function applyField(name: string, raw: string, attrs: Attrs): void {
  if (raw === '') return;
  const fn = FIELDS[name];
  if (!fn) throw new Error(`layout names unknown field ${name}`);
  fn(raw, attrs, name);
}
