// The shared list panel over a provider (metadata kind: provider, served by server/crud/provider.ts): its columns,
// quick search (filter q), date range (filters {field}_gte / {field}_lte), column chooser saved per route, export of
// the whole filtered result (GET {path}/export), sorting on the sortable columns, pagination. Used by screens
// (kind: tela) whose rows come from code, e.g. /tlm/ras/registros, and the event/parameter libraries (path parameters
// filled from `params`). Boolean filters are switches labelled with the filter's label; a json column with `show`
// shows that property of its value (with `tooltip` as the tooltip). A list of a register's rows (`register`, a screen tab's
// entity) offers its Adicionar button and opens a row's edit form, at the register's routes below the list's URL.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Button, Card, Divider, FormControlLabel, Switch, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Datagrid, ListContextProvider, Pagination, ResourceContextProvider, Title, useListController, useNotify, useRecordContext } from 'react-admin';
import { matchPath, useLocation, useNavigate } from 'react-router-dom';
import type { EntityMeta, FieldMeta, ProviderColumn, ProviderMeta } from '../../../../shared/model';
import { model, pathFor, permissionFor, routeTable } from '../../model';
import { useCan } from '../lib/useCan';
import { DateRangeFilter, rangeFilter, rangeFromFilter } from '../widgets/DateRangeFilter';
import { FieldValue } from '../widgets/FieldValue';
import { formattedValue } from '../widgets/ColumnFormat';
import { Empty, PAGE_SIZES } from './GenericList';
import { ListHeader } from './ListHeader';
import { ListTools, SearchBox, downloadFile, exportParams } from './ListTools';
import { PanelHeader } from '../widgets/PanelHeader';
import { useColumnChoices } from '../lib/useColumnChoices';

export const providerByKey = (key: string) => model.providers?.find((p) => p.key === key);

/** The field a `{field}_gte` + `{field}_lte` pair of date/datetime filters ranges over, if the provider has one. */
export function dateRangeOf(p: ProviderMeta): string | undefined {
  const dated = p.filters.filter((f) => f.type === 'date' || f.type === 'datetime').map((f) => f.name);
  return dated.find((n) => n.endsWith('_gte') && dated.includes(`${n.slice(0, -4)}_lte`))?.slice(0, -4);
}

const asField = (c: ProviderColumn): FieldMeta => ({ name: c.name, label: c.label, type: c.type === 'json' ? 'json' : c.type ?? 'string' } as FieldMeta);

// The column chooser works on the entity shape (route + columns).
const choiceEntity = (p: ProviderMeta, route: string) =>
  ({ route, columns: p.columns.map((c) => ({ source: c.name, label: c.label, sortable: c.sortable, default: c.default })) }) as unknown as EntityMeta;

// The list applies a filter change on the next tick; the switch shows the new state at once so a quick second
// click is not lost against the pending change.
function FilterSwitch({ label, value, onChange }: { label: string; value: boolean; onChange: (on: boolean) => void }) {
  const [on, setOn] = useState(value);
  useEffect(() => setOn(value), [value]);
  return (
    <FormControlLabel label={label}
      control={<Switch size="small" checked={on} onChange={(e) => { setOn(e.target.checked); onChange(e.target.checked); }} />} />
  );
}

