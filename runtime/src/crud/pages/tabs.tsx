// The record-tab kinds of a record page (metadata record.tabs, TabMeta.kind), one entry each: what the tab shows
// (Content), or where it navigates (route), or that it opens a second level (group), or that it is a button of the
// record's toolbar (toolbar: actions, delete), and the keys it needs besides its own. RecordPage renders only from
// this map; a kind added to the model without an entry here fails tsc.
import { lazy, Suspense, useId, useState, type ComponentType, type ReactNode } from 'react';
import { Box, Button, Card, CardContent, Divider, Stack, Tooltip, Typography } from '@mui/material';
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
  /** Buttons of the record's toolbar, not a tab (its route still shows Content). */
  Toolbar?: ComponentType<ToolbarProps>;
}

/** What a toolbar entry gets: the record of `entity` (or of a group entry). */
export interface ToolbarProps { entity: EntityMeta; record: Row; value: string; tab: TabMeta; deleted: () => void }

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
      <ActionButtons entity={entity} record={record} names={tab.actions} variant="contained" describe />
    </Panel>
  );
}

const deleteSentence = (entity: EntityMeta, record: Row) =>
  `Exclui ${entity.label.singular.toLowerCase()} ${String(record[entity.recordRepresentation] ?? record.id)} e o seu histórico de cadastro.`;

/** Excluir behind 'Deseja Excluir?'; `label` the tab's. */
function DeleteButton({ entity, record, label, deleted, variant, describedBy }: {
  entity: EntityMeta; record: Row; label: string; deleted: () => void; variant: 'outlined' | 'contained'; describedBy?: string;
}) {
  const [open, setOpen] = useState(false);
  const [remove] = useDelete();
  const notify = useNotify();
  return (
    <>
      <Button color="error" variant={variant} startIcon={<DeleteIcon />} onClick={() => setOpen(true)} aria-describedby={describedBy} sx={{ whiteSpace: 'nowrap' }}>{label}</Button>
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
    </>
  );
}

function DeleteTab({ entity, record, title, deleted }: TabProps) {
  return (
    <Panel title={title}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>{deleteSentence(entity, record)}</Typography>
        <DeleteButton entity={entity} record={record} label="Excluir" deleted={deleted} variant="contained" />
      </Stack>
    </Panel>
  );
}

const hidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

function DeleteTool({ entity, record, tab, deleted }: ToolbarProps) {
  const id = useId();
  const sentence = deleteSentence(entity, record);
  return (
    <>
      <Tooltip title={sentence} describeChild>
        <span><DeleteButton entity={entity} record={record} label={tab.label} deleted={deleted} variant="outlined" describedBy={id} /></span>
      </Tooltip>
      <Box component="span" id={id} sx={hidden}>{sentence}</Box>
    </>
  );
}

function ActionTool({ entity, record, tab }: ToolbarProps) {
  return <ActionButtons entity={entity} record={record} names={tab.actions} describe />;
}

/** The record's toolbar: its action and delete tabs as buttons, each described by its sentence (`except`: the one
 *  whose route is open, its panel shows it). */
export function RecordToolbar({ entity, record, value, tabs, deleted, except }: { entity: EntityMeta; record: Row; value: string; tabs: TabMeta[]; deleted: () => void; except?: string }) {
  const tools = tabs.filter((t) => inToolbar(t) && t.name !== except);
  if (!tools.length) return null;
  return (
    <Card role="toolbar" aria-label="Ações do registro" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', px: 2, py: 1 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mr: 1 }}>Ações</Typography>
      {tools.map((t) => {
        const Tool = tabKinds[t.kind].Toolbar!;
        return <Tool key={t.name} entity={entity} record={record} value={value} tab={t} deleted={deleted} />;
      })}
    </Card>
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
  action: { Content: ActionTab, Toolbar: ActionTool },
  delete: { Content: DeleteTab, Toolbar: DeleteTool },
  route: { route: (t, r) => fill(t.route!, r) },
  group: { Content: GroupTab, group: true },
};

/** The tab is a toolbar button (action, delete), not an entry of the tab list. */
export const inToolbar = (t: TabMeta) => !!tabKinds[t.kind].Toolbar;

/** What one tab shows for one record of `entity` (nothing for a tab that navigates). */
export function TabContent(props: Omit<TabProps, 'title'>) {
  const Content = tabKinds[props.tab.kind].Content;
  const title = `${props.tab.label}: ${representation(props.entity, props.record, props.value)}`;
  return Content ? <Content {...props} title={title} /> : null;
}
