// The latest states of the active company, live: loaded once through the provider (GET url), then kept by the
// socket's `ultimo_estado` pushes (server/realtime/live.ts) — no polling. Loaded again when the socket (re)joins its
// company room after this load (pushes may have been missed meanwhile) and when the company changes.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ofCompany } from '../../../shared/scope-sql';
import { call } from '../../../runtime/src/api/http';
import { JOINED, joinCount, onPush } from '../../../runtime/src/layout/Realtime';
import { aplicar, type EstadoPush, type UltimoEstado } from './estado';

export const PUSH_EVENT = 'ultimo_estado';

export function useUltimoEstadoAoVivo(url: string | null, empresa: number | null, aceita?: (r: UltimoEstado) => boolean) {
  const [rows, setRows] = useState<UltimoEstado[] | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  const [atualizado, setAtualizado] = useState<Date | null>(null);
  // the rows shown were loaded after the socket joined the company room: every change since comes pushed
  const [aoVivo, setAoVivo] = useState(false);
  const loadedAt = useRef(-1);
  const gen = useRef(0);
  const aceitaRef = useRef(aceita);
  aceitaRef.current = aceita;

  const load = useCallback(async () => {
    if (!url) return;
    const g = ++gen.current;
    loadedAt.current = joinCount();
    try {
      const p = await call<UltimoEstado[]>(url);
      if (g !== gen.current) return;
      setRows(Array.isArray(p) ? p : []);
      setAoVivo(loadedAt.current > 0 && loadedAt.current === joinCount());
      setAtualizado(new Date());
      setErro(null);
    } catch (e) {
      if (g === gen.current) setErro((e as Error).message || 'Erro ao carregar as posições');
    }
  }, [url]);

  useEffect(() => {
    setRows(null);
    setAoVivo(false);
    void load();
    const offPush = onPush(PUSH_EVENT, (m) => {
      const push = m as EstadoPush;
      if (!ofCompany(push, empresa) || !Array.isArray(push.rows)) return;
      const f = aceitaRef.current;
      const mine = f ? { ...push, rows: push.rows.filter(f) } : push;
      setRows((cur) => (cur ? aplicar(cur, mine) : cur));
      setAtualizado(new Date());
    });
    const offJoin = onPush(JOINED, (n) => { if (n !== loadedAt.current) void load(); });
    return () => { gen.current++; offPush(); offJoin(); };
  }, [load, empresa]);

  return { rows, erro, atualizado, aoVivo };
}
