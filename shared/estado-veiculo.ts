// A vehicle's situation from its latest state — one rule for the home page's counters (SQL in
// modules/inicio/server/frota.ts), the live map and the public link's page:
//  - sem_comunicacao: no report within the window (default 10 minutes), or never;
//  - em_movimento: speed above 0 with the ignition on or not reported;
//  - parado: ignition on, speed 0;  - desligado: otherwise.
export type EstadoVeiculo = 'em_movimento' | 'parado' | 'desligado' | 'sem_comunicacao';

export const SEM_COMUNICACAO_MS = 10 * 60 * 1000;

export const ESTADOS_VEICULO: Record<EstadoVeiculo, { label: string; color: string }> = {
  em_movimento: { label: 'Em movimento', color: '#2e7d32' },
  parado: { label: 'Parado', color: '#ef6c00' },
  desligado: { label: 'Desligado', color: '#c62828' },
  sem_comunicacao: { label: 'Sem comunicação', color: '#757575' },
};

export function estadoVeiculo(v: { ignicao: boolean | null; velocidade: number | null; ultimaComunicacao: string | null },
  now = Date.now(), semComunicacaoMs = SEM_COMUNICACAO_MS): EstadoVeiculo {
  const t = v.ultimaComunicacao ? Date.parse(v.ultimaComunicacao) : NaN;
  if (!Number.isFinite(t) || now - t > semComunicacaoMs) return 'sem_comunicacao';
  if ((v.velocidade ?? 0) > 0 && v.ignicao !== false) return 'em_movimento';
  return v.ignicao ? 'parado' : 'desligado';
}
