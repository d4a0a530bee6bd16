// Record page (metadata record; spec section 2, asset tab menu): Voltar and the tabs the user may see in a slide
// carousel of tab levels — level 1 the record's tabs, level 2 the entries of a tab group (e.g. the asset's serials),
// level 3 the tabs of one entry (the group entity's own record tabs). `?slide=` and `?tabGroup=` select them;
// `tecnology` and `model` in the query are carried into navigation. Each tab shows its target: the form (or some of
// its sections), a nested list, a provider list, actions, delete, a screen, or navigates to another route — each kind
// described once in ./tabs.tsx (tabKinds), which this page renders from.
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { Box, Card, Divider, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import type { JSONSchema7 } from 'json-schema';
import { useGetList, useGetOne } from 'react-admin';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { EntityMeta, TabMeta } from '../../../../shared/model';
import { entityByKey, pathFor, recordPath, schemas } from '../../model';
import type { GenericProps } from '../forms/GenericForms';
import { Loading } from '../widgets/Loading';
import { useCan } from '../lib/useCan';
import { TabContent, entriesOf, representation, tabKinds } from './tabs';
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
/** Where the entry tab "back to the record" goes at level 3 when the user came from a device screen (state.deviceRoute). */
const deviceKey = (e: EntityMeta, value: string) => `rastro.rotaDispositivo:${e.key}:${value}`;

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
  const tabs = rec.tabs.filter((t) => visible(entity, t));
  const active = rec.tabs.find((t) => t.name === tab);
  const groupTab = rec.tabs.find((t) => isGroup(t) && t.name === (search.get('tabGroup') ?? (isGroup(active) ? active!.name : '')));
  const group = groupTab ? entityByKey(groupTab.entity!) : undefined;
  const entryValue = group?.record ? params[group.record.by] : undefined;
  const subTabs = group ? (group.record?.tabs ?? []).filter((t) => visible(group, t)) : [];
  const activeSub = group?.record?.tabs.find((t) => t.name === sub);
  const slide = Math.min(Math.max(Number(search.get('slide')) || (sub ? 3 : isGroup(active) ? 2 : 1), 1), groupTab ? (entryValue ? 3 : 2) : 1);

  useEffect(() => {
    const from = (location.state as { deviceRoute?: string } | null)?.deviceRoute;
    if (from && value) sessionStorage.setItem(deviceKey(entity, value), from);
  }, [location.state, entity, value]);

  /** Query kept across tabs: technology and model (when both are present), plus the slide and group asked for. */
  const query = (extra: Record<string, string | number> = {}) => {
    const q = new URLSearchParams();
    if (CARRIED.every((k) => search.get(k))) for (const k of CARRIED) q.set(k, search.get(k)!);
    for (const [k, v] of Object.entries(extra)) q.set(k, String(v));
    const s = q.toString();
    return s ? `?${s}` : '';
  };
  const go = (path: string, extra?: Record<string, string | number>) => navigate(`${path}${query(extra)}`);
  const first = tabs.find((t) => !tabKinds[t.kind].route && !isGroup(t));

  return {
    rec, value, record, loading, error, base, tabs, active, groupTab, group, entryValue, subTabs, activeSub, slide, first,
    open: (t: TabMeta) => {
      const route = tabKinds[t.kind].route;
      if (route) navigate(route(t, record));
      else if (isGroup(t)) go(`${base}/${t.name}`, { slide: 2, tabGroup: t.name });
      else go(`${base}/${t.name}`);
    },
    openEntry: (entry: string) => {
      const t = subTabs.find((x) => !tabKinds[x.kind].route);
      if (t && groupTab) go(`${base}/${groupTab.name}/${encodeURIComponent(entry)}/${t.name}`, { slide: 3, tabGroup: groupTab.name });
    },
    openSub: (t: TabMeta) => {
      const route = tabKinds[t.kind].route;
      if (route) navigate(route(t, undefined));
      else go(`${base}/${groupTab!.name}/${encodeURIComponent(entryValue!)}/${t.name}`, { slide: 3, tabGroup: groupTab!.name });
    },
    /** Level 3's record tab: the saved device route, else the first tab with the group's entries shown (slide 2). */
    backToRecord: () => {
      const saved = value ? sessionStorage.getItem(deviceKey(entity, value)) : null;
      if (saved) navigate(saved);
      else go(`${base}/${first?.name ?? ''}`, { slide: 2, tabGroup: groupTab!.name });
    },
    toSlide: (n: number) => go(`${location.pathname}`, n === 1 ? {} : { slide: n, tabGroup: groupTab!.name }),
    toIndex: () => first && navigate(`${base}/${first.name}${query()}`, { replace: true }),
    toList: () => navigate(pathFor(entity.key, 'list')),
  };
}

// ---- UI parts -------------------------------------------------------------------------------

