// The shared list panel (spec section 2): title, back, search, date range, add, print,
// 'Selecionar Colunas', 'Exportar Tabela' (CSV/Excel of the whole filtered result), fullscreen,
// sortable columns, copy cell, a row click opens the record, row actions in a "⋮" menu, the table fits its width
// (long values cut, tooltip with the whole value), pagination 25/50/100/250/500/1000.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Alert, Box, Button, Card, Divider, IconButton, Tab, Tabs, Tooltip, Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Datagrid, ListContextProvider, Pagination, ResourceContextProvider, useListController, useNotify, usePermissions,
  Title, useGetOne, useRecordContext, type ListControllerResult,
} from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import type { ActionMeta, AliasMeta, ColumnMeta, EntityMeta, FieldMeta } from '../../../../shared/model';
import { aliasPath, entityByKey, model, pathFor, permissionFor, recordPath } from '../../model';
import { DateRangeFilter, rangeFilter, rangeFromFilter } from '../widgets/DateRangeFilter';
import { FieldValue } from '../widgets/FieldValue';
import { formattedValue } from '../widgets/ColumnFormat';
import type { GenericProps } from '../forms/GenericForms';
import { PanelHeader } from '../widgets/PanelHeader';
import { useCan } from '../lib/useCan';
import { useColumnChoices } from '../lib/useColumnChoices';
import { ListHeader } from './ListHeader';
import { nestedOf, type Nested } from '../lib/nested';
import { useBound, type Bound } from '../lib/params';
import { ListTools, SearchBox, ToolButton, downloadFile, exportParams } from './ListTools';
import { ActionMenu } from '../forms/ActionButtons';
import { BulkToolbar, SelectColumn } from './BulkActions';
import { bulkActions } from '../lib/bulk';
import { ListSelect } from '../widgets/ListSelect';
import { UnknownParams } from '../widgets/UnknownParams';
import { JOINED, onPush } from '../../layout/Realtime';

export const PAGE_SIZES = [25, 50, 100, 250, 500, 1000];

// ---- headless part --------------------------------------------------------------------------

export function exportUrl(entity: EntityMeta, ctx: Pick<ListControllerResult, 'sort' | 'filterValues'>, columns: string[], format: 'csv' | 'xlsx', nested?: Nested | null, bound?: Bound | null) {
  // A nested list exports through the entity's own route, filtered by the parent's value (exact); a list below
  // route parameters through its own API (the server binds them).
  const filter = nested ? { ...ctx.filterValues, [nested.field]: [nested.value] } : ctx.filterValues;
  return `/api/${bound?.resource ?? entity.key}/export?${exportParams(ctx.sort, filter, columns, format)}`;
}

