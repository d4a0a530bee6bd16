// The entity's actions on one record (metadata actions: set or handler), each behind the 'ATENÇÃO' dialog
// (ActionConfirm); shared by the list rows (GenericList), the form of an entity without record page (FormPanel) and
// the action tabs of a record page (RecordPage).
import { useState } from 'react';
import { Box, Button } from '@mui/material';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';
import { matches } from '../lib/actions';
import { ActionConfirm } from './ActionConfirm';
import { useCan } from '../lib/useCan';

export function ActionButtons({ entity, record, names, size, variant = 'outlined' }: {
  entity: EntityMeta; record?: Record<string, unknown>; names?: string[]; size?: 'small' | 'medium'; variant?: 'outlined' | 'contained';
}) {
  const { can } = useCan();
  const [pending, setPending] = useState<ActionMeta | null>(null);
  const actions = entity.actions.filter((a) => (!names || names.includes(a.name)) && can(a.permission) && matches(record, a.visibleWhen));
  if (!record || !actions.length) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1 }} onClick={(e) => e.stopPropagation()}>
      {actions.map((a) => (
        <Button key={a.name} size={size} variant={variant} onClick={() => setPending(a)} sx={{ whiteSpace: 'nowrap' }}>
          {a.label}
        </Button>
      ))}
      <ActionConfirm entity={entity} action={pending} record={record} onClose={() => setPending(null)} />
    </Box>
  );
}