function TabColumn({ label, items, value, hidden, width }: {
  label: string; items: { key: string; label: string; icon?: ReactNode; onClick: () => void }[]; value: string | false; hidden: boolean; width: number;
}) {
  const compact = width < COMPACT_BELOW;
  return (
    <Box aria-hidden={hidden || undefined} sx={{ width, flexShrink: 0, visibility: hidden ? 'hidden' : 'visible' }}>
      <Typography variant="caption" color="text.secondary" noWrap sx={{ display: 'block', px: compact ? 1 : 2, pt: 1 }}>{label}</Typography>
      <Tabs orientation="vertical" value={value} aria-label={label} variant="scrollable" sx={{ '& .MuiTab-root': { justifyContent: 'flex-start', textAlign: 'left', minHeight: 44, px: compact ? 1 : 2, minWidth: 0, maxWidth: 'none', textTransform: 'none', whiteSpace: 'nowrap' } }}>
        {items.map((i) => (
          <Tab key={i.key} value={i.key} aria-label={i.label} iconPosition="start" onClick={i.onClick}
            icon={i.icon as any}
            label={compact ? (i.icon ? undefined : <Tooltip title={i.label} placement="right"><span>{initials(i.label)}</span></Tooltip>) : i.label} />
        ))}
      </Tabs>
    </Box>
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
  const [dragging, setDragging] = useState(false);
  const ready = !p.loading && !!p.record;
  useEffect(() => {
    if (ready && !tab) p.toIndex();
  }, [ready, tab]); // eslint-disable-line react-hooks/exhaustive-deps
  const name = representation(entity, p.record, p.value ?? '');
  const title = `${entity.label.singular}: ${name}`;
  const slides = useMemo(() => {
    const out = [{
      label: 'Abas', value: (p.active?.name ?? false) as string | false,
      items: [{ key: '__voltar', label: 'Voltar', icon: <ArrowBackIcon fontSize="small" />, onClick: p.toList }, ...p.tabs.map((t) => ({ key: t.name, label: t.label, onClick: () => p.open(t) }))],
    }];
    if (p.groupTab) {
      const entries = entriesOf(p.record, p.groupTab.each!);
      out.push({
        label: p.groupTab.label, value: p.entryValue ?? false,
        items: [{ key: '__voltar', label: 'Voltar', icon: <ArrowBackIcon fontSize="small" />, onClick: () => p.toSlide(1) }, ...entries.map((v) => ({ key: v, label: v, onClick: () => p.openEntry(v) }))],
      });
      if (p.entryValue) out.push({
        label: `${p.groupTab.label} ${p.entryValue}`, value: p.activeSub?.name ?? false,
        items: [{ key: '__registro', label: name, icon: <ArrowBackIcon fontSize="small" />, onClick: p.backToRecord }, ...p.subTabs.map((t) => ({ key: t.name, label: t.label, onClick: () => p.openSub(t) }))],
      });
    }
    return out;
  }, [p.active, p.tabs, p.groupTab, p.record, p.entryValue, p.activeSub, p.subTabs, name]); // eslint-disable-line react-hooks/exhaustive-deps

  if (p.loading) return <Loading />;
  if (p.error || !p.record) return <Typography sx={{ p: 4 }} color="error">{p.error?.message ?? 'Nenhum item foi encontrado'}</Typography>;

  let content: ReactNode = null;
  if (p.activeSub && p.group && p.entryValue) {
    content = entry.loading ? <Loading />
      : !entry.record ? <Typography sx={{ p: 4 }} color="error">Nenhum item foi encontrado</Typography>
        : <TabContent entity={p.group} schema={groupSchema} record={entry.record} value={p.entryValue} tab={p.activeSub} openEntry={p.openEntry}
          deleted={() => navigate(`${p.base}/${p.groupTab!.name}?slide=2&tabGroup=${p.groupTab!.name}`)} />;
  } else if (p.active) {
    content = <TabContent entity={entity} schema={schema} record={p.record} value={p.value!} tab={p.active} deleted={p.toList} openEntry={p.openEntry} />;
  } else if (!p.first) {
    content = <Typography sx={{ p: 4 }} color="text.secondary">Nenhuma aba disponível</Typography>;
  }

  return (
    <Box className="rastro-record" sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <Card sx={{ width, flexShrink: 0, overflow: 'hidden' }}>
        <Typography variant="subtitle1" component="h2" sx={{ px: width < COMPACT_BELOW ? 1 : 2, pt: 1.5, pb: 1, fontWeight: 600 }} noWrap title={title}>{title}</Typography>
        <Divider />
        {/* slide carousel of the tab levels */}
        <Box data-slide={p.slide} sx={{ display: 'flex', transform: `translateX(-${(p.slide - 1) * width}px)`, transition: dragging ? 'none' : 'transform 250ms ease' }}>
          {slides.map((s, i) => <TabColumn key={i} label={s.label} items={s.items} value={s.value} hidden={i + 1 !== p.slide} width={width} />)}
        </Box>
      </Card>
      <TabSplitter width={width} onChange={(w, done) => { setWidth(done ? saveWidth(storage(), entity.key, w) : w); setDragging(!done); }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>{content}</Box>
    </Box>
  );
}
