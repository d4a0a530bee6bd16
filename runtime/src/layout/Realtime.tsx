// Server push (spec §4, §8) over socket.io at /socket_server (.notes/CONTRACT.md, "Realtime socket"):
// opened with the session token, then ouvir (the names the screens listen to, again when they change), set_user and
// join_room (again on each company switch).
//  - permissoes_alteradas → dialog 'Permissões Alteradas', the app reloads after 5 s;
//  - sessao_finalizada   → dialog 'Sessão terminada', then the token is removed and /login opens after 2 s; a
//    request's 401 naming why the session ended (payload.motivo) opens the same dialog when it comes first.
// Mounted beside <Admin> so a redirect inside react-admin cannot take the dialog away.
import { useEffect, useRef, useState } from 'react';
import { createTheme, Dialog, DialogContent, DialogContentText, DialogTitle, ThemeProvider } from '@mui/material';
import type { Socket } from 'socket.io-client';
import { resetPermissions } from '../api/authProvider';
import { clearToken, getToken } from '../api/cookie';
import { setSessionEndedHandler, setUnauthorizedHandler } from '../api/http';
import { session } from '../api/session';
import { theme } from '../theme';
import { useSession } from './CompanyPicker';

export const SOCKET_PATH = '/socket_server';
export const RELOAD_AFTER_MS = 5000;
export const LOGOUT_AFTER_MS = 2000;

export const PUSH_TEXT = {
  permissoes: {
    title: 'Permissões Alteradas',
    text: 'Atenção, suas permissões de usuário foram alteradas pelo administrador do sistema, o sistema será recarregado em 5 segundos.',
  },
  sessao: { title: 'Sessão terminada', text: 'Sua sessão foi finalizada por um administrador do sistema.' },
  senha: { title: 'Sessão terminada', text: 'Sua senha foi alterada. Entre novamente com a nova senha.' },
} as const;

type Push = keyof typeof PUSH_TEXT;

// Hooks for tests and special hosts.
export const pushActions = {
  reload: () => window.location.reload(),
  toLogin: () => window.location.assign('/login'),
};

const muiTheme = createTheme(theme as never);

// Other pushes for whichever screen listens (the home page's `estado_frota`, the modules' live rows such as the live
// map's `ultimo_estado` or the alarm console's `alarme`): every event but the session's own, passed on by name.
const listeners = new Map<string, Set<(p: unknown) => void>>();
const OWN = new Set(['permissoes_alteradas', 'sessao_finalizada']);
/** Pseudo push: the socket (re)joined its company room (payload: the join count). Screens that apply pushes to a
 *  first load read it again then (they may have missed pushes while disconnected, or before the first join). */
export const JOINED = '$joined';
let joins = 0;
/** How many times the socket has joined a company room so far (0: not yet, or no socket). */
export const joinCount = () => joins;
const pass = (name: string, p: unknown) => listeners.get(name)?.forEach((fn) => fn(p));
/** The names screens listen to now (the server keeps live rooms only for those: it reads a live push from the
 *  database only for a room someone is in). */
export const heard = () => [...listeners].filter(([n, fns]) => fns.size && n !== JOINED && !OWN.has(n)).map(([n]) => n).sort();
let connected: Socket | null = null;
let told: string[] = [];
let telling = false;
/** The names the server confirmed for this connection, and the screens waiting for theirs. */
let acked = new Set<string>();
const waiting = new Set<{ name: string; done: () => void }>();
const release = (all: boolean) => { for (const w of waiting) if (all || acked.has(w.name)) { waiting.delete(w); w.done(); } };
function say(s: Socket, names: string[]) {
  told = names;
  s.emit('ouvir', names, (r?: { status: number }) => {
    if (r?.status === 200 && s === connected) { acked = new Set(names); release(false); }
  });
}
/** Tells the server the names listened to, when they changed (once per tick). */
function tell() {
  if (telling) return;
  telling = true;
  queueMicrotask(() => {
    telling = false;
    const s = connected, names = heard();
    if (s?.connected && names.join(',') !== told.join(',')) say(s, names);
  });
}
/**
 * Resolves once the server holds the socket in `name`'s live room (at once without a connected socket: the join
 * that comes reads again; after 3 s at most): a screen reads its rows after that, so no push falls between its read
 * and the room.
 */
