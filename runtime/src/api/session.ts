// In-memory session state shared by the auth provider, the http client and the UI.
export interface ColumnChoice { key: string; label: string; selected: boolean }

export interface SessionCompany { id: number; fantasia: string }

export interface SessionUser {
  id: number;
  login: string;
  nome?: string;
  empresaAtiva: number | null;
  /** The session's ambiente: its active company's (the picker beside the company's offers the others). */
  ambienteId?: number;
  empresas: SessionCompany[];
  roles: string[];
  ui: Record<string, ColumnChoice[]>;
  /** Inactivity sign-out in seconds (the company's parameter sessao.inatividade_segundos): warning, sign-out. */
  inatividade?: { aviso: number; desconectar: number };
}

let current: SessionUser | null = null;
const listeners = new Set<(u: SessionUser | null) => void>();

export const session = {
  get: () => current,
  set(u: SessionUser | null) {
    current = u;
    listeners.forEach((l) => l(u));
  },
  patch(p: Partial<SessionUser>) {
    if (current) session.set({ ...current, ...p });
  },
  subscribe(l: (u: SessionUser | null) => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

// Accepts the server's user shape loosely: empresas may be ids or objects.
export function normalizeUser(raw: any): SessionUser {
  const empresas: SessionCompany[] = (raw?.empresas ?? raw?.companies ?? []).map((e: any) =>
    typeof e === 'object' ? { id: Number(e.id ?? e._id), fantasia: String(e.fantasia ?? e.nome ?? e.id) } : { id: Number(e), fantasia: `Empresa ${e}` },
  );
  return {
    id: Number(raw?.id ?? raw?._id ?? raw?.usuarioId),
    login: String(raw?.login ?? ''),
    nome: raw?.nome,
    empresaAtiva: raw?.empresaAtiva != null ? Number(raw.empresaAtiva) : (empresas[0]?.id ?? null),
    ...(Number.isFinite(Number(raw?.ambienteId)) && raw?.ambienteId != null ? { ambienteId: Number(raw.ambienteId) } : {}),
    empresas,
    roles: raw?.roles ?? [],
    ui: raw?.ui && typeof raw.ui === 'object' ? raw.ui : {},
    ...(Number.isFinite(raw?.inatividade?.desconectar) ? { inatividade: { aviso: Number(raw.inatividade.aviso), desconectar: Number(raw.inatividade.desconectar) } } : {}),
  };
}