/** `nested`: the parent given by a record page tab (otherwise read from the nested list's own route). */
/** `alias`: the list opened on a second route (metadata aliases): its fixed filter and title. */
export function useGenericList(entity: EntityMeta, given?: Nested | null, alias?: AliasMeta) {
  const { pathname } = useLocation();
  const nested = given ?? nestedOf(entity, pathname);
  const bound = useBound(entity);
  const resource = nested?.resource ?? bound?.resource ?? entity.key;
  const ctx = useListController({ resource, sort: entity.sort, perPage: 25, filter: alias?.filter, queryOptions: { enabled: !bound?.error } });
  // metadata list.refreshOn: a push of that name (or the socket joining again: pushes may have been missed) reads the
  // page again — rows a background worker changes show without polling
  const refetch = useRef(ctx.refetch);
  refetch.current = ctx.refetch;
  useEffect(() => {
    const ev = entity.listRefreshOn;
    if (!ev) return;
    const again = () => { void refetch.current(); };
    const offs = [onPush(ev, again), onPush(JOINED, again)];
    return () => offs.forEach((off) => off());
  }, [entity.listRefreshOn]);
  // A list alias with an edit or show alias below it (/adm/cfg/simcard → /adm/cfg/simcard/visualizar,
  // /adm/cfg/configurar_equipamentos/:tecnology/:model → …/:id/editar) opens its rows there.
  const below = (view: string) => alias && entity.aliases?.find((a) => a.view === view && a.path.startsWith(`${alias.path}/`));
  const aliasEdit = below('edit');
  const aliasShow = below('show');
  const columns = useColumnChoices(entity);
  const notify = useNotify();
  const { can } = useCan();
  const { permissions } = usePermissions<string[]>();
  const exportAs = (format: 'csv' | 'xlsx') =>
    downloadFile(exportUrl(entity, alias?.filter ? { sort: ctx.sort, filterValues: { ...ctx.filterValues, ...alias.filter } } : ctx, columns.selected.filter((c) => entity.fields.some((f) => f.name === c)), format, nested, bound), `${entity.key}.${format}`).catch((e) => notify(e.message, { type: 'error' }));
  const dateRange = entity.dateRange ? rangeFromFilter(entity.dateRange, ctx.filterValues) : null;
  const setDateRange = (r: ReturnType<typeof rangeFromFilter>) => {
    if (!entity.dateRange) return;
    const next = { ...ctx.filterValues, ...rangeFilter(entity.dateRange, r) };
    for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
    ctx.setFilters(next, undefined, false);
  };
  const setFilter = (name: string, v: string | undefined) => {
    const next = { ...ctx.filterValues, [name]: v };
    if (v === undefined) delete next[name];
    ctx.setFilters(next, undefined, false);
  };
  const setSearch = (q: string) => {
    const next = { ...ctx.filterValues, q };
    if (!q) delete next.q;
    ctx.setFilters(next, undefined, false);
  };
  return {
    ctx,
    nested,
    bound,
    resource,
    columns,
    exportAs,
    setFilter,
    dateRange,
    setDateRange,
    setSearch,
    canAdd: can(permissionFor(entity, 'create')) && !entity.readOnlyResource,
    // can() answers true for any name to the super roles (wiki, dev)
    addsElsewhere: can('qualquer.adicionar') || (permissions ?? []).some((k) => k.endsWith('.adicionar')),
    // A register with a record page opens it; otherwise its edit form, else its read-only view.
    rowPath: (id: string | number, record?: Record<string, unknown>) =>
      aliasEdit && can(permissionFor(entity, 'edit'))
        ? aliasPath(aliasEdit, id, bound?.route)
        : aliasShow && can(permissionFor(entity, 'show'))
        ? aliasPath(aliasShow, id, bound?.route)
        : entity.record && can(permissionFor(entity, 'show'))
        ? recordPath(entity, record?.[entity.record.by] ?? id)
        : can(permissionFor(entity, 'edit')) && !entity.readOnlyResource
        ? pathFor(entity.key, 'edit', id, bound?.route)
        : can(permissionFor(entity, 'show'))
          ? pathFor(entity.key, 'show', id, bound?.route)
          : false,
    canAction: (a: ActionMeta) => can(a.permission),
    bulk: bulkActions(entity, can),
  };
}

// ---- UI parts -------------------------------------------------------------------------------

function CopyCell({ children, wrap }: { children: ReactNode; wrap?: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  const notify = useNotify();
  const copy = async (e: React.MouseEvent) => {
    e.stopPropagation();
    try {
      await navigator.clipboard.writeText(ref.current?.innerText ?? '');
      notify('Copiado para a área de transferência!', { type: 'info', autoHideDuration: 1500 });
    } catch {
      notify('Erro ao copiar!', { type: 'error', autoHideDuration: 1500 });
    }
  };
  const [tip, setTip] = useState('');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minHeight: 24, minWidth: 0 }}>
      <Tooltip title={tip} enterDelay={1000} disableInteractive>
        <Box
          component="span"
          ref={ref}
          // tooltip only when the value is cut
          onMouseEnter={() => setTip(ref.current && (ref.current.scrollWidth > ref.current.clientWidth || ref.current.scrollHeight > ref.current.clientHeight) ? ref.current.innerText : '')}
          sx={wrap
            ? { overflow: 'hidden', display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflowWrap: 'anywhere', minWidth: 0 }
            : { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}
        >
          {children}
        </Box>
      </Tooltip>
      <IconButton className="rastro-copy" size="small" aria-label="Copiar" onClick={copy} sx={{ opacity: 0, p: 0.25 }}>
        <ContentCopyIcon sx={{ fontSize: 14 }} />
      </IconButton>
    </Box>
  );
}