function Cell({ field, column }: { field: FieldMeta; column: ProviderColumn; source?: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext();
  if (!record) return null;
  if (column.show) {
    const v = record[column.name] as Record<string, unknown> | null | undefined;
    const shown = v?.[column.show];
    if (shown === undefined || shown === null || shown === '') return <span />;
    const tip = column.tooltip ? v?.[column.tooltip] : undefined;
    return tip ? (
      <Tooltip title={String(tip)} enterDelay={300}>
        <Box component="span" data-tooltip={String(tip)} sx={{ borderBottom: '1px dotted', borderColor: 'text.disabled', cursor: 'help' }}>{String(shown)}</Box>
      </Tooltip>
    ) : <span>{String(shown)}</span>;
  }
  return formattedValue(column, record[column.name]) ?? <FieldValue field={field} />;
}

/** The provider's API path below /api, its {name} parameters filled. */
export const providerResource = (provider: ProviderMeta, params: Record<string, string> = {}) =>
  provider.path!.replace(/^\//, '').replace(/\{([^}]+)\}/g, (m, n: string) => (params[n] !== undefined ? encodeURIComponent(params[n]) : m));

/** The register's route of a view that opens one of `paths` (below the list's URL), else its own route. */
export function registerPath(entity: EntityMeta, view: 'create' | 'edit', paths: string[], id?: string | number): string {
  const routes = routeTable().filter((r) => r.entity === entity.key && r.view === view);
  return paths.find((p) => routes.some((r) => matchPath(r.path, p))) ?? pathFor(entity.key, view, id);
}

export interface ProviderRegister { entity: EntityMeta; idColumn: string }

/** params: values of the path's {name} parameters; toolbar: shown under the title row (e.g. tabs). inTab: the list is a
 *  record page's tab (its filters, sort and page stay out of the address, which holds the page's own query; no back
 *  button: the tab bar has Voltar). register: the register whose rows the list shows (idColumn: the provider column with
 *  the row's id): its Adicionar button and row click open its forms below the list's URL. */
export function ProviderList({ provider, title, route, params, toolbar, inTab = false, register }: {
  provider: ProviderMeta; title: string; route: string; params?: Record<string, string>; toolbar?: ReactNode; inTab?: boolean; register?: ProviderRegister;
}) {
  const resource = providerResource(provider, params);
  const ctx = useListController({ resource, sort: provider.sort, perPage: 25, disableSyncWithLocation: inTab });
  const columns = useColumnChoices(choiceEntity(provider, route));
  const notify = useNotify();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { can } = useCan();
  const here = pathname.replace(/\/+$/, '');
  const canAdd = !!register && !register.entity.readOnlyResource && can(permissionFor(register.entity, 'create'));
  const canEdit = !!register && !register.entity.readOnlyResource && can(permissionFor(register.entity, 'edit'));
  const editPath = (id: unknown) => registerPath(register!.entity, 'edit', [`${here}/${id}/editar`, `${here}/${id}`], String(id));
  const byName = new Map(provider.columns.map((c) => [c.name, c]));
  const ranged = dateRangeOf(provider);
  const filters = (ctx.filterValues ?? {}) as Record<string, unknown>;
  // changes made before the list applies the previous one build on it, not on the rendered filters
  const pending = useRef(filters);
  useEffect(() => { pending.current = filters; }, [filters]);
  const setFilters = (patch: Record<string, unknown>) => {
    const next = { ...pending.current, ...patch };
    pending.current = next;
    for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === '') delete next[k];
    ctx.setFilters(next, undefined, false);
  };
  const exportAs = (format: 'csv' | 'xlsx') =>
    downloadFile(`/api/${resource}/export?${exportParams(ctx.sort, ctx.filterValues, columns.selected, format)}`, `${provider.key}.${format}`)
      .catch((e: Error) => notify(e.message, { type: 'error' }));
  return (
    <ResourceContextProvider value={resource}>
      <ListContextProvider value={ctx}>
        <Title title={title} />
        <Card className="rastro-list">
          <PanelHeader title={title} onBack={inTab ? undefined : () => navigate(-1)}>
            {ranged && <DateRangeFilter value={rangeFromFilter(ranged, filters)} onChange={(r) => setFilters(rangeFilter(ranged, r))} />}
            {provider.filters.filter((f) => f.type === 'boolean').map((f) => (
              <FilterSwitch key={f.name} label={f.label} value={filters[f.name] === true} onChange={(on) => setFilters({ [f.name]: on || undefined })} />
            ))}
            {provider.filters.some((f) => f.type === 'search') && <SearchBox value={String(filters.q ?? '')} onChange={(q) => setFilters({ q })} />}
            {canAdd && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => navigate(registerPath(register!.entity, 'create', [`${here}/adicionar`]))}>
                Adicionar
              </Button>
            )}
            <ListTools choices={columns.choices} onToggle={columns.toggle} onExport={(f) => void exportAs(f)} />
          </PanelHeader>
          <Divider />
          {toolbar}
          <Datagrid
            rowClick={canEdit ? (_id, _r, record) => editPath(record[register!.idColumn]) : false}
            bulkActionButtons={false}
            empty={<Empty />}
            header={<ListHeader onMove={columns.move} />}
            sx={{ '& .RaDatagrid-headerCell': { fontWeight: 600, bgcolor: 'grey.50' } }}
          >
            {columns.selected.map((key) => {
              const c = byName.get(key)!;
              return <Cell key={key} source={key} label={c.label} sortable={c.sortable} field={asField(c)} column={c} />;
            })}
          </Datagrid>
          <Pagination rowsPerPageOptions={PAGE_SIZES} />
        </Card>
      </ListContextProvider>
    </ResourceContextProvider>
  );
}
