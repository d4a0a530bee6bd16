// rjsf widgets in react-admin's Material UI look: reference autocomplete, reference chips,
// enum select ('Nenhum resultado'), upper-case, time and JSON inputs.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Autocomplete, FormControlLabel, Switch, TextField, Typography } from '@mui/material';
import type { FieldProps, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { useGetList, useGetMany } from 'react-admin';
import { useParams } from 'react-router-dom';
import { useReferenceResource } from '../lib/params';
import { entityByKey, model } from '../../model';
import { MultiSelect } from '../widgets/MultiSelect';
import { permissionOptions, pickerGroups, type PickOption } from '../lib/pickOptions';
import type { EntityMeta, FieldMeta } from '../../../../shared/model';
import { DateTimeWidget, DateWidget, TimeWidget } from '../widgets/pickers';
import { ImageUploader } from '../widgets/ImageUploader';
import { FileUploader } from '../widgets/FileUploader';
import { QuestionnaireField } from '../widgets/questionnaire';
import { LookupWidget } from '../widgets/lookup';
import { canList, labelMap } from '../lib/labels';
import { useCan } from '../lib/useCan';

import { NO_OPTIONS, ValueSelect, type ValueOption } from '../widgets/ValueSelect';

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function fieldOf(props: WidgetProps | FieldProps): FieldMeta | undefined {
  const name = props.name as string;
  return (props.registry.formContext as any)?.fields?.get(name);
}

type Rec = { id: number | string; [k: string]: unknown };

/** The filter a narrowed reference (metadata narrow) puts on its choices: the referenced rows carrying this row's
 *  values, e.g. an equipment of the list's technology and model. */
export function narrowFilter(f: FieldMeta | undefined, data: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f?.narrow ?? {}).map(([theirs, mine]) => [theirs, data?.[mine] ?? null]));
}
const formData = (props: WidgetProps) => (props.registry.formContext as { data?: Record<string, unknown> } | undefined)?.data;

const NO_LABELS = new Map<string, string>();

function useReferenceOptions(key: string | undefined, input: string, ids: (string | number)[], perPage = 50, debounce = 300, narrow: Record<string, unknown> = {}, known: Map<string, string> = NO_LABELS) {
  const target = key ? entityByKey(key) : undefined;
  const reference = useReferenceResource(key);
  const { can } = useCan();
  // The register's rows are read only by a user who may list them (else 403): the others see the current values by
  // the labels their row brought (server/read LABELS) and cannot choose another.
  const readable = !!reference && canList(target, can);
  const rep = target?.recordRepresentation ?? 'descricao';
  const q = useDebounced(input, debounce);
  const { data = [], total, isPending } = useGetList<Rec>(
    reference ?? 'none',
    { pagination: { page: 1, perPage }, sort: { field: rep, order: 'ASC' }, filter: q ? { ...narrow, q } : narrow },
    { enabled: readable },
  );
  // The chosen rows the row's labels do not name (chosen now) are read by id.
  const unknown = ids.filter((id) => !known.has(String(id)));
  const { data: fetched = [] } = useGetMany<Rec>(reference ?? 'none', { ids: unknown }, { enabled: readable && unknown.length > 0 });
  const label = (r: Rec | undefined) => (r ? String(r[rep] ?? r.id) : '');
  const options = useMemo(() => {
    const m = new Map<string, Rec>();
    for (const id of ids) { const l = known.get(String(id)); if (l !== undefined) m.set(String(id), { id, [rep]: l }); }
    for (const r of [...fetched, ...data]) if (r) m.set(String(r.id), r);
    return [...m.values()];
  }, [data, fetched, ids.join(','), known]); // eslint-disable-line react-hooks/exhaustive-deps
  return { options, label, isPending: readable && isPending, total, readable };
}

/** id → label of the references the edited row names in `f` (the labels it brought). */
const knownLabels = (props: WidgetProps | FieldProps, f: FieldMeta | undefined) =>
  labelMap((props.registry.formContext as { record?: Record<string, unknown> } | undefined)?.record, f);

