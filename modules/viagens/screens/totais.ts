// Day totals of the trip analysis screen (pure): trips and stops grouped by the local day of their start.
export interface Viagem {
  id: string; inicio: string; fim: string; duracao: number; distancia: number; velocidadeMaxima: number; velocidadeMedia: number;
  tempoOcioso: number; motoristaNome: string | null; situacao?: string; latitudeInicio: number; longitudeInicio: number; latitudeFim: number; longitudeFim: number;
}
export interface Parada { id: string; inicio: string; fim: string; duracao: number; ignicao: boolean | null; tempoLigado: number; latitude: number; longitude: number }

export interface TotalDia {
  /** YYYY-MM-DD, local */
  dia: string;
  viagens: number;
  /** km */
  distancia: number;
  /** seconds */
  conducao: number;
  ocioso: number;
  paradas: number;
  parado: number;
  velocidadeMaxima: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
export const diaLocal = (iso: string) => { const d = new Date(iso); return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`; };

/** One line per day with a trip or a stop, oldest first. */
export function totaisPorDia(viagens: Viagem[], paradas: Parada[]): TotalDia[] {
  const by = new Map<string, TotalDia>();
  const of = (iso: string) => {
    const dia = diaLocal(iso);
    let t = by.get(dia);
    if (!t) by.set(dia, t = { dia, viagens: 0, distancia: 0, conducao: 0, ocioso: 0, paradas: 0, parado: 0, velocidadeMaxima: 0 });
    return t;
  };
  for (const v of viagens) {
    const t = of(v.inicio);
    t.viagens++; t.distancia += v.distancia; t.conducao += v.duracao; t.ocioso += v.tempoOcioso;
    t.velocidadeMaxima = Math.max(t.velocidadeMaxima, v.velocidadeMaxima);
  }
  for (const p of paradas) { const t = of(p.inicio); t.paradas++; t.parado += p.duracao; }
  for (const t of by.values()) t.distancia = Math.round(t.distancia * 100) / 100;
  return [...by.values()].sort((a, b) => a.dia.localeCompare(b.dia));
}
