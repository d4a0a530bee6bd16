// Rows read once, then kept up to date by the server's live pushes (server/realtime/live.ts: a module's `live`
// declaration) of the active company; read again when the socket (re)joins, since pushes may have been missed.
// The live screens (live map, vehicle map, dashboards, alarm console, passengers on board, fences map card) share it;
// each says how a push applies.
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { ofCompany } from '../../../shared/scope-sql';
import { isTabela, linhasDe, type Tabela } from '../../../shared/tabela';
import { call } from '../api/http';
import { JOINED, joinCount, listening, onPush } from './Realtime';

/** A live push: the company, the rows changed, `completo` when they are all the provider's rows. */
export interface LivePushMessage<R> { empresaId: number; rows: R[]; completo?: boolean }

export interface LiveRowsOptions<R, T> {
  /** The API list read first (and again after each join); null: nothing read or heard (no vehicle chosen yet). */
  url: string | null;
  /** The socket event of the pushes. */
  event: string;
  /** The active company: pushes of another are ignored; a change reads again. */
  empresa: number | null;
  /** The state from the list read. */
  read: (rows: R[]) => T;
  /** The state after a push of this company. */
  apply: (cur: T, push: LivePushMessage<R>) => T;
  /** pt-BR message when the read fails without one of its own. */
  erro: string;
}

export interface LiveRows<T> {
  /** null until the first read answers. */
  rows: T | null;
  erro: string | null;
  /** Read after the socket joined the company: nothing pushed since can have been missed. */
  aoVivo: boolean;
  /** When the rows last changed: the read or a push of this company. */
  atualizado: Date | null;
  setRows: Dispatch<SetStateAction<T | null>>;
}

export function useLiveRows<R, T>(o: LiveRowsOptions<R, T>): LiveRows<T> {
  const [rows, setRows] = useState<T | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  const [aoVivo, setAoVivo] = useState(false);
  const [atualizado, setAtualizado] = useState<Date | null>(null);
  const loadedAt = useRef(-1);
  const gen = useRef(0);
  // The latest callbacks, without re-subscribing on every render.
  const fns = useRef(o);
  fns.current = o;
  const { url, event, empresa } = o;
  const load = useCallback(async () => {
    if (!url) return; // the effect below never calls it then; keeps the type narrow
    const g = ++gen.current;
    loadedAt.current = joinCount();
    try {
      const answer = await call<R[] | Tabela>(url);
      if (g !== gen.current) return;
      // a call with ?format=table answers the rows as a table (shared/tabela.ts)
      const list = isTabela(answer) ? linhasDe<R>(answer) : answer;
      setRows(fns.current.read(Array.isArray(list) ? list : []));
      setAoVivo(loadedAt.current > 0 && loadedAt.current === joinCount());
      setAtualizado(new Date());
      setErro(null);
    } catch (e) {
      if (g === gen.current) setErro((e as Error).message || fns.current.erro);
    }
  }, [url]);
  useEffect(() => {
    setRows(null);
    setAoVivo(false);
    if (!url) return;
    let on = true;
    const offPush = onPush(event, (m) => {
      const push = m as LivePushMessage<R>;
      if (!ofCompany(push, empresa) || !Array.isArray(push.rows)) return;
      setRows((cur) => (cur === null ? cur : fns.current.apply(cur, push)));
      setAtualizado(new Date());
    });
    const offJoin = onPush(JOINED, (n) => { if (n !== loadedAt.current) void load(); });
    // read once the server puts the socket in the event's room (it does for the names listened to)
    void listening(event).then(() => { if (on) void load(); });
    return () => { on = false; gen.current++; offPush(); offJoin(); };
  }, [load, url, event, empresa]);
  return { rows, erro, aoVivo, atualizado, setRows };
}
