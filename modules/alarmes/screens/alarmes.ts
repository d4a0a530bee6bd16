// The console's rows: risk colours and labels, and how a push changes the list (pure: tested in alarmes.unit.test.ts).
export interface Alarme {
  id: string; serial: string; dataEvento: string; codigo: string; evento: string; descricao: string;
  risco: 'baixo' | 'médio' | 'alto' | null; ativoId: number | null; ativoDescricao: string | null; placa: string | null;
  latitude: number | null; longitude: number | null; velocidade: number | null;
  situacao: 'aberto' | 'assumido' | 'encerrado'; assumidoPorId: number | null; assumidoPor: string | null;
  assumidoEm: string | null; tratamento: string | null; encerradoEm: string | null;
}

/** The colour of a library risk (no risk: grey). */
export const RISCO: Record<string, { label: string; cor: string; texto: string; ordem: number }> = {
  alto: { label: 'Alto', cor: '#d32f2f', texto: '#fff', ordem: 0 },
  médio: { label: 'Médio', cor: '#ef6c00', texto: '#fff', ordem: 1 },
  baixo: { label: 'Baixo', cor: '#f9a825', texto: '#000', ordem: 2 },
};
export const SEM_RISCO = { label: 'Sem risco', cor: '#757575', texto: '#fff', ordem: 3 };
export const riscoDe = (r: string | null) => (r && RISCO[r]) || SEM_RISCO;

/** Open and in-treatment alarms, newest first. */
export const visiveis = (rows: Alarme[]) => rows.filter((r) => r.situacao !== 'encerrado')
  .sort((a, b) => (a.dataEvento < b.dataEvento ? 1 : a.dataEvento > b.dataEvento ? -1 : a.id.localeCompare(b.id)));

/** Applies pushed rows (by id); answers the list and the ids that are new open alarms (for the sound). */
export function aplicar(cur: Alarme[], rows: Alarme[]): { rows: Alarme[]; novos: string[] } {
  const by = new Map(cur.map((r) => [r.id, r]));
  const novos: string[] = [];
  for (const r of rows) {
    if (!by.has(r.id) && r.situacao === 'aberto') novos.push(r.id);
    by.set(r.id, r);
  }
  return { rows: visiveis([...by.values()]), novos };
}
