// The react-admin app: pt-BR only, spec routes as custom routes (Resource name = entity key for
// the dataProvider; URLs = the metadata routes), every screen lazy-loaded. Loaded lazily by App.tsx
// (everything but /login).
import { lazy, Suspense, type ComponentType } from 'react';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { authProvider } from './api/authProvider';
import { dataProvider } from './api/dataProvider';
import { i18nProvider } from './i18n/i18nProvider';
import { Layout } from './layout/Layout';
import { entityByKey, model, routeTable, schemas, screens as screenModules, type RouteEntry, type View } from './model';
import { loadRecord, loadView } from './crud/pages/views';
import { ParamIndex, ParamLevels } from './crud/pages/ParamIndex';
import { LoginPage } from './pages/Login';
import { ChangePassword } from './pages/ChangePassword';
import { Guard } from './routing/Guard';
import { CompanyBound } from './routing/CompanyBound';
import { SessionGate } from './routing/SessionGate';
import { Hub } from './crud/pages/Hub';
import { Loading } from './crud/widgets/Loading';
import { theme } from './theme';
import { RealtimePush } from './layout/Realtime';
import { TarefasEmAndamento } from './layout/Tarefas';
import { chunk } from './api/bugtrack';

const Home = lazy(chunk(() => import('./pages/Home').then((m) => ({ default: m.Home })), 'Home'));
const screenLoaders = new Map(screenModules.map((s) => [s.key, s.load]));

function NotFound() {
  return null;
}

// One lazy component per (entity, view) and per screen (metadata kind: tela), created once.
const screens = routeTable().flatMap((rt): (RouteEntry & { Screen: ComponentType })[] => {
  if (rt.view === 'hub') {
    const hub = model.hubs?.find((h) => h.key === rt.hub);
    const Screen: ComponentType = () => <Hub hub={hub!} />;
    return hub ? [{ ...rt, Screen }] : [];
  }
  if (rt.view === 'params') {
    // Levels above a list with route parameters: generated navigation (choose technology, then model ...).
    const entity = rt.entity ? entityByKey(rt.entity) : undefined;
    const alias = rt.alias !== undefined ? entity?.aliases?.[rt.alias] : undefined;
    // a list alias below the parameters (e.g. /adm/cfg/configurar_equipamentos/:tecnology/:model) has its own levels
    if (entity && alias) {
      const base = alias.path.split('/').slice(0, -(entity.params?.length ?? 0)).join('/');
      return [{ ...rt, Screen: () => <ParamLevels title={alias.label ?? entity.label.plural} base={base} params={entity.params ?? []} level={rt.level ?? 0} /> }];
    }
    return entity ? [{ ...rt, Screen: () => <ParamIndex entity={entity} level={rt.level ?? 0} /> }] : [];
  }
  if (rt.view === 'screen') {
    const load = rt.screen ? screenLoaders.get(rt.screen) : undefined;
    return load ? [{ ...rt, Screen: lazy(chunk(load, rt.screen)) }] : [];
  }
  const entity = rt.entity ? entityByKey(rt.entity) : undefined;
  const schema = entity && schemas[entity.key];
  if (!entity || !schema) return [];
  // Record page (metadata record): the same page, told which tab (and group entry tab) the route shows.
  const Screen = rt.view === 'record'
    ? lazy(chunk(async () => ({ default: await loadRecord(entity, schema, rt.tab, rt.sub) }), `${entity.key}/record`))
    : lazy(chunk(async () => ({ default: (await loadView(entity, rt.view as View, schema, rt.alias !== undefined ? entity.aliases?.[rt.alias] : undefined)) ?? NotFound }), `${entity.key}/${rt.view}`));
  return [{ ...rt, Screen }];
});

const HomeRedirect = () => <Navigate to="/home" replace />;

export function AdminApp() {
  return (
    <SessionGate>
      <Admin
        disableTelemetry
        requireAuth
        title="Rastro"
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        layout={Layout}
        loginPage={LoginPage}
        dashboard={HomeRedirect}
        theme={theme}
      >
        {model.entities.map((e) => (
          <Resource key={e.key} name={e.key} recordRepresentation={e.recordRepresentation} options={{ label: e.label.plural }} />
        ))}
        <CustomRoutes noLayout>
        <Route path="/alterar_senha/:id" element={<ChangePassword />} />
      </CustomRoutes>
      <CustomRoutes>
          <Route
            path="/home"
            element={
              <Suspense fallback={<Loading />}>
                <Home />
              </Suspense>
            }
          />
          {screens.map(({ path, name, Screen }) => (
            <Route
              key={path}
              path={path}
              element={
                <Guard name={name}>
                  <CompanyBound>
                    <Suspense fallback={<Loading />}>
                      <Screen />
                    </Suspense>
                  </CompanyBound>
                </Guard>
              }
            />
          ))}
        </CustomRoutes>
      </Admin>
      <RealtimePush />
      <TarefasEmAndamento />
    </SessionGate>
  );
}
