// The dashboard widgets (a painel's `widgets`, in their order on the grid) — one catalogue for the write hook
// (server/painel.ts refuses unknown kinds and periods) and the screens (screens/widgets.tsx draws each kind).
// Nothing here imports server code: the front end reads it too.

export const PERIODOS = {
  hoje: 'Hoje',
  ontem: 'Ontem',
  ultimos_7_dias: 'Últimos 7 dias',
  ultimos_30_dias: 'Últimos 30 dias',
  mes_atual: 'Este mês',
  ultimo_trimestre: 'Último trimestre',
} as const;
export type Periodo = keyof typeof PERIODOS;

export const TIPOS = {
  situacao: { label: 'Situação da frota', periodo: false },
  indicadores: { label: 'Indicadores do período', periodo: true },
  distancia_diaria: { label: 'Distância por dia', periodo: true },
  horas_diarias: { label: 'Horas de condução e marcha lenta por dia', periodo: true },
  eventos_risco: { label: 'Eventos por risco', periodo: true },
  maiores_velocidades: { label: 'Maiores velocidades', periodo: true },
  marcha_lenta: { label: 'Marcha lenta por veículo', periodo: true },
  mais_rodaram: { label: 'Veículos que mais rodaram', periodo: true },
  ambiente: { label: 'Sensores de ambiente', periodo: false },
  grafana: { label: 'Painel Grafana', periodo: true },
} as const;
export type TipoWidget = keyof typeof TIPOS;

export interface Widget {
  tipo: TipoWidget;
  periodo?: Periodo;
  /** grafana: the dashboard's uid and the panel's id (drawn as an image through /api/wkd/grafana/render). */
  painel?: string;
  panelId?: number;
}

export const MAX_WIDGETS = 24;

/** The widgets as stored, or the pt-BR reason they cannot be. */
export function checkWidgets(v: unknown): string | null {
  if (!Array.isArray(v)) return 'Os widgets devem ser uma lista';
  if (v.length > MAX_WIDGETS) return `Um painel tem no máximo ${MAX_WIDGETS} widgets`;
  for (const [i, w] of v.entries()) {
    const n = i + 1;
    if (!w || typeof w !== 'object' || Array.isArray(w)) return `Widget ${n} inválido`;
    const x = w as Record<string, unknown>;
    const extra = Object.keys(x).find((k) => !['tipo', 'periodo', 'painel', 'panelId'].includes(k));
    if (extra) return `Widget ${n}: campo desconhecido ${extra}`;
    if (typeof x.tipo !== 'string' || !(x.tipo in TIPOS)) return `Widget ${n}: tipo desconhecido ${String(x.tipo)}`;
    if (x.periodo !== undefined && (typeof x.periodo !== 'string' || !(x.periodo in PERIODOS))) return `Widget ${n}: período desconhecido ${String(x.periodo)}`;
    if (x.tipo === 'grafana') {
      if (typeof x.painel !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(x.painel)) return `Widget ${n}: informe o identificador (uid) do painel Grafana`;
      if (!Number.isInteger(x.panelId) || (x.panelId as number) < 1) return `Widget ${n}: informe o número do gráfico no painel Grafana`;
    } else if (x.painel !== undefined || x.panelId !== undefined) return `Widget ${n}: painel e panelId só valem para o tipo grafana`;
  }
  return null;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** AAAA-MM-DD of a local date. */
export const dia = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The local days [de, ate] of a period, relative to `agora` (the browser's day = the fleet's day in practice). */
export function intervalo(p: Periodo, agora = new Date()): { de: string; ate: string } {
  const d0 = new Date(agora.getFullYear(), agora.getMonth(), agora.getDate());
  const menos = (n: number) => new Date(d0.getFullYear(), d0.getMonth(), d0.getDate() - n);
  switch (p) {
    case 'hoje': return { de: dia(d0), ate: dia(d0) };
    case 'ontem': return { de: dia(menos(1)), ate: dia(menos(1)) };
    case 'ultimos_7_dias': return { de: dia(menos(6)), ate: dia(d0) };
    case 'ultimos_30_dias': return { de: dia(menos(29)), ate: dia(d0) };
    case 'mes_atual': return { de: dia(new Date(d0.getFullYear(), d0.getMonth(), 1)), ate: dia(d0) };
    case 'ultimo_trimestre': return { de: dia(menos(89)), ate: dia(d0) };
  }
}

/** A new user's first dashboard. */
export const PAINEL_PADRAO: Widget[] = [
  { tipo: 'situacao' },
  { tipo: 'indicadores', periodo: 'hoje' },
  { tipo: 'distancia_diaria', periodo: 'ultimos_7_dias' },
  { tipo: 'eventos_risco', periodo: 'ultimos_7_dias' },
  { tipo: 'maiores_velocidades', periodo: 'hoje' },
  { tipo: 'marcha_lenta', periodo: 'hoje' },
];
