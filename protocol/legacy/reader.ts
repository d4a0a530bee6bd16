// Small table-driven reader over a Buffer: reads a list of FieldDef, never throws.
import { type FieldDef, fieldSize } from './layout.ts';

export type Value = number | string | boolean;

export class ReadError extends Error {
  constructor(readonly code: 'TRUNCATED' | 'MALFORMED', message: string) {
    super(message);
  }
}

/** Read one field at offset (bounds already checked by the caller). */
function readRaw(buf: Buffer, off: number, f: FieldDef): number | string {
  switch (f.kind) {
    case 'u8': return buf[off];
    case 'i8': return buf[off] >= 0x80 ? buf[off] - 0x100 : buf[off];
    case 'u16': return buf[off] * 0x100 + buf[off + 1];
    case 'u32': return buf.readUInt32BE(off);
    case 'sm32': {
      const v = buf.readUInt32BE(off);
      const mag = v & 0x7fffffff;
      return v >= 0x80000000 ? -mag : mag;
    }
    case 'volt2': {
      if (buf[off + 1] > 9) throw new ReadError('MALFORMED', `${f.name}: tenths ${buf[off + 1]} > 9`);
      return Math.round((buf[off] + buf[off + 1] / 10) * 10) / 10;
    }
    case 'hex': return buf.toString('hex', off, off + fieldSize(f));
  }
}

const ALL_ONES: Record<string, number> = { u8: 0xff, u16: 0xffff, u32: 0xffffffff };

// Per-field precomputed data (bit attribute keys, rounding factor), built once per FieldDef.
const prepared = new WeakMap<FieldDef, { keys?: (string | null)[]; pow: number }>();
function prep(f: FieldDef) {
  let p = prepared.get(f);
  if (!p) {
    p = {
      keys: f.bits?.map((b) => (b ? `${f.prefix ?? ''}${b}` : null)),
      pow: f.scale ? 10 ** Math.max(0, Math.ceil(-Math.log10(f.scale))) : 1,
    };
    prepared.set(f, p);
  }
  return p;
}

/** raw * scale, keeping only the decimals of the scale (avoids 12.600000000000001). */
function scaled(raw: number, f: FieldDef): number {
  const { pow } = prep(f);
  return Math.round(raw * (f.scale as number) * pow) / pow;
}

/**
 * Read a field into `out`: bit fields expand to one boolean per named bit, others to one value.
 * Returns the next offset. Throws ReadError (caught by the decoder) on truncation or bad values.
 */
export function readField(buf: Buffer, off: number, f: FieldDef, out: Record<string, Value>, internal: Record<string, Value> = out): number {
  const size = fieldSize(f);
  if (off + size > buf.length) throw new ReadError('TRUNCATED', `${f.name}: need ${size} bytes at ${off}, have ${buf.length - off}`);
  let raw = readRaw(buf, off, f);
  if (typeof raw === 'number') {
    if (f.min !== undefined && raw < f.min) throw new ReadError('MALFORMED', `${f.name}: ${raw} < ${f.min}`);
    if (f.max !== undefined && raw > f.max) throw new ReadError('MALFORMED', `${f.name}: ${raw} > ${f.max}`);
    if (f.allOnesZero && raw === ALL_ONES[f.kind]) raw = 0;
  }
  if (f.bits) {
    const n = raw as number;
    const keys = prep(f).keys as (string | null)[];
    for (let i = 0; i < keys.length; i++) if (keys[i]) out[keys[i] as string] = ((n >>> i) & 1) === 1;
  } else if (f.zeroAbsent && typeof raw === 'string' && /^0*$/.test(raw)) {
    // absent: leave empty
  } else {
    (f.internal ? internal : out)[f.name] = typeof raw === 'number' && f.scale ? scaled(raw, f) : raw;
  }
  return off + size;
}

/** Read fields in order; `internal` fields go to `internal` (default: `out`). */
export function readFields(buf: Buffer, off: number, fields: FieldDef[], out: Record<string, Value>, internal: Record<string, Value> = out): number {
  for (const f of fields) off = readField(buf, off, f, out, internal);
  return off;
}

/**
 * Optional fields: the flag byte is read in reverse bit order, so bit 7 announces fields[0],
 * bit 6 fields[1] ... Only announced fields are present in the body (in table order).
 */
export function readOptional(buf: Buffer, off: number, fields: FieldDef[], out: Record<string, Value>): number {
  if (off >= buf.length) throw new ReadError('TRUNCATED', 'optional: missing flag byte');
  const flags = buf[off++];
  for (let bit = fields.length; bit < 8; bit++) {
    if ((flags >> (7 - bit)) & 1) throw new ReadError('MALFORMED', `optional: reserved flag bit ${7 - bit} set`);
  }
  fields.forEach((f, i) => {
    if ((flags >> (7 - i)) & 1) off = readField(buf, off, f, out);
  });
  return off;
}

// ---- Writers (for the encoder and for tests building frames) ----------------------------------

export function writeUInt(value: number, size: number): number[] {
  const out: number[] = [];
  for (let i = size - 1; i >= 0; i--) out.push(Math.floor(value / 2 ** (8 * i)) & 0xff);
  return out;
}