export function ReferenceWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, label, required, disabled, readonly, rawErrors = [], hideLabel } = props;
  const f = fieldOf(props);
  const [input, setInput] = useState('');
  const ids = value != null && value !== '' ? [value] : [];
  const known = useMemo(() => knownLabels(props, f), [(props.registry.formContext as { record?: unknown } | undefined)?.record, f]); // eslint-disable-line react-hooks/exhaustive-deps
  const { options, label: lbl, isPending, readable } = useReferenceOptions(f?.reference, input, ids, 50, 300, narrowFilter(f, formData(props)), known);
  const current = options.find((o) => String(o.id) === String(value)) ?? null;
  return (
    <Autocomplete
      id={id}
      options={options}
      value={current}
      loading={isPending}
      disabled={disabled || readonly}
      getOptionLabel={(o) => lbl(o)}
      isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
      filterOptions={(o) => o}
      noOptionsText={NO_OPTIONS}
      loadingText="Carregando..."
      onInputChange={(_, v, reason) => reason === 'input' && setInput(v)}
      onChange={(_, v) => onChange(v ? v.id : null)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      renderInput={(params) => (
        <TextField {...params} label={hideLabel ? undefined : label} required={required} error={rawErrors.length > 0}
          helperText={!readable && !isPending ? `Sem acesso ao cadastro de ${entityByKey(f?.reference ?? '')?.label.plural.toLowerCase() ?? 'referências'}: somente o valor atual` : undefined} />
      )}
    />
  );
}

/** Values another field of the form makes mandatory in the list `f` (metadata compare: f contains other). */
export function mandatoryValues(entity: EntityMeta | undefined, f: FieldMeta | undefined, data: Record<string, unknown> | undefined): string[] {
  if (!entity || !f || !data) return [];
  return (entity.compare ?? []).filter((c) => c.op === 'contains' && c.field === f.name).map((c) => data[c.other]).filter((v) => v !== null && v !== undefined && v !== '').map(String);
}

/** A referenced row as a multi-select item: its label, the second label (an enum shows its option's label) and its
 *  colour (metadata pick), mandatory when another field names it. */
export function pickItem(row: Rec, label: string, f: FieldMeta | undefined, obrig: string[]): PickOption {
  const item: PickOption = { value: row.id, label };
  const second = f?.pick?.secondLabel;
  if (second && row[second] !== null && row[second] !== undefined && row[second] !== '') {
    const raw = String(row[second]);
    const target = f?.reference ? entityByKey(f.reference)?.fields.find((x) => x.name === second) : undefined;
    item.secondLabel = target?.options?.find((o) => String(o.value) === raw)?.label ?? raw;
    const c = f!.pick!.colorSecond;
    const colour = typeof c === 'string' ? c : c?.[raw];
    if (colour) item.colorSecond = colour;
  }
  if (obrig.includes(String(row.id))) item.obrig = true;
  return item;
}

const PICKER_PAGE = 200;

/** A list of rows of a register with a picker (metadata picker, e.g. the assets): the server searches (its search
 *  fields) and returns the first 200; the dialog groups them by the groupBy reference or lists them flat. */
