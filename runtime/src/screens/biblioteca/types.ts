// Shapes of the library calls (server/calls/biblioteca.ts).
export interface BibliotecaRow {
  id: string;
  ordem: number;
  event: string;
  description: string;
  subtitle: string;
  type: string;
  unit: { value: string; full: string; short: string };
  code: number | string | null;
  message: string | null;
  group: string | null;
  risk: string | null;
  undescribed: boolean;
  catalogo: string;
  origem: string;
  origemLabel: string;
}

export interface ListaInfo {
  catalogos: { id: string; title: string; source: string | null; total: number }[];
  total: number;
  semDescricao: number;
  tipos: string[];
  origens: { id: string; label: string }[];
  colunas: string[];
}

export interface Tecnologia {
  id: string;
  label: string;
  modelos: { id: string; label: string }[];
  listas: { eventos: ListaInfo | null; parametros: ListaInfo | null };
}

export interface Familia extends ListaInfo {
  id: string;
  label: string;
}
