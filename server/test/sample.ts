// Valid sample values for the conformance suite: a string matching a field's `pattern` (the subset of regular
// expressions the metadata uses: anchors, groups with |, classes, \d \s \S \w, ? * + {n} {n,m}), unique per call.
// Choices are driven by a counter (first positions vary fastest), so successive values differ deterministically.
import crypto from 'node:crypto';
import type { FieldMeta } from '../../shared/model.ts';

type Node =
  | { t: 'chars'; set: string[] }
  | { t: 'group'; alts: Node[][] }
  | { t: 'rep'; node: Node; min: number; max: number };

const range = (a: string, b: string) => Array.from({ length: b.charCodeAt(0) - a.charCodeAt(0) + 1 }, (_, i) => String.fromCharCode(a.charCodeAt(0) + i));
const UPPER = range('A', 'Z'), LOWER = range('a', 'z'), DIGIT = range('0', '9');
const ESC: Record<string, string[]> = { d: DIGIT, s: [' '], S: [...UPPER, ...LOWER, ...DIGIT], w: [...LOWER, ...UPPER, ...DIGIT, '_'] };

function parse(src: string): Node[][] {
  let i = 0;
  const seq = (): Node[][] => {
    const alts: Node[][] = [[]];
    while (i < src.length && src[i] !== ')') {
      const c = src[i++];
      let node: Node | undefined;
      if (c === '^' || c === '$') continue;
      if (c === '|') { alts.push([]); continue; }
      if (c === '(') { if (src.startsWith('?:', i)) i += 2; node = { t: 'group', alts: seq() }; i++; }
      else if (c === '[') {
        const set: string[] = [];
        while (src[i] !== ']') {
          let ch = src[i++];
          if (ch === '\\') { const e = src[i++]; if (ESC[e]) { set.push(...ESC[e]); continue; } ch = e; }
          if (src[i] === '-' && src[i + 1] !== ']') { set.push(...range(ch, src[i + 1])); i += 2; } else set.push(ch);
        }
        i++;
        node = { t: 'chars', set };
      } else if (c === '\\') { const e = src[i++]; node = { t: 'chars', set: ESC[e] ?? [e] }; }
      else if (c === '.') node = { t: 'chars', set: LOWER };
      else node = { t: 'chars', set: [c] };
      const q = src[i];
      if (q === '?' || q === '*' || q === '+') { i++; node = { t: 'rep', node, min: q === '+' ? 1 : 0, max: q === '?' ? 1 : Infinity }; }
      else if (q === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i))!;
        i += m[0].length;
        node = { t: 'rep', node, min: Number(m[1]), max: m[2] ? (m[3] ? Number(m[3]) : Infinity) : Number(m[1]) };
      }
      alts[alts.length - 1].push(node);
    }
    return alts;
  };
  return seq();
}

/** A string matching `pattern`; `n` picks the choices (different n, different strings where the pattern allows);
 *  unbounded repetitions (+ * {n,}) repeat `open` times (at least their minimum). */
export function fromPattern(pattern: string, n: number, open = 1): string {
  let rest = n;
  const pick = (k: number) => { const v = rest % k; rest = Math.floor(rest / k); return v; };
  const gen = (alts: Node[][]): string => alts[0].length === 0 && alts.length === 1 ? '' : alts[pick(alts.length)].map(one).join('');
  const one = (node: Node): string => {
    if (node.t === 'chars') return node.set[pick(node.set.length)];
    if (node.t === 'group') return gen(node.alts);
    // Optional parts are present (they carry most of a formatted value); a bounded repetition takes its minimum.
    const count = node.max === Infinity ? Math.max(node.min, open) : node.max === 1 && node.min === 0 ? 1 : Math.max(node.min, 1);
    return Array.from({ length: count }, () => one(node.node)).join('');
  };
  return gen(parse(pattern));
}

/** Makes a sample row satisfy its entity's cross-field comparisons (metadata compare): a list lacking the value it must
 *  contain gets it; where a comparison fails, the greater
 *  side becomes the lesser one moved up (a number +1, a date +1 day, a date-time +1 hour, a time '08:00' → '18:00'). */
