// Live tracking data: the rows of GET /api/rastreamento/ultimo_estado, their state (em movimento, parado, desligado,
// sem comunicação — the home page's fleet counters' rule, modules/inicio/server/frota.ts), search, grouping by garage
// and the popup text. Pure functions (unit-tested).
import { formatTimestamp } from '../../../runtime/src/crud/lib/format';
import { ESTADOS_VEICULO, estadoVeiculo, SEM_COMUNICACAO_MS, type EstadoVeiculo } from '../../../shared/estado-veiculo';

export interface UltimoEstado {
  serial: string;
  ativoId: number | null;
  ativoDescricao: string | null;
  placa: string | null;
  fixTime: string | null;
  latitude: number | null;
  longitude: number | null;
  velocidade: number | null;
  direcao: number | null;
  ignicao: boolean | null;
  ultimaComunicacao: string | null;
  valido?: boolean | null;
  modelo?: string | null;
  motoristaNome?: string | null;
  garagem?: string | null;
}

/** The socket event of the pushed latest states (modules/rastreamento/server.ts `live`). */
export const PUSH_EVENT = 'ultimo_estado';

/** The columns the live map reads (GET …/ultimo_estado?columns=): of 10,000 vehicles, each column more is 10,000
 *  values more to send and parse; the rest (attributes, battery …) open with the vehicle's record. */
export const COLUNAS_AO_VIVO = ['serial', 'ativoId', 'ativoDescricao', 'placa', 'garagem', 'motoristaNome', 'fixTime', 'latitude', 'longitude',
  'velocidade', 'direcao', 'ignicao', 'ultimaComunicacao'] as const;

/** The live map's call: the whole fleet's latest states with COLUNAS_AO_VIVO, as a table (shared/tabela.ts). */
export const URL_AO_VIVO = `/api/rastreamento/ultimo_estado?columns=${encodeURIComponent(JSON.stringify(COLUNAS_AO_VIVO))}&format=table`;

export type Estado = EstadoVeiculo;
export { SEM_COMUNICACAO_MS };
export const ESTADOS = ESTADOS_VEICULO;

/** The vehicle's situation (shared/estado-veiculo.ts); `semComunicacaoMs`: the company's tracking option's time. */
export function estadoDe(v: Pick<UltimoEstado, 'ignicao' | 'ultimaComunicacao' | 'velocidade'>, now = Date.now(), semComunicacaoMs = SEM_COMUNICACAO_MS): Estado {
  return estadoVeiculo(v, now, semComunicacaoMs);
}

/** Above the company's speed limit for the map (0 or null: no limit). */
export const emExcesso = (r: Pick<UltimoEstado, 'velocidade'>, limite: number | null | undefined) => !!limite && limite > 0 && (r.velocidade ?? 0) > limite;

/** Rows with a usable position (the map can only show those). */
export function comPosicao(rows: UltimoEstado[]): UltimoEstado[] {
  return rows.filter((r) => typeof r.latitude === 'number' && typeof r.longitude === 'number'
    && Number.isFinite(r.latitude) && Number.isFinite(r.longitude)
    && Math.abs(r.latitude) <= 90 && Math.abs(r.longitude) <= 180 && !(r.latitude === 0 && r.longitude === 0));
}

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Case- and accent-insensitive substring search on descrição, placa and serial (placa also without '-'). */
export function filtrar(rows: UltimoEstado[], q: string): UltimoEstado[] {
  const t = fold(q.trim());
  if (!t) return rows;
  const tPlate = t.replace(/-/g, '');
  return rows.filter((r) => fold(r.ativoDescricao ?? '').includes(t) || fold(r.serial).includes(t)
    || (!!r.placa && fold(r.placa).replace(/-/g, '').includes(tPlate)));
}

export const titulo = (r: UltimoEstado) => r.ativoDescricao ?? `Equipamento ${r.serial}`;

export function velocidadeTexto(v: number | null | undefined): string {
  return v == null || !Number.isFinite(v) ? 'Sem informação' : `${Math.round(v)} km/h`;
}

export function ignicaoTexto(v: boolean | null | undefined): string {
  return v == null ? 'Sem informação' : v ? 'Ligada' : 'Desligada';
}

