// Row selection and bulk actions of the generic list (metadata actions with `bulk: true`): a selection column
// (react-admin's list selection state), its 'Selecionar todos' header cell, and the '{n} selecionados' toolbar with a
// button per bulk action behind the shared 'ATENÇÃO' dialog (ActionConfirm), which runs POST /api/{key}/{action}
// { ids } and notifies the outcome per row (bulkOutcome).
import { useState } from 'react';
import { Box, Button, Checkbox, TableCell, Typography } from '@mui/material';
import { DatagridClasses, useListContext, useRecordContext, type Identifier } from 'react-admin';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';
import { ActionConfirm } from '../forms/ActionConfirm';
import { toggledPage } from '../lib/bulk';

/** The selection cell of a row; `selectAll` marks the column for ListHeader (SelectAllCell). */
export function SelectColumn({ entity }: { entity: EntityMeta; selectAll: true; label?: string }) {
  const record = useRecordContext();
  const { selectedIds, onToggleItem } = useListContext();
  if (!record) return null;
  return (
    <Checkbox
      size="small"
      sx={{ p: 0.25 }}
      checked={selectedIds.includes(record.id)}
      onClick={(e) => e.stopPropagation()}
      onChange={() => onToggleItem(record.id)}
      inputProps={{ 'aria-label': `Selecionar linha ${String(record[entity.recordRepresentation] ?? record.id)}` }}
    />
  );
}

/** Header cell of the selection column: the page's rows at once. */
export function SelectAllCell() {
  const { data = [], selectedIds, onSelect } = useListContext();
  const page = data.map((r) => r.id);
  const some = page.filter((id) => selectedIds.includes(id)).length;
  return (
    <TableCell className={`${DatagridClasses.headerCell} column-selecionar`} sx={{ fontWeight: 600, bgcolor: 'grey.50', width: 0 }}>
      <Checkbox
        size="small"
        sx={{ p: 0.25 }}
        checked={page.length > 0 && some === page.length}
        indeterminate={some > 0 && some < page.length}
        disabled={!page.length}
        onChange={() => onSelect(toggledPage(selectedIds, page))}
        inputProps={{ 'aria-label': 'Selecionar todos' }}
      />
    </TableCell>
  );
}

/** '{n} selecionados' with a button per bulk action; shown while rows are selected. */
export function BulkToolbar({ entity, actions }: { entity: EntityMeta; actions: ActionMeta[] }) {
  const { selectedIds, onUnselectItems, data = [] } = useListContext();
  const [pending, setPending] = useState<ActionMeta | null>(null);
  if (!selectedIds.length) return null;
  const name = (id: Identifier) => {
    const r = data.find((x) => x.id === id);
    return String(r?.[entity.recordRepresentation] ?? id);
  };
  return (
    <Box role="toolbar" aria-label="Ações em lote" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, bgcolor: 'action.selected' }}>
      <Typography sx={{ flex: 1 }}>{`${selectedIds.length} ${selectedIds.length === 1 ? 'selecionado' : 'selecionados'}`}</Typography>
      {actions.map((a) => (
        <Button key={a.name} size="small" variant="contained" onClick={() => setPending(a)}>{a.label}</Button>
      ))}
      <Button size="small" onClick={() => onUnselectItems()}>Limpar seleção</Button>
      <ActionConfirm
        entity={entity}
        action={pending}
        record={{}}
        bulk={{ ids: selectedIds, name, done: () => onUnselectItems() }}
        onClose={() => setPending(null)}
      />
    </Box>
  );
}
