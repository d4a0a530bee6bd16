// The entity's actions on one record (metadata actions: set or handler), each behind the 'ATENÇÃO' dialog
// (ActionConfirm): as buttons (the record page's toolbar and action tabs, the form of an entity without record page)
// or as the compact "⋮" menu of a list row (ActionMenu). `describe`: each button says what it does (the action's
// description: tooltip and accessible description).
import { useId, useState } from 'react';
import { Box, Button, IconButton, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { Link } from 'react-router-dom';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';
import { matches } from '../lib/actions';
import { ActionConfirm } from './ActionConfirm';
import { useCan } from '../lib/useCan';

const hidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/** The actions the user may run on this record (key, visibleWhen), optionally only `names`. */
function useActions(entity: EntityMeta, record: Record<string, unknown> | undefined, names?: string[]) {
  const { can } = useCan();
  return entity.actions.filter((a) => (!names || names.includes(a.name)) && can(a.permission) && matches(record, a.visibleWhen));
}

export function ActionButtons({ entity, record, names, size, variant = 'outlined', describe }: {
  entity: EntityMeta; record?: Record<string, unknown>; names?: string[]; size?: 'small' | 'medium'; variant?: 'outlined' | 'contained'; describe?: boolean;
}) {
  const [pending, setPending] = useState<ActionMeta | null>(null);
  const uid = useId();
  const actions = useActions(entity, record, names);
  if (!record || !actions.length) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} onClick={(e) => e.stopPropagation()}>
      {actions.map((a) => {
        const said = describe && a.description ? `${uid}-${a.name}` : undefined;
        const button = (
          <Button size={size} variant={variant} onClick={() => setPending(a)} aria-describedby={said} sx={{ whiteSpace: 'nowrap' }}>
            {a.label}
          </Button>
        );
        return said ? (
          <Box key={a.name} component="span">
            <Tooltip title={a.description} describeChild>{button}</Tooltip>
            <Box component="span" id={said} sx={hidden}>{a.description}</Box>
          </Box>
        ) : <Box key={a.name} component="span">{button}</Box>;
      })}
      <ActionConfirm entity={entity} action={pending} record={record} onClose={() => setPending(null)} />
    </Box>
  );
}

/** A list row's "⋮": Abrir (the row's record, when it has one) and the actions, each with its description. */
export function ActionMenu({ entity, record, open }: { entity: EntityMeta; record?: Record<string, unknown>; open?: string | false }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [pending, setPending] = useState<ActionMeta | null>(null);
  const actions = useActions(entity, record);
  if (!record || (!actions.length && !open)) return null;
  return (
    <Box onClick={(e) => e.stopPropagation()} sx={{ display: 'flex', justifyContent: 'flex-end' }}>
      <Tooltip title="Ações">
        <IconButton size="small" aria-label="Ações da linha" aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
          <MoreVertIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { maxWidth: 420 } } }}>
        {open && <MenuItem component={Link} to={open} onClick={() => setAnchor(null)}><ListItemText primary="Abrir" /></MenuItem>}
        {actions.map((a) => (
          <MenuItem key={a.name} onClick={() => { setAnchor(null); setPending(a); }}>
            <ListItemText primary={a.label} secondary={a.description} slotProps={{ secondary: { sx: { whiteSpace: 'normal' } } }} />
          </MenuItem>
        ))}
      </Menu>
      <ActionConfirm entity={entity} action={pending} record={record} onClose={() => setPending(null)} />
    </Box>
  );
}
