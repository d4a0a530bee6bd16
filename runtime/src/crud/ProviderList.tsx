// The shared list panel over a provider (metadata kind: provider, served by server/crud/provider.ts): its columns,
// quick search (filter q), date range (filters {field}_gte / {field}_lte), column chooser saved per route, export of
// the whole filtered result (GET {path}/export), sorting on the sortable columns, pagination. Used by screens
// (kind: tela) whose rows come from code, e.g. /tlm/ras/registros.
import { Card, Divider } from '@mui/material';
import { Datagrid, ListContextProvider, Pagination, ResourceContextProvider, Title, useListController, useNotify, useRecordContext } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { EntityMeta, FieldMeta, ProviderColumn, ProviderMeta } from '../../../generator/model';
import { model } from '../model';
import { DateRangeFilter, rangeFilter, rangeFromFilter } from './DateRangeFilter';
import { FieldValue } from './FieldValue';
import { Empty, PAGE_SIZES } from './GenericList';
import { ListHeader } from './ListHeader';
import { ListTools, SearchBox, downloadFile, exportParams } from './ListTools';
import { PanelHeader } from './PanelHeader';
import { useColumnChoices } from './useColumnChoices';

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

function Cell({ field }: { field: FieldMeta; source?: string; label?: string; sortable?: boolean }) {
  return useRecordContext() ? <FieldValue field={field} /> : null;
}

export function ProviderList({ provider, title, route }: { provider: ProviderMeta; title: string; route: string }) {
  const resource = provider.path!.replace(/^\//, '');
  const ctx = useListController({ resource, sort: provider.sort, perPage: 25 });
  const columns = useColumnChoices(choiceEntity(provider, route));
  const notify = useNotify();
  const navigate = useNavigate();
  const byName = new Map(provider.columns.map((c) => [c.name, c]));
  const ranged = dateRangeOf(provider);
  const filters = (ctx.filterValues ?? {}) as Record<string, unknown>;
  const setFilters = (patch: Record<string, unknown>) => {
    const next = { ...filters, ...patch };
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
          <PanelHeader title={title} onBack={() => navigate(-1)}>
            {ranged && <DateRangeFilter value={rangeFromFilter(ranged, filters)} onChange={(r) => setFilters(rangeFilter(ranged, r))} />}
            {provider.filters.some((f) => f.type === 'search') && <SearchBox value={String(filters.q ?? '')} onChange={(q) => setFilters({ q })} />}
            <ListTools choices={columns.choices} onToggle={columns.toggle} onExport={(f) => void exportAs(f)} />
          </PanelHeader>
          <Divider />
          <Datagrid
            rowClick={false}
            bulkActionButtons={false}
            empty={<Empty />}
            header={<ListHeader onMove={columns.move} />}
            sx={{ '& .RaDatagrid-headerCell': { fontWeight: 600, bgcolor: 'grey.50' } }}
          >
            {columns.selected.map((key) => {
              const c = byName.get(key)!;
              return <Cell key={key} source={key} label={c.label} sortable={c.sortable} field={asField(c)} />;
            })}
          </Datagrid>
          <Pagination rowsPerPageOptions={PAGE_SIZES} />
        </Card>
      </ListContextProvider>
    </ResourceContextProvider>
  );
}
