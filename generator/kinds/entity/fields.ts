// Entity fields: system fields, declared fields with their per-type rules, lookups, and the form sections.
import type { EntityMeta, FieldMeta, FieldType, FormSection, Scope } from '../../../shared/model.ts';
import type { Err } from '../types.ts';
import type { Known, RawEntity, RawField } from './raw.ts';

export const SYSTEM_FIELDS = ['id', 'empresaId', 'ambienteId', 'createdAt', 'updatedAt'];
const STRING_TYPES: FieldType[] = ['string', 'text', 'password', 'file', 'image'];

export const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

export function field(f: RawField, system = false): FieldMeta {
  const out: FieldMeta = {
    name: f.name, column: snake(f.name), type: f.type, label: f.label,
    required: f.required ?? false, unique: f.unique ?? false,
  } as FieldMeta;
  const optional = ['uniqueGlobal', 'caseInsensitive', 'uniqueWhileEmpty', 'min', 'max', 'minLength', 'maxLength', 'pattern', 'format', 'patternMessage'] as const;
  for (const k of optional) if (f[k] !== undefined) (out as any)[k] = f[k];
  out.upperCase = f.upperCase ?? false;
  for (const k of ['options', 'items', 'optionsFrom', 'widget', 'reference', 'onDelete', 'help', 'rangeMessage', 'zeroDisables', 'default', 'secretToken', 'secretUrl', 'upload', 'pick', 'lookup', 'narrow', 'map', 'example'] as const) {
    if (f[k] !== undefined) (out as any)[k] = f[k];
  }
  out.readOnly = f.readOnly ?? false;
  out.hidden = f.hidden ?? false;
  out.writeOnly = f.writeOnly ?? false;
  out.system = system;
  return out;
}

function systemFields(scope: Scope): { head: FieldMeta[]; tail: FieldMeta[] } {
  const sys = (f: RawField) => field({ readOnly: true, ...f }, true);
  const head = [sys({ name: 'id', type: 'integer', label: 'ID', required: true })];
  if (scope === 'empresa') head.push(sys({ name: 'empresaId', type: 'reference', reference: 'empresa', label: 'Empresa', required: true }));
  if (scope === 'ambiente') head.push(sys({ name: 'ambienteId', type: 'reference', reference: 'ambiente', label: 'Ambiente', required: true }));
  const tail = [
    sys({ name: 'createdAt', type: 'datetime', label: 'Criado em', required: true }),
    sys({ name: 'updatedAt', type: 'datetime', label: 'Atualizado em', required: true }),
  ];
  return { head, tail };
}

export interface EntityFields {
  head: FieldMeta[]; tail: FieldMeta[]; declared: FieldMeta[]; fields: FieldMeta[];
  byName: Map<string, FieldMeta>; known: Known;
}

