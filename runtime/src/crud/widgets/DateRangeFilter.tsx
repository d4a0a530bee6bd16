// Date-range picker of the list panel: placeholder 'Ultimos Registros', the spec's shortcuts,
// DD-MM-YYYY, range shown as 'X até Y'.
import { lazy, Suspense, useState } from 'react';
import { Box, Button, Divider, List, ListItemButton, ListItemText, Popover, Stack } from '@mui/material';
import DateRangeIcon from '@mui/icons-material/DateRange';
import { formatDate } from '../lib/format';
import type { DateRange } from '../lib/dates';

export type { DateRange };

// The two date pickers (MUI X) load when the popover first opens (the click starts loading them): a list does not
// load the picker library until the range is edited.
const fields = () => import('./DateRangeFields');
const DateRangeFields = lazy(fields);

const pad = (n: number) => String(n).padStart(2, '0');
export const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const daysAgo = (n: number, now = new Date()) => {
  const d = new Date(now);
  d.setDate(d.getDate() - n);
  return isoDay(d);
};

export const shortcuts: { label: string; range: (now?: Date) => DateRange }[] = [
  { label: 'Hoje', range: (n) => ({ from: daysAgo(0, n), to: daysAgo(0, n) }) },
  { label: 'Ontem', range: (n) => ({ from: daysAgo(1, n), to: daysAgo(1, n) }) },
  { label: 'Ontem e hoje', range: (n) => ({ from: daysAgo(1, n), to: daysAgo(0, n) }) },
  { label: 'Últimos 7 dias', range: (n) => ({ from: daysAgo(7, n), to: daysAgo(0, n) }) },
  { label: 'Últimos 30 dias', range: (n) => ({ from: daysAgo(30, n), to: daysAgo(0, n) }) },
  { label: 'Último trimestre', range: (n) => ({ from: daysAgo(90, n), to: daysAgo(0, n) }) },
  { label: 'Último semestre', range: (n) => ({ from: daysAgo(180, n), to: daysAgo(0, n) }) },
];

export const rangeLabel = (r: DateRange | null) => (r ? `${formatDate(r.from)} até ${formatDate(r.to)}` : 'Ultimos Registros');

// Filter values for the list: {field}_gte / {field}_lte as ISO instants of local day bounds.
export function rangeFilter(field: string, r: DateRange | null): Record<string, string | undefined> {
  if (!r) return { [`${field}_gte`]: undefined, [`${field}_lte`]: undefined };
  return {
    [`${field}_gte`]: new Date(`${r.from}T00:00:00`).toISOString(),
    [`${field}_lte`]: new Date(`${r.to}T23:59:59.999`).toISOString(),
  };
}

export function rangeFromFilter(field: string, filter: Record<string, any>): DateRange | null {
  const a = filter[`${field}_gte`];
  const b = filter[`${field}_lte`];
  return a && b ? { from: isoDay(new Date(a)), to: isoDay(new Date(b)) } : null;
}

export function DateRangeFilter({ value, onChange }: { value: DateRange | null; onChange: (r: DateRange | null) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [draft, setDraft] = useState<DateRange>(value ?? { from: '', to: '' });
  const pick = (r: DateRange | null) => {
    onChange(r);
    setAnchor(null);
  };
  return (
    <>
      <Button
        variant="outlined"
        color="inherit"
        size="small"
        startIcon={<DateRangeIcon />}
        onClick={(e) => {
          void fields();
          setDraft(value ?? { from: '', to: '' });
          setAnchor(e.currentTarget);
        }}
        sx={{ textTransform: 'none', fontWeight: 400, fontSize: '1rem', color: value ? 'text.primary' : 'text.secondary', borderColor: 'rgba(0,0,0,0.23)', height: 40, minWidth: 220, justifyContent: 'flex-start' }}
      >
        {rangeLabel(value)}
      </Button>
      <Popover open={!!anchor} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        <Stack direction="row" divider={<Divider orientation="vertical" flexItem />}>
          <List dense sx={{ minWidth: 170 }}>
            {shortcuts.map((s) => (
              <ListItemButton key={s.label} onClick={() => pick(s.range())}>
                <ListItemText primary={s.label} />
              </ListItemButton>
            ))}
          </List>
          <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, width: 260 }}>
            <Suspense fallback={<Box sx={{ height: 96 }} />}>
              <DateRangeFields draft={draft} setDraft={setDraft} />
            </Suspense>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button size="small" onClick={() => pick(null)}>Limpar</Button>
              <Button size="small" variant="contained" disabled={!draft.from || !draft.to} onClick={() => pick(draft.from <= draft.to ? draft : { from: draft.to, to: draft.from })}>
                Aplicar
              </Button>
            </Stack>
          </Box>
        </Stack>
      </Popover>
    </>
  );
}