// One column of the table; Datagrid reads source/label/sortable from its props.
function Column({ field, column, entity }: { field?: FieldMeta; column: ColumnMeta; entity?: EntityMeta; source?: string; label?: string; sortable?: boolean; width?: number }) {
  const record = useRecordContext();
  const f: FieldMeta = field ?? ({ name: column.source, type: 'string', label: column.label } as FieldMeta);
  return <CopyCell wrap={column.wrap}>{record ? formattedValue(column, record[column.source]) ?? <FieldValue field={f} entity={entity} /> : null}</CopyCell>;
}

/** The row's "⋮" menu: Abrir and the actions (the row itself opens the record on a click). */
function RowActions({ entity, open }: { entity: EntityMeta; open: (r: Record<string, unknown>) => string | false; source?: string; label?: string; sortable?: boolean; fixed?: boolean }) {
  const record = useRecordContext();
  return <ActionMenu entity={entity} record={record} open={record ? open(record) : false} />;
}

/** The parent record's representation, for the title of a nested list. */
function useParentName(nested: Nested | null): string | undefined {
  const parent = nested ? entityByKey(nested.parent) : undefined;
  const { data } = useGetOne(nested?.parent ?? '', { id: nested?.value ?? 0 }, { enabled: !!parent && typeof nested?.value === 'number' });
  if (!nested) return undefined;
  if (typeof nested.value !== 'number') return String(nested.value);
  return data && parent ? String(data[parent.recordRepresentation] ?? data.id) : undefined;
}

export function Empty() {
  return (
    <Box sx={{ py: 6, textAlign: 'center' }}>
      <Typography color="text.secondary">Nenhum item foi encontrado</Typography>
    </Box>
  );
}

/** metadata listTabs: the tab bar of the sibling registers of the group (those the user may list), this one selected. */
function SiblingTabs({ entity }: { entity: EntityMeta }) {
  const navigate = useNavigate();
  const { can } = useCan();
  const group = entity.listTabs!.group;
  const tabs = model.entities.filter((e) => e.listTabs?.group === group && (e.key === entity.key || can(permissionFor(e, 'list'))))
    .sort((a, b) => a.listTabs!.order - b.listTabs!.order);
  return (
    <Tabs value={entity.route} onChange={(_, v: string) => navigate(v)} aria-label="Abas do cadastro" variant="scrollable" sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
      {tabs.map((e) => <Tab key={e.key} value={e.route} label={e.listTabs!.label} />)}
    </Tabs>
  );
}

