// The record-tab kinds of a record page (metadata record.tabs, TabMeta.kind), one entry each: what the tab shows
// (Content), or where it navigates (route), or that it opens a second level (group), and the keys it needs besides
// its own. RecordPage renders only from this map; a kind added to the model without an entry here fails tsc.
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Button, Card, CardContent, Divider, Stack, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import type { JSONSchema7 } from 'json-schema';
import { Confirm, Title, useDelete, useNotify, useRefresh } from 'react-admin';
import type { EntityMeta, ProviderMeta, TabMeta } from '../../../../shared/model';
import type { TabKind } from '../../../../shared/tabs';
import { entityByKey, model, screens } from '../../model';
import type { Nested } from '../lib/nested';
import { Loading } from '../widgets/Loading';
import { PanelHeader } from '../widgets/PanelHeader';
import { ActionButtons } from '../forms/ActionButtons';
import { GenericEdit } from '../forms/GenericForms';
import { GenericList } from '../lists/GenericList';
import { ProviderList, providerResource } from '../lists/ProviderList';

type Row = Record<string, unknown>;

/** What a tab's content gets: the record of `entity` (or of a group entry) and the page's callbacks. */
export interface TabProps {
  entity: EntityMeta; schema: JSONSchema7 | undefined; record: Row; value: string; tab: TabMeta;
  /** '{tab label}: {record}' */
  title: string;
  /** after the record was deleted */
  deleted: () => void;
  /** a group tab's entry chosen */
  openEntry: (entry: string) => void;
}

export interface TabRenderer {
  /** What the tab shows; absent when the tab navigates (route) instead. */
  Content?: ComponentType<TabProps>;
  /** The tab navigates to this path (filled from the record) instead of showing content. */
  route?: (tab: TabMeta, record: Row | undefined) => string;
  /** The tab opens a second level: one entry per value of its `each` column. */
  group?: true;
  /** Content needs the entity's JSON Schema. */
  schema?: true;
  /** Keys the tab needs besides its own and the record's visualizar key. */
  keys?: (tab: TabMeta) => string[];
}

export const representation = (e: EntityMeta, r: Row | undefined, fallback: string) => String(r?.[e.recordRepresentation] ?? fallback);
export const entriesOf = (r: Row | undefined, column: string) => String(r?.[column] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
/** A route tab's target: {field} from the record. */
const fill = (path: string, r: Row | undefined) => path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(String(r?.[n] ?? '')));

export function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <Title title={title} />
      <PanelHeader title={title} />
      <Divider />
      <CardContent sx={{ px: 3 }}>{children}</CardContent>
    </Card>
  );
}

function FormTab({ entity, schema, record, tab, title }: TabProps) {
  const refresh = useRefresh();
  return schema ? <GenericEdit entity={entity} schema={schema} id={record.id as number} sections={tab.sections} title={title} saved={refresh} /> : <Loading />;
}

function ListTab({ entity, record, value, tab }: TabProps) {
  const child = entityByKey(tab.entity!)!;
  const nested: Nested = { resource: `${entity.key}/${encodeURIComponent(value)}/${child.key}`, field: child.parent!.field, value: child.parent!.by === 'id' || child.parent!.refId ? Number(record.id) : value, parent: entity.key };
  return <GenericList key={nested.resource} entity={child} nested={nested} />;
}

/** Rows of a provider (metadata kind: provider) whose path parameters come from the record: the shared provider list
 *  (its filters, date range, search, column chooser and export) inside the tab. */
function ProviderTab({ entity, record, tab, title }: TabProps) {
  const provider = model.providers.find((p) => p.key === tab.provider)! as ProviderMeta;
  const route = `${entity.route}/:${entity.record!.by ?? 'id'}/${tab.name}`;
  const params = Object.fromEntries([...(provider.path ?? '').matchAll(/\{([^}]+)\}/g)].map(([, n]) => [n, String(record[n] ?? '')]));
  return <ProviderList key={providerResource(provider, params)} provider={provider} title={title} route={route} params={params} inTab />;
}

const screenComponents = new Map<string, ComponentType<Partial<TabProps>>>();
/** A screen in a tab (or a group tab's screen): it gets the tab's props (the record, openEntry). */
function ScreenTab(props: TabProps) {
  const s = screens.find((x) => x.key === props.tab.screen);
  if (!s) return null;
  if (!screenComponents.has(s.key)) screenComponents.set(s.key, lazy(s.load as () => Promise<{ default: ComponentType<Partial<TabProps>> }>));
  const C = screenComponents.get(s.key)!;
  return <Suspense fallback={<Loading />}><C {...props} /></Suspense>;
}

function ActionTab({ entity, record, tab, title }: TabProps) {
  return (
    <Panel title={title}>
      <ActionButtons entity={entity} record={record} names={tab.actions} variant="contained" />
    </Panel>
  );
}

function DeleteTab({ entity, record, title, deleted }: TabProps) {
  const [open, setOpen] = useState(false);
  const [remove] = useDelete();
  const notify = useNotify();
  return (
    <Panel title={title}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>Exclui {entity.label.singular.toLowerCase()} {String(record[entity.recordRepresentation] ?? record.id)} e o seu histórico de cadastro.</Typography>
        <Button color="error" variant="contained" startIcon={<DeleteIcon />} onClick={() => setOpen(true)}>Excluir</Button>
      </Stack>
      <Confirm
        isOpen={open}
        title="Deseja Excluir?"
        content="Esta ação não poderá ser revertida, deseja realmente excluir?"
        confirm="Excluir"
        cancel="Cancelar"
        confirmColor="warning"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          setOpen(false);
          try {
            await remove(entity.key, { id: record.id as number, previousData: record as never }, { mutationMode: 'pessimistic', returnPromise: true });
            notify('Registro excluído', { type: 'success', autoHideDuration: 3000 });
            deleted();
          } catch (e) {
            notify((e as Error).message, { type: 'error', autoHideDuration: 3000 });
          }
        }}
      />
    </Panel>
  );
}

/** A group tab at level 2: its entries (the values of its `each` column), each opening the entry's tabs. */
function GroupTab(props: TabProps) {
  const { record, tab, title, openEntry } = props;
  if (tab.screen) return <ScreenTab {...props} />;
  const entries = entriesOf(record, tab.each!);
  return (
    <Panel title={title}>
      {entries.length ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {entries.map((v) => <Button key={v} variant="outlined" onClick={() => openEntry(v)}>{v}</Button>)}
        </Stack>
      ) : <Typography color="text.secondary">Nenhum item foi encontrado</Typography>}
    </Panel>
  );
}

export const tabKinds: Record<TabKind, TabRenderer> = {
  form: { Content: FormTab, schema: true },
  list: { Content: ListTab, keys: (t) => [`${entityByKey(t.entity!)?.permission}.lista`] },
  provider: { Content: ProviderTab },
  screen: { Content: ScreenTab },
  action: { Content: ActionTab },
  delete: { Content: DeleteTab },
  route: { route: (t, r) => fill(t.route!, r) },
  group: { Content: GroupTab, group: true },
};

/** What one tab shows for one record of `entity` (nothing for a tab that navigates). */
export function TabContent(props: Omit<TabProps, 'title'>) {
  const Content = tabKinds[props.tab.kind].Content;
  const title = `${props.tab.label}: ${representation(props.entity, props.record, props.value)}`;
  return Content ? <Content {...props} title={title} /> : null;
}