/** Label/value lines of the marker popup. */
export function linhasPopup(r: UltimoEstado): [string, string][] {
  return [
    ['Placa', r.placa || 'Sem informação'],
    ['Motorista', r.motoristaNome || 'Sem motorista identificado'],
    // (the address line goes here: ['Endereço', ...])
    ['Velocidade', velocidadeTexto(r.velocidade)],
    ['Ignição', ignicaoTexto(r.ignicao)],
    ['Garagem', r.garagem || SEM_GARAGEM],
    ['Data da posição', formatTimestamp(r.fixTime)],
    ['Última comunicação', formatTimestamp(r.ultimaComunicacao)],
  ];
}

export function contagem(rows: UltimoEstado[], now = Date.now(), semComunicacaoMs = SEM_COMUNICACAO_MS): Record<Estado, number> {
  const c: Record<Estado, number> = { em_movimento: 0, parado: 0, desligado: 0, sem_comunicacao: 0 };
  for (const r of rows) c[estadoDe(r, now, semComunicacaoMs)]++;
  return c;
}

export const SEM_GARAGEM = 'Sem garagem';

/** The side list's items: a header per garage (by name, 'Sem garagem' last) followed by its vehicles in the order
 *  given. */
export type ItemLista = { garagem: string; total: number } | { r: UltimoEstado };
export function porGaragem(rows: UltimoEstado[]): ItemLista[] {
  const groups = new Map<string, UltimoEstado[]>();
  for (const r of rows) {
    const g = r.garagem || SEM_GARAGEM;
    let list = groups.get(g);
    if (!list) groups.set(g, (list = []));
    list.push(r);
  }
  const names = [...groups.keys()].sort((a, b) => (a === SEM_GARAGEM ? 1 : b === SEM_GARAGEM ? -1 : a.localeCompare(b, 'pt-BR')));
  return names.flatMap((g) => [{ garagem: g, total: groups.get(g)!.length }, ...groups.get(g)!.map((r) => ({ r }))]);
}

/** Course rounded to 10° steps: the marker icon is rebuilt only when the bucket changes. */
export const rumo = (d: number | null | undefined) => (d == null || !Number.isFinite(d) ? null : (Math.round(d / 10) * 10) % 360);

/** yyyy-mm-dd of a local date (the replay's period). */
const dia = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Links of the marker popup (app routes): the vehicle's record, today's replay, the engine block; none without a vehicle.
 *  The replay screen (/tlm/ras/historico_rastreamento) is to read ativoId, inicio and fim from its query. */
export function linksPopup(r: UltimoEstado, can: { cadastro: boolean; historico: boolean; bloqueio: boolean }, hoje = new Date()): [string, string][] {
  if (r.ativoId == null) return [];
  const out: [string, string][] = [];
  if (can.cadastro) out.push(['Abrir cadastro', `/tlm/fro/ativo/${r.ativoId}`]);
  if (can.historico) out.push(['Histórico de rastreamento', `/tlm/ras/historico_rastreamento?ativoId=${r.ativoId}&inicio=${dia(hoje)}&fim=${dia(hoje)}`]);
  if (can.bloqueio) out.push(['Bloquear motor', `/tlm/fro/ativo/${r.ativoId}/bloqueia_motor`]);
  return out;
}

/** A push of the live rows (server/realtime/live.ts): the company, its changed rows, `completo` when they are all. */
export interface EstadoPush { empresaId: number; rows: UltimoEstado[]; completo: boolean }

/** The rows after a push: each pushed row replaces the row of its serial (new serials are added at the end); a
 *  complete push replaces them all. The same array when nothing changes. */
export function aplicar(rows: UltimoEstado[], push: Pick<EstadoPush, 'rows' | 'completo'>): UltimoEstado[] {
  if (push.completo) return push.rows;
  if (!push.rows.length) return rows;
  const by = new Map(push.rows.map((r) => [r.serial, r]));
  const out = rows.map((r) => {
    const n = by.get(r.serial);
    if (!n) return r;
    by.delete(r.serial);
    return n;
  });
  for (const r of by.values()) out.push(r);
  return out;
}
