// Alias routes (metadata aliases) with `back`: the route a form opened there returns to, its :parameters filled from the
// alias route's (e.g. /adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos/:id → …/:tecnology/:model/eventos).
import type { AliasMeta } from '../../../../shared/model';

/** The alias's back route with the current route's parameters; undefined without back. */
export function aliasBack(a: AliasMeta | undefined, params: Record<string, string | undefined>): string | undefined {
  if (!a?.back) return undefined;
  return a.back.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => encodeURIComponent(params[n] ?? ''));
}
