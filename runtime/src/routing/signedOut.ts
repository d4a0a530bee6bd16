// Signed-out visitors never reach react-admin: react-admin's own redirect (LogoutOnMount → useLogout navigates in a
// timeout, then clears the query cache, which re-runs checkAuth in the still-mounted admin) repeats while the router
// applies the new location in a transition those updates keep restarting: hundreds of pushState('/login') and a blank
// page. So the entry switch (App.tsx) and the session check (SessionGate.tsx) send them to /login once, replacing the
// entry, with the page they asked for in the state the login form reads (nextPathname/nextSearch).

/** Routes that open without a session (react-admin's custom routes without layout). */
export const PUBLIC_ROUTES = [/^\/login\/?$/, /^\/alterar_senha\/[^/]+\/?$/];

export const isPublic = (pathname: string) => PUBLIC_ROUTES.some((r) => r.test(pathname));

/** Navigation to the login form that keeps the asked page for after sign-in. */
export function loginRedirect(pathname: string, search: string) {
  return { to: '/login', options: { replace: true, state: { nextPathname: pathname, nextSearch: search } } } as const;
}
