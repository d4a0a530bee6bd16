// The list panel's optional select (spec 'Shared list panel'; metadata list.select): filters the list by one enum or
// reference field, or a lookup code, on the server; 'Todos' clears it.
import { MenuItem, TextField } from '@mui/material';
import { useGetList } from 'react-admin';
import type { EntityMeta, FieldMeta } from '../../../../shared/model';
import { useLookupOptions } from './lookup';
import { entityByKey } from '../../model';
import { useReferenceResource } from '../lib/params';
import { canList } from '../lib/labels';
import { useCan } from '../lib/useCan';

const ALL = '';

export function ListSelect({ field, entity, value, onChange }: { field: FieldMeta; entity?: EntityMeta; value: unknown; onChange: (v: string | undefined) => void }) {
  const codes = useLookupOptions(entity, field.lookup ? field : undefined).options;
  const target = field.type === 'reference' ? entityByKey(field.reference!) : undefined;
  const resource = useReferenceResource(field.reference);
  const rep = target?.recordRepresentation ?? 'descricao';
  // The register's rows are read only by a user who may list them (else 403); the others get no select.
  const { can, isPending } = useCan();
  const readable = canList(target, can);
  const { data = [] } = useGetList(resource ?? 'none', { pagination: { page: 1, perPage: 500 }, sort: { field: rep, order: 'ASC' } }, { enabled: readable });
  if (target && (isPending || !readable)) return null;
  const options = field.lookup ? codes : field.type === 'enum'
    ? (field.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))
    : data.map((r) => ({ value: String(r.id), label: String(r[rep] ?? r.id) }));
  const current = value === undefined || value === null ? ALL : String(value);
  return (
    <TextField
      select
      size="small"
      margin="none"
      label={field.label}
      value={options.some((o) => o.value === current) ? current : ALL}
      onChange={(e) => onChange(e.target.value === ALL ? undefined : e.target.value)}
      sx={{ minWidth: 180 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value={ALL}><em>Todos</em></MenuItem>
      {options.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
    </TextField>
  );
}