/** System fields first (id, then empresaId/ambienteId), the declared ones, then createdAt/updatedAt; checks each. */
export function entityFields(raw: RawEntity, err: Err): EntityFields {
  const { head, tail } = systemFields(raw.scope);
  const declared = raw.fields.map((f) => field(f));
  const fields = [...head, ...declared, ...tail];
  const byName = new Map<string, FieldMeta>();
  raw.fields.forEach((f, i) => {
    if (SYSTEM_FIELDS.includes(f.name)) err(`/fields/${i}/name`, `"${f.name}" é um campo de sistema (gerado automaticamente)`);
    else if (byName.has(f.name)) err(`/fields/${i}/name`, `campo "${f.name}" repetido`);
    const isStr = STRING_TYPES.includes(f.type);
    if ((f.min !== undefined || f.max !== undefined) && f.type !== 'integer' && f.type !== 'number')
      err(`/fields/${i}`, 'min/max valem só para campos integer ou number');
    if ((f.maxLength !== undefined || f.minLength !== undefined || f.pattern !== undefined || f.upperCase !== undefined || f.format !== undefined) && !isStr)
      err(`/fields/${i}`, 'minLength/maxLength/pattern/format/upperCase valem só para campos de texto');
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) err(`/fields/${i}/min`, 'min maior que max');
    if (f.upload !== undefined && f.type !== 'file') err(`/fields/${i}/upload`, 'upload vale só para campos file');
    if ((f.rangeMessage !== undefined || f.zeroDisables !== undefined) && f.type !== 'integer' && f.type !== 'number')
      err(`/fields/${i}`, 'rangeMessage/zeroDisables valem só para campos integer ou number');
    if (f.zeroDisables && !(f.min !== undefined && f.min > 0)) err(`/fields/${i}/zeroDisables`, 'zeroDisables exige min maior que 0');
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) err(`/fields/${i}/minLength`, 'minLength maior que maxLength');
    if (f.patternMessage !== undefined && f.pattern === undefined) err(`/fields/${i}/patternMessage`, 'patternMessage sem pattern');
    if (f.options) {
      const values = f.options.map((o) => o.value);
      if (new Set(values).size !== values.length) err(`/fields/${i}/options`, 'valores repetidos');
      if (f.type === 'enum' && f.default !== undefined && !values.includes(f.default as string))
        err(`/fields/${i}/default`, `deve ser um de: ${values.join(', ')}`);
      if (f.type === 'json' && !f.items) err(`/fields/${i}`, 'options em campo json exige items: string');
    }
    if (f.optionsFrom && f.items !== 'string') err(`/fields/${i}`, 'optionsFrom exige items: string');
    if (f.pick && f.type !== 'referenceList') err(`/fields/${i}/pick`, 'pick vale só para campos referenceList');
    if (f.pick?.colorSecond && !f.pick.secondLabel) err(`/fields/${i}/pick/colorSecond`, 'colorSecond exige secondLabel');
    if (f.narrow && f.type !== 'reference' && f.type !== 'referenceList') err(`/fields/${i}/narrow`, 'narrow vale só para campos reference e referenceList');
    if (f.lookup && f.type !== 'string') err(`/fields/${i}/lookup`, 'lookup vale só para campos string');
    if (f.widget === 'code' ? f.type !== 'text' : f.widget && (f.type !== 'json' || f.items || f.options)) {
      err(`/fields/${i}/widget`, f.widget === 'code' ? 'widget code vale só para campos text' : 'widget vale só para campos json sem items/options');
    }
    if (f.map) {
      if (f.type !== 'geometry') err(`/fields/${i}/map`, 'map vale só para campos geometry');
      const other = (n: string | undefined, what: string, ok: (x: RawField) => boolean) => {
        if (n === undefined) return;
        const x = raw.fields.find((y) => y.name === n);
        if (!x || !ok(x)) err(`/fields/${i}/map/${what}`, `${what} deve ser um campo ${what === 'kindField' ? 'enum' : what === 'radiusField' ? 'integer ou number' : 'string'} desta entidade: ${n}`);
        if (what === 'kindField' && x?.options) {
          const missing = x.options.map((o) => o.value).filter((v) => !(v in f.map!.kinds));
          if (missing.length) err(`/fields/${i}/map/kinds`, `faltam os valores de ${n}: ${missing.join(', ')}`);
        }
      };
      other(f.map.kindField, 'kindField', (x) => x.type === 'enum');
      other(f.map.radiusField, 'radiusField', (x) => x.type === 'integer' || x.type === 'number');
      other(f.map.colorField, 'colorField', (x) => x.type === 'string');
      if (!f.map.radiusField && Object.values(f.map.kinds).some((k) => k === 'Circle' || k === 'Corridor')) err(`/fields/${i}/map/radiusField`, 'Circle e Corridor exigem radiusField');
    }
    if (f.uniqueGlobal && !f.unique) err(`/fields/${i}/uniqueGlobal`, 'uniqueGlobal exige unique: true');
    if (f.uniqueWhileEmpty) {
      if (f.unique) err(`/fields/${i}/uniqueWhileEmpty`, 'uniqueWhileEmpty não combina com unique: true');
      if (!declared.some((x) => x.name === f.uniqueWhileEmpty && !x.required)) err(`/fields/${i}/uniqueWhileEmpty`, `deve ser um campo opcional desta entidade: ${f.uniqueWhileEmpty}`);
    }
    if (f.caseInsensitive && (!f.unique || !['string', 'text'].includes(f.type))) err(`/fields/${i}/caseInsensitive`, 'caseInsensitive exige unique: true em campo de texto');
    byName.set(f.name, declared[i]);
  });
  for (const f of [...head, ...tail]) byName.set(f.name, f);
  const known = (name: string, path: string, what = 'campo') => {
    if (!byName.has(name)) err(path, `${what} desconhecido: ${name}`);
    return byName.get(name);
  };
  return { head, tail, declared, fields, byName, known };
}

/** Form sections (default: one section with every writable field); only visible, non-system fields. */
export function formSections(raw: RawEntity, declared: FieldMeta[], known: Known, err: Err): FormSection[] {
  const writable = declared.filter((f) => !f.readOnly && !f.hidden);
  const sections = raw.form?.sections ?? [{ title: raw.label.singular, fields: writable.map((f) => f.name) }];
  raw.form?.sections.forEach((s, i) => s.fields.forEach((n, j) => {
    const f = known(n, `/form/sections/${i}/fields/${j}`);
    if (f && (f.system || f.hidden)) err(`/form/sections/${i}/fields/${j}`, `campo não editável: ${n}`);
  }));
  return sections;
}

/** A lookup names a register's code field (unique text) and, when narrowed, a field of this entity with its own
 *  lookup and a reference of the register to that field's register. */
export function lookupProblems(e: EntityMeta, f: FieldMeta, byKey: Map<string, EntityMeta>): string[] {
  const l = f.lookup!;
  const target = byKey.get(l.entity);
  if (!target) return [`entidade desconhecida: ${l.entity}`];
  const out: string[] = [];
  const v = target.fields.find((x) => x.name === l.value);
  if (!v || v.type !== 'string' || !v.unique) out.push(`${l.entity}.${l.value} deve ser um campo string unique`);
  if (l.parent) {
    const pf = e.fields.find((x) => x.name === l.parent!.field);
    if (!pf?.lookup) out.push(`parent.field deve ser um campo com lookup de ${e.key}: ${l.parent.field}`);
    const via = target.fields.find((x) => x.name === l.parent!.via);
    if (!via || via.type !== 'reference' || (pf?.lookup && via.reference !== pf.lookup.entity))
      out.push(`parent.via deve ser um campo reference de ${l.entity} para ${pf?.lookup?.entity ?? '?'}: ${l.parent.via}`);
  }
  if (l.inUseWhileEmpty) {
    const w = e.fields.find((x) => x.name === l.inUseWhileEmpty);
    if (!w || w.system || w.required) out.push(`inUseWhileEmpty deve ser um campo opcional de ${e.key}: ${l.inUseWhileEmpty}`);
  }
  return out;
}
