// Camera alarm catalogue (catalogues 3.8). The data lives in metadata/catalogos/camera-alarmes.yaml
// (code -> key, pt-BR label, risk) and camera-parametros.yaml (device status s1..s4).
import { getCatalog, type RiskLevel } from '../catalog.ts';

export type { RiskLevel };

export interface CameraAlarm {
  code: number;
  key: string;
  /** pt-BR label; "" for unknown codes. */
  label: string;
  /** null for unknown codes (risk not known). */
  risk: RiskLevel | null;
  /** true when the code is not in the catalogue: kept and reported, never dropped. */
  unknown: boolean;
}

let table: Map<number, CameraAlarm> | undefined;

function alarms(): Map<number, CameraAlarm> {
  if (!table) {
    table = new Map();
    for (const e of getCatalog('camera-alarmes')?.entries ?? []) {
      const code = Number(e.code);
      table.set(code, { code, key: e.event, label: e.description, risk: e.risk ?? null, unknown: false });
    }
  }
  return table;
}

/** All catalogued alarms, by code. */
export function listCameraAlarms(): CameraAlarm[] {
  return [...alarms().values()].sort((a, b) => a.code - b.code);
}

/** Look a code up; unknown codes come back as `unknown_{code}` flagged unknown. */
export function lookupCameraAlarm(code: number | string): CameraAlarm {
  const n = typeof code === 'number' ? code : Number(String(code).trim());
  const hit = Number.isInteger(n) ? alarms().get(n) : undefined;
  if (hit) return { ...hit };
  const raw = Number.isInteger(n) ? String(n) : String(code).replace(/[^A-Za-z0-9_]/g, '_');
  return { code: Number.isInteger(n) ? n : NaN, key: `unknown_${raw}`, label: '', risk: null, unknown: true };
}

/** Map a list of codes, keeping every one (unknown included) in order. */
export function lookupCameraAlarms(codes: (number | string)[]): CameraAlarm[] {
  return codes.map(lookupCameraAlarm);
}

/** Camera device status s1..s4: value 1 means on. Missing or other values are off. */
export type CameraStatus = { s1: boolean; s2: boolean; s3: boolean; s4: boolean };

export function decodeCameraStatus(values: Partial<Record<'s1' | 's2' | 's3' | 's4', number | string>>): CameraStatus {
  const on = (v: number | string | undefined) => v !== undefined && Number(v) === 1;
  return { s1: on(values.s1), s2: on(values.s2), s3: on(values.s3), s4: on(values.s4) };
}
