// Buttons of one saved record in its form (FormPanel): the entity's actions (metadata actions: set or handler),
// each behind the 'ATENÇÃO' dialog, and the lists nested under it (metadata parent of other entities).
import { useState } from 'react';
import { Button } from '@mui/material';
import ListIcon from '@mui/icons-material/List';
import { generatePath, useNavigate } from 'react-router-dom';
import type { ActionMeta, EntityMeta } from '../../../generator/model';
import { model } from '../model';
import { useCan } from './useCan';
import { ActionConfirm, matches } from './ActionConfirm';

export function RecordActions({ entity, record }: { entity: EntityMeta; record: Record<string, unknown> }) {
  const { can } = useCan();
  const navigate = useNavigate();
  const [pending, setPending] = useState<ActionMeta | null>(null);
  const actions = entity.actions.filter((a) => can(a.permission) && matches(record, a.visibleWhen));
  const children = model.entities.filter((e) => e.parent?.entity === entity.key && can(`${e.permission}.lista`) && record[e.parent.by] != null);
  return (
    <>
      {actions.map((a) => (
        <Button key={a.name} variant="outlined" onClick={() => setPending(a)}>{a.label}</Button>
      ))}
      {children.map((e) => (
        <Button key={e.key} startIcon={<ListIcon />} onClick={() => navigate(generatePath(e.parent!.route, { [e.parent!.by]: String(record[e.parent!.by]) }))}>
          {e.label.plural}
        </Button>
      ))}
      <ActionConfirm entity={entity} action={pending} record={record} onClose={() => setPending(null)} />
    </>
  );
}
