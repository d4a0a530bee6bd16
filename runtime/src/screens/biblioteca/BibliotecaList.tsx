// Read-only list of one event/parameter library (GET /api/biblioteca/..., providers of server/calls/biblioteca.ts), shared by
// /adm/bib/biblioteca_de_eventos and /tlm/cfg/biblioteca. The resource name is the call's path under /api, so the
// ra-data-simple-rest dataProvider pages, sorts and filters it like any register. Reuses the shared table pieces of
// runtime/src/crud (three-state sorting header, page sizes, the list tools: print, column chooser, CSV/Excel export of
// the whole filtered result from GET {list}/export); undescribed entries show a muted 'Sem descrição' chip.
import type { ReactNode } from 'react';
import {
  Box, Chip, Divider, FormControlLabel, MenuItem, Switch, TextField, Tooltip, Typography,
} from '@mui/material';
import { Datagrid, ListContextProvider, Pagination, ResourceContextProvider, useListController, useNotify, useRecordContext } from 'react-admin';
import type { EntityMeta } from '../../../../generator/model';
import { ListHeader } from '../../crud/ListHeader';
import { ListTools, SearchBox, downloadFile, exportParams } from '../../crud/ListTools';
import { useColumnChoices } from '../../crud/useColumnChoices';
import { PAGE_SIZES } from '../../crud/GenericList';
import { UNSORTED } from '../../crud/sort';
import type { BibliotecaRow, ListaInfo } from './types';

// Cells: Datagrid reads source/label/sortable from the element props.
interface CellProps { source: string; label: string; sortable?: boolean }

const Mono = ({ children }: { children: ReactNode }) => (
  <Box component="span" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}>{children}</Box>
);

function EventCell(_: CellProps) {
  const r = useRecordContext<BibliotecaRow>();
  return r ? <Mono>{r.event}</Mono> : null;
}

export function SemDescricao() {
  return <Chip size="small" variant="outlined" label="Sem descrição" sx={{ color: 'text.secondary', borderColor: 'divider', fontStyle: 'italic' }} />;
}

function DescriptionCell(_: CellProps) {
  const r = useRecordContext<BibliotecaRow>();
  if (!r) return null;
  return r.undescribed || !r.description ? <SemDescricao /> : <span>{r.description}</span>;
}

function TextCell({ source }: CellProps) {
  const r = useRecordContext<BibliotecaRow>();
  const v = r?.[source as keyof BibliotecaRow];
  return v ? <span>{String(v)}</span> : <Typography component="span" color="text.disabled">—</Typography>;
}

function TypeCell(_: CellProps) {
  const r = useRecordContext<BibliotecaRow>();
  return r ? <Mono>{r.type}</Mono> : null;
}

function UnitCell(_: CellProps) {
  const r = useRecordContext<BibliotecaRow>();
  if (!r) return null;
  if (!r.unit.short) return <Typography component="span" color="text.disabled">—</Typography>;
  return (
    <Tooltip title={r.unit.full} enterDelay={300}>
      <Box component="span" data-unit={r.unit.value} sx={{ borderBottom: '1px dotted', borderColor: 'text.disabled', cursor: 'help' }}>{r.unit.short}</Box>
    </Tooltip>
  );
}

function CodeCell(_: CellProps) {
  const r = useRecordContext<BibliotecaRow>();
  if (!r) return null;
  const v = r.code ?? r.message;
  return v === null || v === undefined ? <Typography component="span" color="text.disabled">—</Typography> : <Mono>{String(v)}</Mono>;
}

const RISK_COLOR = { baixo: 'success', médio: 'warning', alto: 'error' } as const;
function RiskCell(_: CellProps) {
  const r = useRecordContext<BibliotecaRow>();
  if (!r?.risk) return <Typography component="span" color="text.disabled">—</Typography>;
  return <Chip size="small" variant="outlined" color={RISK_COLOR[r.risk as keyof typeof RISK_COLOR] ?? 'default'} label={r.risk} />;
}

function OrigemCell(_: CellProps) {
  const r = useRecordContext<BibliotecaRow>();
  return r ? <span>{r.origemLabel}</span> : null;
}

function Empty() {
  return (
    <Box sx={{ py: 6, textAlign: 'center' }}>
      <Typography color="text.secondary">Nenhum item foi encontrado</Typography>
    </Box>
  );
}

/** Column keys in display order; optional ones (codigo, risco, origem) come from the list summary. */
export function columnsFor(info?: ListaInfo | null): string[] {
  const opt = new Set(info?.colunas ?? []);
  return [
    ...(opt.has('origem') ? ['origem'] : []),
    'event',
    ...(opt.has('codigo') ? ['code'] : []),
    'description', 'subtitle', 'type', 'unit',
    ...(opt.has('risco') ? ['risk'] : []),
  ];
}

