// Headless form state: data, touched fields, pt-BR validation, server field errors, dirty flag.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ErrorSchema } from '@rjsf/utils';
import { validator } from './validator';
import type { JSONSchema7 } from 'json-schema';
import type { EntityMeta } from '../../../../shared/model';
import { buildUiSchema, makeTransformErrors, pickErrors, schemaDefaults, serverErrorSchema, toFormData, withoutPasswordHelp, withoutRules } from './schemaUi';

function mergeErrors(a?: ErrorSchema, b?: ErrorSchema): ErrorSchema | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: Record<string, any> = { ...a };
  for (const [k, v] of Object.entries(b as Record<string, any>)) {
    out[k] = out[k] ? { ...out[k], __errors: [...(out[k].__errors ?? []), ...(v.__errors ?? [])] } : v;
  }
  return out as ErrorSchema;
}

const stable = (o: unknown) => JSON.stringify(o, (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null && x !== '').sort()) : v));

/** record: the saved row (edit); defaults: initial values of a new one (e.g. the parent of a nested list). */
export function useSchemaForm(entity: EntityMeta, schema: JSONSchema7, record?: Record<string, unknown>, defaults?: Record<string, unknown>) {
  const creating = !record;
  const uiSchema = useMemo(() => buildUiSchema(entity, schema, { creating }), [entity, schema, creating]);
  // the form's schema: on the add form, a password's description ('Deixe em branco para manter a senha atual.') does not apply
  // Cross-field rules (allOf if/then) are checked below with the whole schema but kept out of the rendered one: rjsf
  // would merge `then` into the fields (marking them required, dropping their defaults) as the data changes.
  const formSchema = useMemo(() => withoutRules(creating ? withoutPasswordHelp(entity, schema) : schema), [entity, schema, creating]);
  const transformErrors = useMemo(() => makeTransformErrors(entity, schema), [entity, schema]);
  // A new row starts with the schema's defaults, as rjsf shows it: widgets reading other fields of the form (a lookup
  // narrowed by its parent) see them from the first render, not only after rjsf reports its defaults.
  const initial = useMemo(() => (record ? toFormData(record, schema) : { ...schemaDefaults(schema), ...toFormData(defaults, schema) }), [record, defaults, schema]);
  const [data, setData] = useState<Record<string, unknown>>(initial);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const lastInitial = useRef(initial);
  if (lastInitial.current !== initial) {
    // a record (re)loaded: reset the form to it
    lastInitial.current = initial;
    setData(initial);
  }

  const validation = useMemo(
    () => validator.validateFormData(data, schema as any, undefined, transformErrors as any, uiSchema),
    [data, schema, transformErrors, uiSchema],
  );
  const extraErrors = useMemo(
    () => mergeErrors(pickErrors(validation.errorSchema, submitted ? 'all' : touched), serverErrorSchema(serverErrors)),
    [validation, submitted, touched, serverErrors],
  );
  const dirty = stable(data) !== stable(initial);

  const change = useCallback((next: Record<string, unknown>) => {
    setData((prev) => {
      const changed = Object.keys({ ...prev, ...next }).filter((k) => stable(prev[k]) !== stable(next[k]));
      if (changed.length) setServerErrors((se) => Object.fromEntries(Object.entries(se).filter(([k]) => !changed.includes(k))));
      return next;
    });
  }, []);
  // several fields at once from one widget (a map drawing sets the geometry and its radius)
  const patch = useCallback((values: Record<string, unknown>) => {
    setData((prev) => ({ ...prev, ...values }));
    setServerErrors((se) => Object.fromEntries(Object.entries(se).filter(([k]) => !(k in values))));
  }, []);
  const blur = useCallback((id: string) => {
    const name = id.replace(/^root_/, '').split('_')[0];
    setTouched((t) => (t.has(name) ? t : new Set(t).add(name)));
  }, []);
  // true when valid; otherwise shows every error
  const checkAll = useCallback(() => {
    setSubmitted(true);
    return validation.errors.length === 0;
  }, [validation]);

  return {
    data,
    /** the saved row as read (with the labels of its references, LABELS), for the widgets */
    record,
    schema: formSchema,
    uiSchema,
    transformErrors,
    extraErrors,
    errors: validation.errors,
    dirty,
    change,
    patch,
    blur,
    checkAll,
    setServerErrors,
    reset: () => setData(initial),
  };
}