function PickerListWidget(props: WidgetProps & { f: FieldMeta; value: (string | number)[]; obrig: string[] }) {
  const { f, value, obrig } = props;
  const target = entityByKey(f.reference!)!;
  const picker = target.picker!;
  const [query, setQuery] = useState('');
  const [grouped, setGrouped] = useState(true);
  const known = useMemo(() => knownLabels(props, f), [(props.registry.formContext as { record?: unknown } | undefined)?.record, f]); // eslint-disable-line react-hooks/exhaustive-deps
  const { options, label: lbl, isPending, total } = useReferenceOptions(f.reference, query, value, PICKER_PAGE, 300, narrowFilter(f, formData(props)), known);
  const groupField = target.fields.find((x) => x.name === picker.groupBy)!;
  const groupIds = useMemo(() => [...new Set(options.map((o) => o[picker.groupBy]).filter((v) => v != null))] as (string | number)[], [options]); // eslint-disable-line react-hooks/exhaustive-deps
  const groupResource = useReferenceResource(groupField.reference);
  const { can } = useCan();
  const { data: groupRows = [] } = useGetMany<Rec>(groupResource ?? 'none', { ids: groupIds }, { enabled: !!groupResource && groupIds.length > 0 && canList(entityByKey(groupField.reference!), can) });
  const groupRep = entityByKey(groupField.reference!)?.recordRepresentation ?? 'descricao';
  const pick = useMemo(() => {
    const names = new Map(groupRows.map((g) => [String(g.id), String(g[groupRep] ?? g.id)]));
    const items = options.map((o) => {
      const item = pickItem(o, lbl(o), { ...f, pick: picker.secondLabel ? { secondLabel: picker.secondLabel } : undefined }, obrig);
      return { ...item, group: o[picker.groupBy] != null ? names.get(String(o[picker.groupBy])) : undefined };
    });
    return pickerGroups(items, (o) => o.group, grouped, picker.flat);
  }, [options, groupRows, grouped, obrig.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <MultiSelect
      {...fieldProps(props, value)}
      options={pick}
      loading={isPending && !options.length}
      onQuery={setQuery}
      toolbar={<FormControlLabel sx={{ ml: 0.5 }} control={<Switch size="small" checked={grouped} onChange={(e) => setGrouped(e.target.checked)} />} label={<Typography variant="body2">Agrupar por {groupField.label.toLowerCase()}</Typography>} />}
      note={total !== undefined && total > PICKER_PAGE ? `Mostrando ${PICKER_PAGE} de ${total.toLocaleString('pt-BR')}: pesquise por ${target.search.map((n) => target.fields.find((x) => x.name === n)?.label.toLowerCase() ?? n).join(', ')} para encontrar os demais` : undefined}
    />
  );
}

/** The multi-select's props that come from the rjsf widget. */
function fieldProps(props: WidgetProps, value: (string | number)[]) {
  const { id, onChange, onBlur, label, required, disabled, readonly, rawErrors = [] } = props;
  return {
    id, label, value, required, disabled: disabled || readonly, error: rawErrors.length > 0,
    onChange: (v: (string | number)[]) => onChange(v), onBlur: () => onBlur(id, value),
  };
}

export function ReferenceListWidget(props: WidgetProps) {
  // (an array with minItems starts as [undefined] in the form's defaults: no empty chip)
  const value: (string | number)[] = Array.isArray(props.value) ? props.value.filter((v: unknown): v is string | number => v != null) : [];
  const f = fieldOf(props);
  const ctx = props.registry.formContext as { entity?: EntityMeta; data?: Record<string, unknown> } | undefined;
  const obrig = mandatoryValues(ctx?.entity, f, ctx?.data);
  const withPicker = !!(f?.reference && entityByKey(f.reference)?.picker);
  // up to 1000 rows, filtered in the dialog (registers picked this way are small: companies, roles); registers
  // with a picker search on the server instead
  const known = useMemo(() => knownLabels(props, f), [(props.registry.formContext as { record?: unknown } | undefined)?.record, f]); // eslint-disable-line react-hooks/exhaustive-deps
  const { options, label: lbl, isPending } = useReferenceOptions(withPicker ? undefined : f?.reference, '', value, 1000, 300, narrowFilter(f, ctx?.data), known);
  const pick = useMemo(() => options.map((o) => pickItem(o, lbl(o), f, obrig)), [options, obrig.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  if (withPicker) return <PickerListWidget {...props} f={f!} value={value} obrig={obrig} />;
  return <MultiSelect {...fieldProps(props, value)} options={pick} loading={isPending && !options.length} />;
}

export function EnumSelectWidget(props: WidgetProps) {
  const opts = ((props.options as any).options as ValueOption[] | undefined) ??
    ((props.schema.enum as string[] | undefined) ?? []).map((v) => ({ value: v, label: v }));
  return <ValueSelect widget={props} options={opts} />;
}

export function EnumMultiWidget(props: WidgetProps) {
  const { id, onChange, onBlur, label, required, disabled, readonly, rawErrors = [], options, schema } = props;
  const value: string[] = Array.isArray(props.value) ? props.value : [];
  const pick = useMemo(() => {
    const opts = ((options as any).options as { value: string; label: string }[] | undefined) ?? [];
    // the permission catalogue: grouped by area and register
    if ((schema as any)['x-optionsFrom'] === 'permissions') return permissionOptions(opts.map((o) => o.value), opts.map((o) => o.label), model);
    return opts.map((o) => ({ value: o.value, label: o.label }));
  }, [options, schema]);
  return (
    <MultiSelect
      id={id}
      label={label}
      value={value}
      options={pick}
      required={required}
      disabled={disabled || readonly}
      error={rawErrors.length > 0}
      onChange={(v) => onChange(v.map(String))}
      onBlur={() => onBlur(id, value)}
    />
  );
}

// Free list of strings (e.g. badge codes): typed and confirmed with Enter, shown as chips.
export function TagsWidget(props: WidgetProps) {
  const { id, onChange, onBlur, label, required, disabled, readonly, rawErrors = [] } = props;
  const value: string[] = Array.isArray(props.value) ? props.value : [];
  return (
    <Autocomplete
      id={id}
      multiple
      freeSolo
      options={[] as string[]}
      value={value}
      disabled={disabled || readonly}
      onChange={(_, v) => onChange([...new Set(v.map((s) => String(s).trim()).filter(Boolean))])}
      onBlur={() => onBlur(id, value)}
      renderInput={(params) => (
        <TextField {...params} label={label} required={required} error={rawErrors.length > 0} placeholder={value.length ? undefined : 'Digite e tecle Enter'} />
      )}
    />
  );
}

export function UpperCaseWidget(props: WidgetProps) {
  const { BaseInputTemplate } = props.registry.templates;
  return (
    <BaseInputTemplate
      {...props}
      onChangeOverride={(e) => props.onChange(e.target.value === '' ? props.options.emptyValue : e.target.value.toUpperCase())}
    />
  );
}

// JSON / GeoJSON edited as text; invalid JSON keeps the text and reports it.
export function JsonField(props: FieldProps) {
  const { formData, onChange, fieldPathId, schema, required, disabled, readonly, name } = props;
  const [text, setText] = useState(() => (formData === undefined ? '' : JSON.stringify(formData, null, 2)));
  const [bad, setBad] = useState(false);
  const f = (props.registry.formContext as any)?.fields?.get(name) as FieldMeta | undefined;
  return (
    <TextField
      id={fieldPathId.$id}
      label={f?.label ?? schema.title ?? name}
      multiline
      minRows={4}
      fullWidth
      required={required}
      disabled={disabled || readonly}
      value={text}
      error={bad}
      helperText={bad ? 'JSON inválido' : undefined}
      slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
      onChange={(e) => {
        setText(e.target.value);
        if (e.target.value.trim() === '') {
          setBad(false);
          onChange(undefined, fieldPathId.path);
          return;
        }
        try {
          onChange(JSON.parse(e.target.value), fieldPathId.path);
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}

// text with widget code (device commands, scripts): monospace, long lines kept, full width (FormPanel).
export function CodeWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, label, rawErrors, options } = props;
  return (
    <TextField
      id={id}
      label={label}
      multiline
      minRows={Number(options.rows ?? 8)}
      fullWidth
      required={required}
      disabled={disabled || readonly}
      value={value ?? ''}
      error={!!rawErrors?.length}
      slotProps={{ htmlInput: { spellCheck: false, wrap: 'off', style: { fontFamily: 'monospace', fontSize: 13, overflowX: 'auto' } } }}
      onChange={(e) => props.onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => props.onBlur(id, e.target.value)}
      onFocus={(e) => props.onFocus(id, e.target.value)}
    />
  );
}

// Field types image / file: the uploaders; the value is the stored file's URL (null when removed).
export function ImageUploadWidget(props: WidgetProps) {
  return <ImageUploader id={props.id} label={props.label} value={props.value} disabled={props.disabled || props.readonly} onChange={(v) => props.onChange(v ?? null)} />;
}
// metadata upload: { path, accept }: the path's {name} segments are the screen's route parameters.
export function FileUploadWidget(props: WidgetProps) {
  const params = useParams();
  const upload = props.options?.upload as { path?: string; accept?: string[] } | undefined;
  const path = upload?.path ? `/api${upload.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(params[n] ?? ''))}` : undefined;
  return <FileUploader id={props.id} label={props.label} value={props.value} uploadTo={path} extensions={upload?.accept} disabled={props.disabled || props.readonly} onChange={(v) => props.onChange(v ?? null)} />;
}

export const widgets: RegistryWidgetsType = {
  imageUpload: ImageUploadWidget,
  fileUpload: FileUploadWidget,
  reference: ReferenceWidget,
  referenceList: ReferenceListWidget,
  enumSelect: EnumSelectWidget,
  lookup: LookupWidget,
  enumMulti: EnumMultiWidget,
  tags: TagsWidget,
  upperCase: UpperCaseWidget,
  code: CodeWidget,
  time: TimeWidget,
  date: DateWidget,
  datetime: DateTimeWidget,
};
// Field type geometry with metadata map: drawn on a map (widgets/GeometryMap.tsx, loaded with its first use).
const GeometryMap = lazy(() => import('../widgets/GeometryMap'));
export function GeometryField(props: FieldProps) {
  const { formData, fieldPathId, name, disabled, readonly, rawErrors } = props;
  const ctx = props.registry.formContext as { fields?: Map<string, FieldMeta>; data?: Record<string, unknown>; patch?: (v: Record<string, unknown>) => void } | undefined;
  const f = ctx?.fields?.get(name);
  if (!f?.map || !ctx?.patch) return <JsonField {...props} />;
  return (
    <Suspense fallback={<Typography variant="body2">Carregando o mapa...</Typography>}>
      <GeometryMap id={fieldPathId.$id} name={name} label={f.label} map={f.map} data={ctx.data ?? {}} value={formData as never}
        disabled={disabled || readonly} error={rawErrors?.[0]} onChange={ctx.patch} />
    </Suspense>
  );
}

export const fields = { json: JsonField, questionnaire: QuestionnaireField, answers: JsonField, geometry: GeometryField };
