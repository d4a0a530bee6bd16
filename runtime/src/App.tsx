// Entry switch: /login renders without react-admin (its first load carries React, the router and the MUI
// pieces of the form only); every other route loads the react-admin app (AdminApp.tsx) lazily.
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import { LoginPage } from './pages/Login';

const AdminApp = lazy(() => import('./AdminApp').then((m) => ({ default: m.AdminApp })));

export function App() {
  const { pathname } = useLocation();
  if (pathname === '/login' || pathname === '/login/') return <LoginPage />;
  return (
    <Suspense fallback={null}>
      <AdminApp />
    </Suspense>
  );
}