export function satisfyCompare(compare: { field: string; op: 'gt' | 'gte' | 'lt' | 'lte' | 'contains'; other: string }[] | undefined, row: Record<string, unknown>): void {
  for (const c of compare ?? []) {
    if (c.op === 'contains') {
      const list = row[c.field], v = row[c.other];
      if (v !== undefined && v !== null && Array.isArray(list) && !list.some((x) => String(x) === String(v))) row[c.field] = [...list, v];
      continue;
    }
    const [hi, lo] = c.op === 'gt' || c.op === 'gte' ? [c.field, c.other] : [c.other, c.field];
    const a = row[hi], b = row[lo];
    if (a === undefined || a === null || b === undefined || b === null) continue;
    const key = (v: unknown) => (v instanceof Date ? v.getTime() : typeof v === 'number' ? v : /^\d{4}-\d{2}-\d{2}/.test(String(v)) ? Date.parse(String(v)) : String(v));
    if (key(a) > key(b)) continue;
    if (typeof b === 'number') row[hi] = b + 1;
    else if (b instanceof Date || /T/.test(String(b))) row[hi] = new Date(new Date(b as string | Date).getTime() + 3_600_000);
    else if (/^\d{4}-\d{2}-\d{2}$/.test(String(b))) row[hi] = new Date(Date.parse(String(b)) + 86_400_000).toISOString().slice(0, 10);
    else { row[lo] = '08:00'; row[hi] = '18:00'; }
  }
}

/** Sample values for an entity's fields: valid for the field (pattern, format, limits) and different on every call
 *  of the same sampler (unique fields). Shared by the conformance suite and the every-screen browser test. */
export function createSampler(): (f: FieldMeta) => unknown {
  let seq = 0;
  const seen = new Set<string>();
  return function sample(f: FieldMeta): unknown {
    const n = seq++;
    const tok = crypto.randomBytes(6).toString('hex');
    switch (f.type) {
      case 'string': case 'file': case 'image': case 'password': {
        if (f.lookup && f.default !== undefined) return f.default; // a code of its register (metadata lookup)
        if (f.format === 'email') return `t${tok}@exemplo.com.br`;
        if (f.format === 'uri') return `https://exemplo.com.br/${tok}`;
        if (!f.pattern) return `t${tok}`.slice(0, Math.max(f.minLength ?? 1, Math.min(f.maxLength ?? 20, 20)));
        // Upper-cased fields compare without case: skip values already given in another case.
        // Unbounded repetitions grow until the value fits minLength (and stay within maxLength).
        for (let k = n; ; k += 7) {
          const v = [1, 2, 3, 5, 8, 13].map((open) => fromPattern(f.pattern!, k, open)).find((x) => x.length >= (f.minLength ?? 0) && x.length <= (f.maxLength ?? Infinity));
          if (v === undefined) throw new Error(`${f.name}: no sample of ${f.pattern} fits the length limits`);
          const id = `${f.column}:${f.upperCase ? v.toUpperCase() : v}`;
          if (!seen.has(id)) { seen.add(id); return v; }
        }
      }
      case 'text': return `texto ${tok}`;
      case 'integer': case 'number': {
        const min = f.min ?? 1, max = f.max ?? min + 1_000_000;
        const v = min + ((1000 + n) % (max - min + 1));
        return f.type === 'number' ? v + 0.5 : v;
      }
      case 'boolean': return f.default ?? true;
      case 'date': return new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10);
      case 'datetime': return new Date();
      case 'time': return `${String(n % 24).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
      case 'enum': return f.options?.[0]?.value;
      case 'referenceList': return [];
      case 'json':
        if (f.widget === 'questionnaire') return [{ id: 'q1', tipo: 'TEXT', pergunta: `Pergunta ${tok}` }];
        if (f.widget === 'answers') return [];
        return f.items ? [] : {};
      default: return null;
    }
  };
}
