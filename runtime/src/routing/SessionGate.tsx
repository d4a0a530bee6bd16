// The admin mounts only over a live session: a token the server no longer knows (expired, ended, another
// database) goes to /login once, keeping the asked page, before react-admin's checkAuth could fail and run its
// redirect loop (see signedOut.ts). Other failures (no connection) leave it to react-admin's own handling.
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { authHeaders } from '../api/http';
import { clearToken, getToken } from '../api/cookie';
import { normalizeUser, session } from '../api/session';
import { loginRedirect } from './signedOut';

export function SessionGate({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(() => session.get() !== null || !getToken()); // no token: a public route (App.tsx)
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (ready) return;
    let live = true;
    fetch('/api/auth/get_session', { headers: authHeaders() })
      .then(async (r) => {
        if (!live) return;
        if (r.status === 401) {
          clearToken();
          const { to, options } = loginRedirect(pathname, search);
          navigate(to, options);
          return;
        }
        const j = r.ok ? await r.json() : undefined;
        if (j?.payload) session.set(normalizeUser(j.payload.user ?? j.payload));
        if (live) setReady(true);
      })
      .catch(() => live && setReady(true));
    return () => { live = false; };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return ready ? <>{children}</> : null;
}
