// Cross-field checks of an entity: rules (when → limits) and compare (field op other).
import type { CompareMeta, CompareOp, FieldMeta, RuleMeta } from '../../../shared/model.ts';
import type { Err } from '../types.ts';
import type { RawEntity } from './raw.ts';

const COMPARE_OPS: CompareOp[] = ['gt', 'gte', 'lt', 'lte', 'contains'];
// Comparable families: numbers with numbers, dates/datetimes with each other, times with times.
const family = (t: string) => (t === 'integer' || t === 'number' ? 'n' : t === 'date' || t === 'datetime' ? 'd' : t === 'time' ? 't' : undefined);

export function compare(raw: NonNullable<RawEntity['compare']>, byName: Map<string, FieldMeta>, err: Err): CompareMeta[] {
  return raw.map((c, i) => {
    const ops = COMPARE_OPS.filter((o) => c[o] !== undefined);
    if (ops.length !== 1) err(`/compare/${i}`, 'declare exatamente um de gt, gte, lt, lte, contains');
    const op = ops[0] ?? 'gt';
    const other = String(c[op] ?? '');
    for (const [k, name] of [['field', c.field], [op, other]] as const) {
      const f = byName.get(name);
      if (!f) err(`/compare/${i}/${k}`, `campo desconhecido: ${name}`);
      else if (f.system || f.readOnly || f.hidden) err(`/compare/${i}/${k}`, `deve ser um campo editável: ${name}`);
      else if (op !== 'contains' && !family(f.type)) err(`/compare/${i}/${k}`, `deve ser um campo integer, number, date, datetime ou time: ${name}`);
    }
    const a = byName.get(c.field), b = byName.get(other);
    if (op === 'contains') {
      if (a && a.type !== 'referenceList') err(`/compare/${i}/field`, `contains exige um campo referenceList: ${c.field}`);
      if (b && a?.type === 'referenceList' && (b.type !== 'reference' || b.reference !== a.reference)) err(`/compare/${i}/contains`, `contains exige uma referência ao mesmo cadastro de ${c.field}: ${other}`);
    } else if (a && b && family(a.type) && family(b.type) && family(a.type) !== family(b.type)) err(`/compare/${i}/${op}`, `tipos não comparáveis: ${a.type} e ${b.type}`);
    if (c.field === other) err(`/compare/${i}/${op}`, 'compare um campo com outro');
    return { field: c.field, op, other, message: c.message };
  });
}

export function rules(raw: RuleMeta[], byName: Map<string, FieldMeta>, err: Err): RuleMeta[] {
  raw.forEach((r, i) => {
    for (const k of Object.keys(r.when)) if (!byName.has(k)) err(`/rules/${i}/when/${k}`, `campo desconhecido: ${k}`);
    for (const [k, lim] of Object.entries(r.then)) {
      const f = byName.get(k);
      if (!f) err(`/rules/${i}/then/${k}`, `campo desconhecido: ${k}`);
      else if (f.type !== 'integer' && f.type !== 'number') err(`/rules/${i}/then/${k}`, `deve ser um campo integer ou number: ${k}`);
      if (lim.min !== undefined && lim.max !== undefined && lim.min > lim.max) err(`/rules/${i}/then/${k}/min`, 'min maior que max');
    }
  });
  return raw.map((r) => ({ when: r.when, then: r.then, message: r.message }));
}
