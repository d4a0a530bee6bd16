// Fields whose values are the codes of a register (metadata lookup, e.g. equipamento.modelo → modelo.codigo): the
// choices come from GET /api/{entity}/opcoes/{field} (server/crud/lookup.ts), read with the entity's own keys and
// narrowed by the parent field's value (modelo by tecnologia).
import { useEffect, useRef } from 'react';
import { Chip } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import type { EntityMeta, FieldMeta } from '../../../../shared/model';
import { call } from '../../api/http';
import { useReferenceResource } from '../lib/params';
import { ValueSelect, type ValueOption } from './ValueSelect';

/** The choices of a lookup field; none until the parent field has a value. */
export function useLookupOptions(entity: EntityMeta | undefined, field: FieldMeta | undefined, parentValue?: unknown) {
  const resource = useReferenceResource(entity?.key);
  const parent = field?.lookup?.parent?.field;
  const ready = !!resource && !!field?.lookup && (!parent || (parentValue != null && parentValue !== ''));
  const qs = parent && ready ? `?${parent}=${encodeURIComponent(String(parentValue))}` : '';
  const { data, isPending } = useQuery({
    queryKey: ['lookup', resource, field?.name, qs],
    queryFn: () => call<ValueOption[]>(`/${resource}/opcoes/${field!.name}${qs}`),
    enabled: ready,
    staleTime: 60_000,
  });
  return { options: data ?? [], isPending: ready && isPending, ready };
}

/** The label of a code ('' while loading; the code itself when the register no longer has it). */
export function lookupLabel(options: ValueOption[], value: unknown): string {
  return options.find((o) => o.value === value)?.label ?? String(value ?? '');
}

export function LookupWidget(props: WidgetProps) {
  const { value, onChange } = props;
  const ctx = props.registry.formContext as { entity?: EntityMeta; fields?: Map<string, FieldMeta>; data?: Record<string, unknown> } | undefined;
  const field = ctx?.fields?.get(props.name);
  const parent = field?.lookup?.parent?.field;
  const parentValue = parent ? ctx?.data?.[parent] : undefined;
  const { options, isPending, ready } = useLookupOptions(ctx?.entity, field, parentValue);
  // The parent changed (another tecnologia): a code that is not one of the new choices is cleared.
  const firstParent = useRef(parentValue);
  useEffect(() => {
    if (!parent || parentValue === firstParent.current || isPending || !ready) return;
    firstParent.current = undefined;
    if (value && !options.some((o) => o.value === value)) onChange(undefined);
  }, [parent, parentValue, options, isPending, ready]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <ValueSelect widget={props} options={options} loading={isPending} locked={!!parent && !ready}
      helperText={parent && !ready ? `Escolha antes o campo ${ctx?.fields?.get(parent)?.label ?? parent}` : undefined} />
  );
}

/** A lookup code shown by its label (list cells, the show panel). */
export function LookupValue({ entity, field, record }: { entity: EntityMeta | undefined; field: FieldMeta; record: Record<string, unknown> | undefined }) {
  const parent = field.lookup?.parent?.field;
  const { options } = useLookupOptions(entity, field, parent ? record?.[parent] : undefined);
  const v = record?.[field.name];
  if (v === null || v === undefined || v === '') return <span />;
  return <Chip size="small" variant="outlined" label={lookupLabel(options, v)} />;
}