const LABELS: Record<string, string> = {
  origem: 'Origem', event: 'Evento', code: 'Código', description: 'Descrição', subtitle: 'Subtítulo', type: 'Tipo', unit: 'Unidade', risk: 'Risco',
};

/** The column chooser's view of a library list (choices saved per list, like a register's per route). */
const choiceEntity = (resource: string, keys: string[]) =>
  ({ route: `/biblioteca:${resource}`, columns: keys.map((k) => ({ source: k, label: LABELS[k], sortable: true, default: true })) }) as unknown as EntityMeta;

function column(key: string) {
  switch (key) {
    case 'origem': return <OrigemCell key={key} source="origem" label="Origem" />;
    case 'event': return <EventCell key={key} source="event" label="Evento" />;
    case 'code': return <CodeCell key={key} source="code" label="Código" />;
    case 'description': return <DescriptionCell key={key} source="description" label="Descrição" />;
    case 'subtitle': return <TextCell key={key} source="subtitle" label="Subtítulo" />;
    case 'type': return <TypeCell key={key} source="type" label="Tipo" />;
    case 'unit': return <UnitCell key={key} source="unit" label="Unidade" />;
    case 'risk': return <RiskCell key={key} source="risk" label="Risco" />;
    default: return null;
  }
}

export function BibliotecaList(props: { resource: string; info?: ListaInfo | null; title: string }) {
  // Remounted when the list's optional columns change (its summary arrives after the list).
  return <Lista key={`${props.resource}:${columnsFor(props.info).join(',')}`} {...props} />;
}

function Lista({ resource, info, title }: { resource: string; info?: ListaInfo | null; title: string }) {
  const ctx = useListController({ resource, sort: UNSORTED, perPage: 25 });
  const columns = useColumnChoices(choiceEntity(resource, columnsFor(info)));
  const notify = useNotify();
  const exportAs = (format: 'csv' | 'xlsx') =>
    downloadFile(`/api/${resource}/export?${exportParams(ctx.sort, ctx.filterValues, columns.selected, format)}`, `biblioteca.${format}`)
      .catch((e: Error) => notify(e.message, { type: 'error' }));
  const filters = (ctx.filterValues ?? {}) as Record<string, unknown>;
  const setFilter = (k: string, v: unknown) => {
    const next = { ...filters, [k]: v };
    if (v === undefined || v === '' || v === false) delete next[k];
    ctx.setFilters(next, undefined, false);
  };
  return (
    <ResourceContextProvider value={resource}>
      <ListContextProvider value={ctx}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1.25, flexWrap: 'wrap' }} role="toolbar" aria-label={`Filtros: ${title}`}>
          <Typography variant="body2" color="text.secondary" data-testid="biblioteca-total">
            {ctx.total === undefined ? '' : `${ctx.total} ${ctx.total === 1 ? 'item' : 'itens'}`}
            {info && info.semDescricao > 0 ? ` · ${info.semDescricao} sem descrição na biblioteca` : ''}
          </Typography>
          <Box sx={{ flex: 1 }} />
          {info && info.semDescricao > 0 && (
            <FormControlLabel
              control={<Switch size="small" checked={filters.undescribed === true} onChange={(e) => setFilter('undescribed', e.target.checked || undefined)} />}
              label="Somente sem descrição"
            />
          )}
          {info && info.origens.length > 1 && (
            <TextField select size="small" label="Origem" value={String(filters.origem ?? '')} onChange={(e) => setFilter('origem', e.target.value)} sx={{ minWidth: 140 }}>
              <MenuItem value="">Todas</MenuItem>
              {info.origens.map((o) => <MenuItem key={o.id} value={o.id}>{o.label}</MenuItem>)}
            </TextField>
          )}
          {info && info.tipos.length > 1 && (
            <TextField select size="small" label="Tipo" value={String(filters.type ?? '')} onChange={(e) => setFilter('type', e.target.value)} sx={{ minWidth: 160 }}>
              <MenuItem value="">Todos</MenuItem>
              {info.tipos.map((t) => <MenuItem key={t} value={t}>{t}</MenuItem>)}
            </TextField>
          )}
          <SearchBox key={resource} width={260} value={String(filters.q ?? '')} onChange={(q) => setFilter('q', q)} />
          <ListTools choices={columns.choices} onToggle={columns.toggle} onExport={(f) => void exportAs(f)} />
        </Box>
        <Divider />
        <Datagrid
          rowClick={false}
          bulkActionButtons={false}
          empty={<Empty />}
          header={<ListHeader onMove={columns.move} />}
          sx={{
            '& .RaDatagrid-headerCell': { fontWeight: 600, bgcolor: 'grey.50' },
            '& td.column-description': { minWidth: 220 },
          }}
        >
          {columns.selected.map(column)}
        </Datagrid>
        <Pagination rowsPerPageOptions={PAGE_SIZES} />
      </ListContextProvider>
    </ResourceContextProvider>
  );
}
