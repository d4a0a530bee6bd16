// Buttons of one saved record in its form (FormPanel): the entity's actions (metadata actions: set or handler),
// each behind the 'ATENÇÃO' dialog, and the lists nested under it (metadata parent of other entities).
import { useState } from 'react';
import { Button } from '@mui/material';
import ListIcon from '@mui/icons-material/List';
import { Confirm, useDataProvider, useNotify, useRefresh, type Identifier } from 'react-admin';
import { generatePath, useNavigate } from 'react-router-dom';
import type { ActionMeta, EntityMeta } from '../../../generator/model';
import type { RastroDataProvider } from '../api/dataProvider';
import { model } from '../model';
import { useCan } from './useCan';

function matches(record: Record<string, unknown>, when?: Record<string, unknown>) {
  return !when || Object.entries(when).every(([k, v]) => (Array.isArray(v) ? v.includes(record[k]) : record[k] === v));
}

export function RecordActions({ entity, record }: { entity: EntityMeta; record: Record<string, unknown> }) {
  const { can } = useCan();
  const dp = useDataProvider<RastroDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
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
      <Confirm
        isOpen={!!pending}
        title="ATENÇÃO"
        content={pending?.confirm ?? 'Deseja continuar a requisição?'}
        confirm="Confirmar"
        cancel="Cancelar"
        onClose={() => setPending(null)}
        onConfirm={async () => {
          const a = pending!;
          setPending(null);
          try {
            await dp.runAction(entity.key, record.id as Identifier, a.name);
            notify('Ação executada', { type: 'success', autoHideDuration: 3000 });
            refresh();
          } catch (e) {
            notify((e as Error).message, { type: 'error', autoHideDuration: 3000 });
          }
        }}
      />
    </>
  );
}
