// Sign-in (POST /api/auth/login), session (GET /api/auth/get_session), permissions
// (GET /api/usuario/permissoes). The token lives in a cookie.
import type { AuthProvider } from 'react-admin';
import { clearToken, getToken, setToken } from './cookie';
import { call, endedReason } from './http';
import { normalizeUser, session, type SessionUser } from './session';

export const SUPER_ROLES = ['wiki', 'dev'];
let permsCache: { token: string; empresa: number | null; list: string[] } | null = null;

export async function fetchSession(): Promise<SessionUser> {
  const p = await call<any>('/api/auth/get_session');
  const user = normalizeUser(p?.user ?? p);
  session.set(user);
  return user;
}

export function resetPermissions() {
  permsCache = null;
}

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    const p = await call<any>('/api/auth/login', { method: 'POST', body: JSON.stringify({ login: username, senha: password }) });
    const token = p?.token ?? p?.accessToken;
    if (!token) throw new Error('Usuário ou senha inválidos');
    setToken(token);
    permsCache = null;
    if (p?.user) session.set(normalizeUser(p.user));
    await fetchSession();
  },
  async logout() {
    const had = getToken();
    if (had) await call('/api/auth/logout', { method: 'POST', body: '{}' }).catch(() => undefined);
    clearToken();
    session.set(null);
    permsCache = null;
    return '/login';
  },
  async checkAuth() {
    if (!getToken()) throw new Error('unauthenticated');
    if (!session.get()) await fetchSession();
  },
  async checkError(error: any) {
    if (error?.status === 401) {
      clearToken();
      session.set(null);
      // a session someone else ended: its dialog (layout/Realtime.tsx) goes to /login after 2 s
      if (endedReason(error.body)) return;
      throw new Error('unauthenticated');
    }
  },
  async getIdentity() {
    const u = session.get() ?? (await fetchSession());
    return { id: u.id, fullName: u.nome || u.login };
  },
  async getPermissions() {
    const token = getToken();
    if (!token) return [];
    const empresa = session.get()?.empresaAtiva ?? null;
    if (permsCache && permsCache.token === token && permsCache.empresa === empresa) return permsCache.list;
    const p = await call<any>('/api/usuario/permissoes');
    const list: string[] = Array.isArray(p) ? p : Array.isArray(p?.permissoes) ? p.permissoes : [];
    permsCache = { token, empresa, list };
    return list;
  },
};

// Route guard rule of spec section 6 (rule 3): /home always, wiki/dev anything, else the list.
export function canEnter(name: string | undefined, permissions: string[] | undefined, roles: string[] = session.get()?.roles ?? []): boolean {
  if (!name || name === 'home') return true;
  if (roles.some((r) => SUPER_ROLES.includes(r))) return true;
  return !!permissions?.includes(name);
}
