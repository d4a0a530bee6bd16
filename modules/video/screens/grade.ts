// The player grid's rules (/tlm/vid/video_ao_vivo): 4, 9 or 16 windows; starting more than 1 channel needs at least 4,
// more than 4 at least 9, more than 9 sixteen (the grid grows, never shrinks by itself); default 4.
export const TAMANHOS = [4, 9, 16] as const;
export type Tamanho = (typeof TAMANHOS)[number];
export const PADRAO: Tamanho = 4;

export function tamanhoPara(canais: number, atual: Tamanho = PADRAO): Tamanho {
  const preciso: Tamanho = canais > 9 ? 16 : canais > 4 ? 9 : 4;
  return Math.max(preciso, atual) as Tamanho;
}

/** Columns of a grid of n windows (2×2, 3×3, 4×4). */
export const colunas = (n: Tamanho) => Math.sqrt(n);

/** `ws`: the FLV stream's WebSocket path (players use it: no HTTP connection held per window). */
export interface Janela { chave: string; ativoId: number; titulo: string; canal: number; url: string; ws?: string; modo: 'flv' | 'hls' }

/** Places new windows: a channel already playing keeps its window; the rest fill the free ones, then replace the
 *  oldest. Answers the windows (length = tamanho, null = free). */
export function coloca(atuais: (Janela | null)[], novas: Janela[], tamanho: Tamanho): (Janela | null)[] {
  const out: (Janela | null)[] = Array.from({ length: tamanho }, (_, i) => atuais[i] ?? null);
  for (const j of novas) {
    const ja = out.findIndex((x) => x?.chave === j.chave);
    if (ja >= 0) { out[ja] = j; continue; }
    const livre = out.findIndex((x) => x === null);
    if (livre >= 0) { out[livre] = j; continue; }
    out.shift();
    out.push(j);
  }
  return out;
}
