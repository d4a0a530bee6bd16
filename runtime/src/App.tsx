// Entry switch: /login renders without react-admin (its first load carries React, the router and the MUI
// pieces of the form only); every other route loads the react-admin app (AdminApp.tsx) lazily. Without a token the
// visitor goes to /login at once (routing/signedOut.ts): react-admin is not even loaded.
import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { getToken } from './api/cookie';
import { LoginPage } from './pages/Login';
import { isPublic, loginRedirect } from './routing/signedOut';
import { screens } from '@rastro/generated';
import { chunk } from './api/bugtrack';

const AdminApp = lazy(chunk(() => import('./AdminApp').then((m) => ({ default: m.AdminApp })), 'AdminApp'));
// Public screens (metadata `public: true`, e.g. the public link's page) open with no session, before react-admin.
const publicScreens = new Map(screens.filter((s) => s.public).map((s) => [s.route, lazy(s.load)]));

export function App() {
  const { pathname, search } = useLocation();
  if (pathname === '/login' || pathname === '/login/') return <LoginPage />;
  const Public = publicScreens.get(pathname.replace(/\/$/, ''));
  if (Public) return <Suspense fallback={null}><Public /></Suspense>;
  if (!getToken() && !isPublic(pathname)) {
    const { to, options } = loginRedirect(pathname, search);
    return <Navigate to={to} {...options} />;
  }
  return (
    <Suspense fallback={null}>
      <AdminApp />
    </Suspense>
  );
}
