// Route guard of spec section 6: /home always; wiki/dev anything; others only route names in
// their permissoes list, else a 1000 ms toast 'Você não tem permissão' and back.
import { useEffect, useRef, type ReactNode } from 'react';
import { useAuthenticated, useNotify, usePermissions } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { canEnter } from '../api/authProvider';
import { Loading } from '../crud/widgets/Loading';
import { previousRoute } from '../layout/Layout';

export function Guard({ name, children }: { name: string; children: ReactNode }) {
  useAuthenticated();
  const { permissions, isPending } = usePermissions<string[]>();
  const notify = useNotify();
  const navigate = useNavigate();
  const allowed = !isPending && canEnter(name, permissions);
  const refused = useRef(false);
  useEffect(() => {
    if (isPending || allowed || refused.current) return;
    refused.current = true;
    notify('Você não tem permissão', { type: 'error', autoHideDuration: 1000 });
    const prev = previousRoute();
    navigate(prev && prev !== location.pathname + location.search ? prev : '/home', { replace: true });
  }, [isPending, allowed, notify, navigate]);
  if (isPending) return <Loading />;
  return allowed ? <>{children}</> : null;
}
