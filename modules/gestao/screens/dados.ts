// The dashboards' data: the fleet's live rows (provider gestao_estado, loaded once then kept by the `gestao_estado`
// pushes — server/realtime/live.ts; loaded again when the socket re-joins its company room) and the period's totals
// (providers gestao_diario / gestao_ativos / gestao_eventos), read once per period and read again after a push only when
// the last read is over a minute old (the totals follow the ingest; nothing is polled).
import { useEffect, useState } from 'react';
import { estadoVeiculo, type EstadoVeiculo } from '../../../shared/estado-veiculo';
import { call } from '../../../runtime/src/api/http';
import { onPush } from '../../../runtime/src/layout/Realtime';
import { useLiveRows } from '../../../runtime/src/layout/useLiveRows';

export const PUSH = 'gestao_estado';

export interface EstadoAtivo {
  id: number; ativoId: number; ativo: string; placa: string | null; serial: string | null;
  velocidade: number | null; ignicao: boolean | null; ultimaComunicacao: string | null;
  temperatura: number | null; umidade: number | null; co2: number | null; porta: boolean | null;
}

/** Every vehicle of the active company, live (runtime/src/layout/useLiveRows.ts); `ativo` false: nothing read. */
export function useFrotaAoVivo(empresa: number | null, ativo = true) {
  const { rows, erro, aoVivo, atualizado } = useLiveRows<EstadoAtivo, EstadoAtivo[]>({
    url: ativo ? '/api/gestao/frota' : null, event: PUSH, empresa, erro: 'Erro ao carregar a frota',
    read: (list) => list,
    apply: (cur, push) => { const byId = new Map(push.rows.map((r) => [r.id, r])); return cur.map((r) => byId.get(r.id) ?? r); },
  });
  return { rows, erro, aoVivo, atualizado };
}

/** Re-renders every `ms` (the situation of a silent vehicle changes with time alone: no server call). */
export function useAgora(ms = 30_000): number {
  const [agora, setAgora] = useState(Date.now());
  useEffect(() => { const t = setInterval(() => setAgora(Date.now()), ms); return () => clearInterval(t); }, [ms]);
  return agora;
}

export type Contagem = Record<EstadoVeiculo, number> & { total: number };
export function contar(rows: EstadoAtivo[], agora: number): Contagem {
  const c: Contagem = { em_movimento: 0, parado: 0, desligado: 0, sem_comunicacao: 0, total: rows.length };
  for (const r of rows) c[estadoVeiculo(r, agora)]++;
  return c;
}

// ---- period totals -------------------------------------------------------------------------------------------------

/** Bumped by the live pushes at most once a minute: period widgets read their totals again then. */
let versao = 0;
let ultimaLeitura = Date.now();
const ouvintes = new Set<() => void>();
const aoEnvio = () => {
  if (Date.now() - ultimaLeitura < 60_000) return;
  ultimaLeitura = Date.now();
  versao++;
  ouvintes.forEach((f) => f());
};
// heard only while a period widget is on screen (the server reads a live push only for a room someone is in)
let deixar: (() => void) | null = null;
export function useVersaoTotais(): number {
  const [v, setV] = useState(versao);
  useEffect(() => {
    const f = () => setV(versao);
    ouvintes.add(f);
    deixar ??= onPush(PUSH, aoEnvio);
    return () => { ouvintes.delete(f); if (!ouvintes.size) { deixar?.(); deixar = null; } };
  }, []);
  return v;
}

const cache = new Map<string, Promise<unknown>>();
/** One read per url and version (widgets sharing a provider and period share the read). */
export function useProvider<T>(url: string | null, empresa: number | null): { data: T | null; erro: string | null } {
  const v = useVersaoTotais();
  const [state, setState] = useState<{ key: string; data: T | null; erro: string | null }>({ key: '', data: null, erro: null });
  const key = url ? `${empresa}|${v}|${url}` : '';
  useEffect(() => {
    if (!url) return;
    let off = false;
    let p = cache.get(key);
    if (!p) {
      p = call<T>(url);
      cache.set(key, p);
      p.catch(() => cache.delete(key));
      if (cache.size > 200) cache.delete(cache.keys().next().value!);
    }
    p.then((data) => { if (!off) setState({ key, data: data as T, erro: null }); },
      (e: Error) => { if (!off) setState({ key, data: null, erro: e.message || 'Erro ao carregar os dados' }); });
    return () => { off = true; };
  }, [key, url]);
  return state.key === key ? { data: state.data, erro: state.erro } : { data: null, erro: null };
}

// ---- formats -------------------------------------------------------------------------------------------------------

export const num = (n: number | null | undefined, d = 0) => (n == null ? '–' : n.toLocaleString('pt-BR', { maximumFractionDigits: d, minimumFractionDigits: d }));
/** Seconds as '12 h 05 min' (or '35 min'). */
export function horas(s: number | null | undefined): string {
  if (s == null) return '–';
  const m = Math.round(s / 60);
  const h = Math.floor(m / 60);
  if (h >= 100) return `${num(h)} h`;
  return h ? `${num(h)} h ${String(m % 60).padStart(2, '0')} min` : `${m} min`;
}
const pad = (n: number) => String(n).padStart(2, '0');
/** dd/MM/yy of 'AAAA-MM-DD'. */
export const diaCurto = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(2, 4)}`;
/** dd/MM/yy HH:mm (local time). */
export const dataHora = (ms: number) => { const d = new Date(ms); return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${String(d.getFullYear()).slice(2)} ${pad(d.getHours())}:${pad(d.getMinutes())}`; };
