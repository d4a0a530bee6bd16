// Turns the field tables of ./layout.ts into one straight-line reader function per message type, once at load.
// Why: a generic loop over FieldDef (keyed stores, per-field lookups) decodes ~4x slower than code with
// constant offsets and property names. The tables stay the single source; only trusted constants reach the source text.
import { type BlockRef, type FieldDef, fieldSize } from './layout.ts';

export type Value = number | string | boolean;

export class ReadError extends Error {
  constructor(readonly code: 'TRUNCATED' | 'MALFORMED', message: string) {
    super(message);
  }
}

/** Reads the blocks from `off` up to `end`; attributes go to `out`, internal fields to `rec`. Returns the next offset. */
export type BlockReader = (buf: Buffer, off: number, end: number, out: Record<string, Value>, rec: Record<string, number>) => number;

const ALL_ONES: Record<string, number> = { u8: 0xff, u16: 0xffff, u32: 0xffffffff };
const q = (s: string) => JSON.stringify(s);

function readExpr(f: FieldDef): string {
  switch (f.kind) {
    case 'u8': return 'buf[o]';
    case 'i8': return '(buf[o] << 24 >> 24)';
    case 'u16': return '(buf[o] << 8 | buf[o + 1])';
    case 'u32': return '(buf[o] * 16777216 + (buf[o + 1] << 16 | buf[o + 2] << 8 | buf[o + 3]))';
    default: throw new Error(`kind sem leitura numérica: ${f.kind}`);
  }
}

/** Source of one field: bounds check (throw, or `return o` when lenient), read, store, advance. */
function fieldSource(f: FieldDef, lenient: boolean): string {
  const size = fieldSize(f);
  const name = q(f.name);
  const lines: string[] = [
    lenient ? `if (o + ${size} > end) return o;` : `if (o + ${size} > end) throw trunc(${name}, o + ${size} - end);`,
  ];
  switch (f.kind) {
    case 'volt2':
      lines.push(`t = buf[o + 1]; if (t > 9) throw tenths(${name}, t);`, `out[${name}] = (buf[o] * 10 + t) / 10;`);
      break;
    case 'tenths':
      lines.push(`t = buf[o]; if (t > 9) throw tenths(${name}, t);`, `out[${name}] = (Math.round(out[${name}] * 10) + t) / 10;`);
      break;
    case 'hex':
      lines.push(`s = buf.toString('hex', o, o + ${size});`, f.zeroAbsent ? `if (!zeros(s)) out[${name}] = s;` : `out[${name}] = s;`);
      break;
    default: {
      lines.push(`v = ${readExpr(f)};`);
      if (f.max !== undefined) lines.push(`if (v > ${f.max}) throw bound(${name}, v, ${f.max});`);
      if (f.internal) {
        lines.push(`rec[${name}] = v;`);
        break;
      }
      if (f.allOnesZero) lines.push(`if (v === ${ALL_ONES[f.kind]}) v = 0;`);
      if (f.bits) {
        f.bits.forEach((b, i) => {
          if (b) lines.push(`out[${q(`${f.prefix ?? ''}${b}`)}] = (v & ${2 ** i}) !== 0;`);
        });
        if (f.keepRaw) lines.push(`out[${name}] = v;`);
      } else if (f.scale) {
        const pow = 10 ** Math.max(0, Math.ceil(-Math.log10(f.scale)));
        lines.push(`out[${name}] = Math.round(v * ${Math.round(f.scale * pow * 1e9) / 1e9}) / ${pow};`);
      } else {
        lines.push(`out[${name}] = v;`);
      }
    }
  }
  lines.push(`o += ${size};`);
  return lines.join('\n');
}

/** Flag byte read in reverse bit order: bit 7 announces fields[0]; unused low bits must be 0. */
function optionalSource(fields: FieldDef[]): string {
  if (fields.length > 8) throw new Error('no máximo 8 campos opcionais');
  const unused = (1 << (8 - fields.length)) - 1;
  const parts = [
    `if (o >= end) throw trunc("flags", 1);`,
    `t = buf[o++];`,
    unused ? `if (t & ${unused}) throw reservedFlags(t);` : '',
  ];
  fields.forEach((f, i) => parts.push(`if (t & ${1 << (7 - i)}) {\n${fieldSource(f, false)}\n}`));
  return parts.join('\n');
}

const helpers = {
  trunc: (name: string, missing: number) => new ReadError('TRUNCATED', `${name}: faltam ${missing} bytes`),
  bound: (name: string, v: number, max: number) => new ReadError('MALFORMED', `${name}: ${v} > ${max}`),
  tenths: (name: string, t: number) => new ReadError('MALFORMED', `${name}: décimos ${t} > 9`),
  reservedFlags: (t: number) => new ReadError('MALFORMED', `campos opcionais: bits reservados ligados (0x${t.toString(16).padStart(2, '0')})`),
  zeros: (s: string) => /^0*$/.test(s),
};

/** Compile a message type's block list into a reader. `optional` is the flag-byte block; `x?` = lenient block. */
export function compileBlocks(blocks: BlockRef[], tables: Record<string, FieldDef[]>, optionalFields: FieldDef[]): BlockReader {
  const body: string[] = [];
  for (const ref of blocks) {
    if (ref === 'optional') { body.push(optionalSource(optionalFields)); continue; }
    const lenient = ref.endsWith('?');
    const fields = tables[lenient ? ref.slice(0, -1) : ref];
    if (!fields) throw new Error(`bloco desconhecido: ${ref}`);
    // a lenient block ends the reader at the first field that does not fit, so it must be the last block
    if (lenient && ref !== blocks[blocks.length - 1]) throw new Error(`bloco ${ref} deve ser o último`);
    for (const f of fields) body.push(fieldSource(f, lenient));
  }
  const src = `"use strict";\nlet o = off, v = 0, t = 0, s = '';\n${body.join('\n')}\nreturn o;`;
  const make = new Function('trunc', 'bound', 'tenths', 'reservedFlags', 'zeros',
    `return function read(buf, off, end, out, rec) {\n${src}\n};`);
  return make(helpers.trunc, helpers.bound, helpers.tenths, helpers.reservedFlags, helpers.zeros) as BlockReader;
}

/** Names of the internal fields of all tables (the decoder's per-frame record starts with all of them). */
export function internalNames(tables: FieldDef[][]): string[] {
  return [...new Set(tables.flat().filter((f) => f.internal).map((f) => f.name))];
}
