// Record page (metadata record; spec section 2, asset tab menu): a header with the back button (Voltar: the saved
// device route, else the list) and the record's name, one list of tabs — each a link to its route (middle-click,
// copyable URL) — and a toolbar with the record's actions and delete (`action`/`delete` tabs: buttons, each with
// the sentence saying what it does, not tabs). A group tab (e.g. the asset's serials) opens its entries below it and
// an entry its own record tabs below the entry: the tab list stays whole at every level (the spec's slide carousel,
// built as nested tabs). `?tabGroup=` still expands a group; `tecnology` and `model` in the query are carried.
// Each tab's content is described once in ./tabs.tsx (tabKinds), which this page renders from.
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { Box, Card, Divider, IconButton, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import type { JSONSchema7 } from 'json-schema';
import { useGetList, useGetOne } from 'react-admin';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { EntityMeta, TabMeta } from '../../../../shared/model';
import { entityByKey, pathFor, recordPath, schemas } from '../../model';
import type { GenericProps } from '../forms/GenericForms';
import { Loading } from '../widgets/Loading';
import { useCan } from '../lib/useCan';
import { RecordToolbar, TabContent, entriesOf, inToolbar, representation, tabKinds } from './tabs';
import { COMPACT_BELOW, SPLITTER, clampWidth, initials, keyWidth, loadWidth, saveWidth } from '../lib/splitter';

export interface RecordRoute { tab?: string; sub?: string }

type Row = Record<string, unknown>;
const CARRIED = ['tecnology', 'model'];

// ---- headless part --------------------------------------------------------------------------

/** The row named by the record route parameter (id, or a unique field such as serial). */
export function useRecordBy(entity: EntityMeta, value: string | undefined) {
  const by = entity.record?.by ?? 'id';
  const one = useGetOne(entity.key, { id: value ?? '' }, { enabled: by === 'id' && !!value });
  const list = useGetList(entity.key, { filter: { [by]: [value] }, pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' } }, { enabled: by !== 'id' && !!value });
  return by === 'id'
    ? { record: one.data as Row | undefined, loading: one.isPending && !!value, error: one.error as Error | null }
    : { record: list.data?.[0] as Row | undefined, loading: list.isPending && !!value, error: list.error as Error | null };
}

/** The JSON Schema of another entity (a group entry's form), from its lazily loaded resource module. */
function useSchemaOf(key: string | undefined): JSONSchema7 | undefined {
  const [schema, setSchema] = useState<{ key: string; schema: JSONSchema7 }>();
  useEffect(() => {
    const load = key ? schemas[key] : undefined;
    if (!load || schema?.key === key) return;
    void load().then((s) => setSchema({ key: key!, schema: s }));
  }, [key, schema?.key]);
  return schema && schema.key === key ? schema.schema : undefined;
}

const isGroup = (t: TabMeta | undefined) => !!t && !!tabKinds[t.kind].group;
/** Where the back button goes when the user came from a device screen (state.deviceRoute). */
const deviceKey = (e: EntityMeta, value: string) => `rastro.rotaDispositivo:${e.key}:${value}`;

/** One entry of the tab list: a link; `depth` 1 for a group's entries, 2 for an entry's tabs. */
export interface TabItem { key: string; label: string; href: string; depth: number }

export function useRecordPage(entity: EntityMeta, tab?: string, sub?: string) {
  const rec = entity.record!;
  const params = useParams();
  const value = params[rec.by];
  const { can } = useCan();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const { record, loading, error } = useRecordBy(entity, value);
  const base = recordPath(entity, value ?? '');
  // A tab shows with its key, the record's visualizar key (the page reads the record) and, for a nested list, the
  // list's own key (the nested route requires the three).
  const visible = (e: EntityMeta, t: TabMeta) => can(t.permission) && can(`${e.permission}.visualizar`)
    && (tabKinds[t.kind].keys?.(t) ?? []).every((k) => can(k));
  const all = rec.tabs.filter((t) => visible(entity, t));
  const tabs = all.filter((t) => !inToolbar(t));
  const active = rec.tabs.find((t) => t.name === tab);
  const groupTab = rec.tabs.find((t) => isGroup(t) && visible(entity, t) && t.name === (isGroup(active) ? active!.name : search.get('tabGroup')));
  const group = groupTab ? entityByKey(groupTab.entity!) : undefined;
  const entryValue = group?.record && isGroup(active) ? params[group.record.by] : undefined;
  const subAll = group ? (group.record?.tabs ?? []).filter((t) => visible(group, t)) : [];
  const subTabs = subAll.filter((t) => !inToolbar(t));
  const activeSub = group?.record?.tabs.find((t) => t.name === sub);

  useEffect(() => {
    const from = (location.state as { deviceRoute?: string } | null)?.deviceRoute;
    if (from && value) sessionStorage.setItem(deviceKey(entity, value), from);
  }, [location.state, entity, value]);

  /** Query kept across tabs: technology and model (when both are present). */
  const query = () => {
    const q = new URLSearchParams();
    if (CARRIED.every((k) => search.get(k))) for (const k of CARRIED) q.set(k, search.get(k)!);
    const s = q.toString();
    return s ? `?${s}` : '';
  };
  const first = tabs.find((t) => !tabKinds[t.kind].route && !isGroup(t));
  const firstSub = subTabs.find((x) => !tabKinds[x.kind].route);
  const entryHref = (entry: string, t?: TabMeta) => `${base}/${groupTab!.name}/${encodeURIComponent(entry)}/${(t ?? firstSub)?.name ?? ''}${query()}`;
  const hrefOf = (t: TabMeta, r: Row | undefined, at: string) => {
    const route = tabKinds[t.kind].route;
    return route ? route(t, r) : `${at}/${t.name}${query()}`;
  };

  // the tab list: the record's tabs; below the open group its entries, below the open entry its tabs
  const items: TabItem[] = [];
  for (const t of tabs) {
    items.push({ key: `t:${t.name}`, label: t.label, href: hrefOf(t, record, base), depth: 0 });
    if (t !== groupTab) continue;
    for (const v of entriesOf(record, t.each!)) {
      items.push({ key: `e:${v}`, label: v, href: firstSub ? entryHref(v) : `${base}/${t.name}${query()}`, depth: 1 });
      if (v === entryValue) {
        for (const st of subTabs) items.push({ key: `s:${st.name}`, label: st.label, href: tabKinds[st.kind].route ? hrefOf(st, undefined, '') : entryHref(v, st), depth: 2 });
      }
    }
  }
  const selected: string | false = activeSub && !inToolbar(activeSub) ? `s:${activeSub.name}`
    : entryValue ? `e:${entryValue}`
      : active && !inToolbar(active) ? `t:${active.name}` : false;

  return {
    rec, value, record, loading, error, base, tabs, all, items, selected, active, groupTab, group, entryValue, subAll, activeSub, first,
    openEntry: (entry: string) => { if (groupTab && firstSub) navigate(entryHref(entry)); },
    /** Voltar: the saved device route, else the list. */
    back: () => {
      const saved = value ? sessionStorage.getItem(deviceKey(entity, value)) : null;
      navigate(saved ?? pathFor(entity.key, 'list'));
    },
    toIndex: () => first && navigate(`${base}/${first.name}${query()}`, { replace: true }),
    toList: () => navigate(pathFor(entity.key, 'list')),
  };
}

// ---- UI parts -------------------------------------------------------------------------------

/** The selected tab's marker, drawn inside the tab (Material UI's indicator is placed from window coordinates and
 *  lands off its tab under the window zoom, layout/zoom.ts). */
const Marker = () => (
  <Box component="span" data-tab-marker aria-hidden sx={{ position: 'absolute', right: 0, top: 0, bottom: 0, width: 3, bgcolor: 'primary.main', borderRadius: '3px 0 0 3px' }} />
);

function TabList({ items, value, width }: { items: TabItem[]; value: string | false; width: number }) {
  const compact = width < COMPACT_BELOW;
  return (
    <Tabs orientation="vertical" value={value} aria-label="Abas" variant="scrollable" slotProps={{ indicator: { sx: { display: 'none' } } }}
      sx={{ '& .MuiTab-root': { flexDirection: 'row', justifyContent: 'flex-start', textAlign: 'left', minHeight: 44, minWidth: 0, maxWidth: 'none', textTransform: 'none', whiteSpace: 'nowrap', boxShadow: 'none' } }}>
      {items.map((i) => (
        <Tab key={i.key} value={i.key} aria-label={i.label} component={Link} to={i.href}
          sx={{ pl: compact ? 1 + i.depth : 2 + i.depth * 2, pr: compact ? 1 : 2, fontSize: i.depth ? '0.85rem' : undefined }}
          label={<>
            {compact ? <Tooltip title={i.label} placement="right"><span>{initials(i.label)}</span></Tooltip> : <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{i.label}</Box>}
            {value === i.key && <Marker />}
          </>} />
      ))}
    </Tabs>
  );
}

/** The splitter between the tab column and the content: drag it or use the arrow keys, Home and End. */
function TabSplitter({ width, onChange }: { width: number; onChange: (w: number, done: boolean) => void }) {
  const drag = useRef<{ x: number; w: number; zoom: number } | null>(null);
  // pointer positions are in window pixels; widths are in the zoomed body's pixels (layout/zoom.ts)
  const at = (e: ReactPointerEvent) => clampWidth(drag.current!.w + (e.clientX - drag.current!.x) / drag.current!.zoom);
  const move = (e: ReactPointerEvent) => { if (drag.current) onChange(at(e), false); };
  return (
    <Box role="separator" tabIndex={0} aria-orientation="vertical" aria-label="Largura das abas"
      aria-valuemin={SPLITTER.min} aria-valuemax={SPLITTER.max} aria-valuenow={width}
      onPointerDown={(e) => {
        drag.current = { x: e.clientX, w: width, zoom: Number(getComputedStyle(document.documentElement).getPropertyValue('--rastro-zoom')) || 1 };
        e.currentTarget.setPointerCapture(e.pointerId);
      }}
      onPointerMove={move}
      onPointerUp={(e) => { if (drag.current) { onChange(at(e), true); drag.current = null; } }}
      onKeyDown={(e) => { const w = keyWidth(width, e.key); if (w !== undefined) { e.preventDefault(); onChange(w, true); } }}
      sx={{ width: 8, mx: -1, alignSelf: 'stretch', cursor: 'col-resize', flexShrink: 0, position: 'relative', zIndex: 1, touchAction: 'none',
        '&::after': { content: '""', position: 'absolute', left: 3, top: 0, bottom: 0, width: 2, borderRadius: 1, bgcolor: 'divider' },
        '&:hover::after, &:focus-visible::after': { bgcolor: 'primary.main' }, outline: 'none' }} />
  );
}

const storage = () => (typeof window === 'undefined' ? undefined : window.localStorage);

export function RecordPage({ entity, schema, tab, sub }: GenericProps & RecordRoute) {
  const p = useRecordPage(entity, tab, sub);
  const entry = useRecordBy(p.group ?? entity, p.entryValue);
  const groupSchema = useSchemaOf(p.activeSub && tabKinds[p.activeSub.kind].schema ? p.group?.key : undefined);
  const navigate = useNavigate();
  const [width, setWidth] = useState(() => loadWidth(storage(), entity.key));
  const ready = !p.loading && !!p.record;
  useEffect(() => {
    if (ready && !tab) p.toIndex();
  }, [ready, tab]); // eslint-disable-line react-hooks/exhaustive-deps
  const name = representation(entity, p.record, p.value ?? '');
  const title = `${entity.label.singular}: ${name}`;

  if (p.loading) return <Loading />;
  if (p.error || !p.record) return <Typography sx={{ p: 4 }} color="error">{p.error?.message ?? 'Nenhum item foi encontrado'}</Typography>;

  const entryDeleted = () => navigate(`${p.base}/${p.groupTab!.name}`);
  let content: ReactNode = null;
  let toolbar: ReactNode = <RecordToolbar entity={entity} record={p.record} value={p.value!} tabs={p.all} deleted={p.toList} except={p.active?.name} />;
  if (p.group && p.entryValue) {
    toolbar = entry.record ? <RecordToolbar entity={p.group} record={entry.record} value={p.entryValue} tabs={p.subAll} deleted={entryDeleted} except={p.activeSub?.name} /> : null;
    if (p.activeSub) {
      content = entry.loading ? <Loading />
        : !entry.record ? <Typography sx={{ p: 4 }} color="error">Nenhum item foi encontrado</Typography>
          : <TabContent entity={p.group} schema={groupSchema} record={entry.record} value={p.entryValue} tab={p.activeSub} openEntry={p.openEntry} deleted={entryDeleted} />;
    }
  } else if (p.active) {
    content = <TabContent entity={entity} schema={schema} record={p.record} value={p.value!} tab={p.active} deleted={p.toList} openEntry={p.openEntry} />;
  } else if (!p.first) {
    content = <Typography sx={{ p: 4 }} color="text.secondary">Nenhuma aba disponível</Typography>;
  }
  const compact = width < COMPACT_BELOW;

  return (
    <Box className="rastro-record" sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <Card sx={{ width, flexShrink: 0, overflow: 'hidden' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, px: compact ? 0.5 : 1, py: 1 }}>
          <Tooltip title="Voltar">
            <IconButton aria-label="Voltar" size="small" onClick={p.back}><ArrowBackIcon fontSize="small" /></IconButton>
          </Tooltip>
          {!compact && <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, minWidth: 0 }} noWrap title={title}>{title}</Typography>}
        </Box>
        <Divider />
        <TabList items={p.items} value={p.selected} width={width} />
      </Card>
      <TabSplitter width={width} onChange={(w, done) => setWidth(done ? saveWidth(storage(), entity.key, w) : w)} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 2 }}>
        {toolbar}
        {content}
      </Box>
    </Box>
  );
}