export function listening(name: string): Promise<void> {
  if (!connected?.connected || acked.has(name)) return Promise.resolve();
  return new Promise((res) => {
    const w = { name, done: () => { clearTimeout(t); res(); } };
    const t = setTimeout(() => { waiting.delete(w); res(); }, 3000);
    waiting.add(w);
  });
}
/** Calls `fn` on each push `name` from the server; answers the unsubscribe. */
export function onPush(name: string, fn: (p: unknown) => void): () => void {
  if (!listeners.has(name)) listeners.set(name, new Set());
  listeners.get(name)!.add(fn);
  tell();
  return () => { listeners.get(name)?.delete(fn); tell(); };
}

const SESSAO_INVALIDA = 'Sessão inválida ou expirada. Entre novamente.';

function join(s: Socket, empresa: number) {
  s.emit('join_room', empresa, (r?: { status: number }) => {
    if (r?.status === 200 && s.connected) pass(JOINED, ++joins);
  });
}

export function RealtimePush() {
  const user = useSession();
  const token = user ? getToken() : null;
  const [push, setPush] = useState<Push | null>(null);
  const socketRef = useRef<Socket | null>(null);
  const userId = user?.id;

  // The session ended by someone else: by the push, or by a request's 401 that says so (whichever comes first).
  const ended = (motivo?: string) => {
    // requests failing with 401 meanwhile must not skip the dialog
    setUnauthorizedHandler(() => undefined);
    setPush((p) => (p === 'sessao' || p === 'senha' ? p : motivo === 'senha' ? 'senha' : 'sessao'));
  };
  useEffect(() => {
    setSessionEndedHandler(ended);
    return () => setSessionEndedHandler(undefined);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!userId || !token) return;
    let cancelled = false;
    let socket: Socket | undefined;
    void import('socket.io-client').then(({ io }) => {
      if (cancelled) return;
      const s = io(window.location.origin, { path: SOCKET_PATH, auth: { token }, reconnectionDelayMax: 30_000 });
      socket = s;
      socketRef.current = s;
      // A refused session (or a token cleared meanwhile) ends the socket: no retries with a dead token.
      const dead = () => !getToken() || getToken() !== token;
      s.on('connect_error', (e: Error) => { if (e.message === SESSAO_INVALIDA || dead()) s.disconnect(); });
      s.io.on('reconnect_attempt', () => { if (dead()) s.disconnect(); });
      s.on('connect', () => {
        if (dead()) { s.disconnect(); return; }
        connected = s;
        acked = new Set();
        // what the screens listen to, before the company's rooms are joined
        say(s, heard());
        s.emit('set_user', userId);
        const empresa = session.get()?.empresaAtiva;
        if (empresa != null) join(s, empresa);
      });
      s.on('permissoes_alteradas', () => setPush((p) => p ?? 'permissoes'));
      s.on('sessao_finalizada', (p?: { motivo?: string }) => ended(p?.motivo));
      s.onAny((name: string, p: unknown) => { if (!OWN.has(name)) pass(name, p); });
    }).catch(() => undefined);
    return () => {
      cancelled = true;
      if (connected === socket) { connected = null; acked = new Set(); release(true); }
      socket?.disconnect();
      if (socketRef.current === socket) socketRef.current = null;
    };
  }, [userId, token]);

  // Company switch: move to the new company's room.
  const empresa = user?.empresaAtiva;
  useEffect(() => {
    const s = socketRef.current;
    if (s?.connected && empresa != null) join(s, empresa);
  }, [empresa]);

  useEffect(() => {
    if (push === 'permissoes') {
      const t = setTimeout(() => pushActions.reload(), RELOAD_AFTER_MS);
      return () => clearTimeout(t);
    }
    if (push === 'sessao' || push === 'senha') {
      const t = setTimeout(() => {
        socketRef.current?.disconnect();
        clearToken();
        resetPermissions();
        session.set(null);
        pushActions.toLogin();
      }, LOGOUT_AFTER_MS);
      return () => clearTimeout(t);
    }
  }, [push]);

  if (!push) return null;
  const { title, text } = PUSH_TEXT[push];
  return (
    <ThemeProvider theme={muiTheme}>
      <Dialog open disableEscapeKeyDown aria-labelledby="push-title" aria-describedby="push-text">
        <DialogTitle id="push-title">{title}</DialogTitle>
        <DialogContent>
          <DialogContentText id="push-text">{text}</DialogContentText>
        </DialogContent>
      </Dialog>
    </ThemeProvider>
  );
}
