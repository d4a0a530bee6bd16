/** The menu entry of a path: the longest route equal to it or above it (/adm/sis/empresa/usuario/3/editar →
 *  /adm/sis/empresa/usuario, not /adm/sis/empresa as well). */
export function activeRoute(pathname: string, routes: string[]): string | undefined {
  return routes
    .filter((r) => pathname === r || pathname.startsWith(r.endsWith('/') ? r : `${r}/`))
    .sort((a, b) => b.length - a.length)[0];
}