export function GenericList({ entity, nested, alias }: Pick<GenericProps, 'entity'> & { schema?: GenericProps['schema']; nested?: Nested | null; alias?: AliasMeta }) {
  const l = useGenericList(entity, nested, alias);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [full, setFull] = useState(false);
  const fields = new Map(entity.fields.map((f) => [f.name, f]));
  const colMeta = new Map(entity.columns.map((c) => [c.source, c]));
  const hasActions = entity.actions.some(l.canAction);
  const parentName = useParentName(l.nested);
  const title = alias?.label ?? (l.nested ? `${entity.label.plural}: ${parentName ?? '…'}` : l.bound ? `${entity.label.plural}: ${l.bound.labels.join(' · ')}` : entity.label.plural);
  if (l.bound?.error) return <UnknownParams message={l.bound.error} />;

  return (
    <ResourceContextProvider value={l.resource}>
      <ListContextProvider value={l.ctx}>
        <Title title={title} />
        <Card
          className="rastro-list"
          sx={full ? { position: 'fixed', inset: 0, zIndex: 1300, borderRadius: 0, overflow: 'auto' } : undefined}
        >
          <PanelHeader title={title} onBack={() => navigate(-1)}>
            {entity.listSelect && l.nested?.field !== entity.listSelect && (
              <ListSelect field={fields.get(entity.listSelect)!} entity={entity} value={l.ctx.filterValues?.[entity.listSelect]} onChange={(v) => l.setFilter(entity.listSelect!, v)} />
            )}
            {entity.dateRange && <DateRangeFilter value={l.dateRange} onChange={l.setDateRange} />}
            <SearchBox value={String(l.ctx.filterValues?.q ?? '')} onChange={l.setSearch} />
            {/* hidden without P.adicionar; a register without add screen shows it disabled ('Botão desabilitado', spec
                section 8) to those who add elsewhere (hold some add key), never to a read-only user */}
            {l.canAdd ? (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => navigate(pathFor(entity.key, 'create', undefined, l.bound?.route), l.nested ? { state: { defaults: { [l.nested.field]: l.nested.value }, back: pathname } } : undefined)}>
                Adicionar
              </Button>
            ) : !entity.readOnlyResource || !l.addsElsewhere ? null : (
              <Tooltip title="Botão desabilitado">
                <span>
                  <Button variant="contained" startIcon={<AddIcon />} disabled>
                    Adicionar
                  </Button>
                </span>
              </Tooltip>
            )}
            <ListTools choices={l.columns.choices} onToggle={l.columns.toggle} onExport={(f) => void l.exportAs(f)}>
              <ToolButton title={full ? 'Sair da tela cheia' : 'Tela cheia'} onClick={() => setFull(!full)}>
                {full ? <FullscreenExitIcon /> : <FullscreenIcon />}
              </ToolButton>
            </ListTools>
          </PanelHeader>
          <Divider />
          {!l.nested && !alias && entity.listTabs && <SiblingTabs entity={entity} />}
          {l.bulk.length > 0 && <BulkToolbar entity={entity} actions={l.bulk} />}
          <Datagrid
            rowClick={(id, _r, record) => l.rowPath(id as string | number, record)}
            bulkActionButtons={false}
            empty={<Empty />}
            header={<ListHeader onMove={l.columns.move} />}
            sx={{
              // the table fits its card: columns share the width, long values are cut (tooltip with the whole value)
              '& .RaDatagrid-table': { tableLayout: 'fixed', width: '100%' },
              '& .RaDatagrid-headerCell': { fontWeight: 600, bgcolor: 'grey.50', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
              '& .RaDatagrid-rowCell': { overflow: 'hidden' },
              '& .RaDatagrid-headerCell.column-selecionar': { width: 64, textOverflow: 'clip' },
              '& .RaDatagrid-headerCell.column-acoes_linha': { width: 64 },
              '& .RaDatagrid-row:hover .rastro-copy': { opacity: 0.7 },
            }}
          >
            {l.bulk.length > 0 && <SelectColumn selectAll entity={entity} />}
            {l.columns.selected.map((key) => {
              const c = colMeta.get(key)!;
              return <Column key={key} source={key} label={c.label} sortable={c.sortable} width={c.width} field={fields.get(key)} column={c} entity={entity} />;
            })}
            {hasActions && <RowActions source="acoes_linha" label="" sortable={false} fixed entity={entity} open={(r) => l.rowPath(r.id as string | number, r)} />}
          </Datagrid>
          <Pagination rowsPerPageOptions={PAGE_SIZES} />
        </Card>
      </ListContextProvider>
    </ResourceContextProvider>
  );
}
