// A screen that is a provider's list (metadata kind: tela with `list`, e.g. /adm/bib/biblioteca_de_eventos and
// /tlm/cfg/biblioteca): the route parameters with known values (provider params `values`) get the generated
// navigation levels (ParamLevels), then the generic provider list (its columns and filters from its metadata), in
// tabs over one enum param when `list.tabs` says so; the URL follows every choice. A tab listing a register (its
// entity) opens the register's add and edit forms.
import { useEffect } from 'react';
import { Tab, Tabs } from '@mui/material';
import { matchPath, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { RouteParamMeta, ScreenMeta } from '../../../../shared/model';
import { entityByKey, model } from '../../model';
import { ParamLevels } from '../../crud/pages/ParamIndex';
import { ProviderList, providerByKey } from '../../crud/lists/ProviderList';
import { checkParams, useTecnologias } from '../../crud/lib/params';
import { UnknownParams } from '../../crud/widgets/UnknownParams';

/** The screen (with list) whose route or subroutes match the path. */
const screenAt = (pathname: string): ScreenMeta | undefined => model.screens.find((s) => s.list
  && [s.route, ...(s.subroutes ?? []).map((x) => `${s.route}/${x}`)].some((r) => matchPath(r, pathname)));

export default function ProviderScreen() {
  const { pathname } = useLocation();
  const screen = screenAt(pathname);
  return screen ? <ProviderScreenOf key={screen.key} screen={screen} /> : null;
}

function ProviderScreenOf({ screen }: { screen: ScreenMeta }) {
  const list = screen.list!;
  const provider = providerByKey(list.provider)!;
  const route = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // Route parameters in the order of the provider's params; those with known values are navigation levels.
  const mapped = provider.params.flatMap((p) => {
    const name = Object.keys(list.params).find((k) => list.params[k] === p.name);
    return name ? [{ name, field: p.name, label: p.label, values: p.values } as RouteParamMeta] : [];
  });
  const values = mapped.map((p) => route[p.name]).filter((x): x is string => !!x);
  const { tecs, ready } = useTecnologias(mapped.some((p) => p.values));
  const checked = checkParams(mapped, values, tecs);
  const { labels } = checked;
  const error = ready ? checked.error : undefined;
  const tab = list.tabs?.options.find((o) => pathname.endsWith(`/${o.path}`));
  const here = [screen.route, ...values.map(encodeURIComponent)].join('/');
  const complete = values.length === mapped.length;

  // Every parameter chosen but no tab yet: the first tab.
  useEffect(() => {
    if (complete && !error && list.tabs && !tab) navigate(`${here}/${list.tabs.options[0].path}`, { replace: true });
  }, [complete, error, list.tabs, tab, here, navigate]);

  if (error) return <UnknownParams message={error} />;
  if (!complete) return <ParamLevels title={screen.label} base={screen.route} params={mapped} level={values.length} />;
  if (list.tabs && !tab) return null;
  const params = Object.fromEntries(mapped.map((p, i) => [p.field, values[i]]));
  if (list.tabs && tab) params[list.tabs.param] = tab.value;
  return (
    <ProviderList
      key={pathname}
      provider={provider}
      title={[screen.label, ...labels].join(': ')}
      route={tab ? `${screen.route}/${tab.path}` : screen.route}
      params={params}
      register={tab?.entity && entityByKey(tab.entity) ? { entity: entityByKey(tab.entity)!, idColumn: tab.entityId ?? 'id' } : undefined}
      toolbar={list.tabs && (
        <Tabs value={tab!.path} onChange={(_, v: string) => navigate(`${here}/${v}`)} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }} aria-label={screen.label}>
          {list.tabs.options.map((o) => <Tab key={o.path} value={o.path} label={o.label} />)}
        </Tabs>
      )}
    />
  );
}
