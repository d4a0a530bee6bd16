// Token cookie helpers (spec: session token kept in a cookie).
export const TOKEN_COOKIE = 'rastro_token';

export function getToken(): string | null {
  const m = document.cookie.match(new RegExp(`(?:^|; )${TOKEN_COOKIE}=([^;]*)`));
  return m ? decodeURIComponent(m[1]) : null;
}

/** Attributes of the token cookie: Secure when the page came over HTTPS (directly or through a TLS proxy: the
 *  browser's own scheme), so the token never travels over plain HTTP. */
const attributes = () => `path=/; SameSite=Lax${globalThis.location?.protocol === 'https:' ? '; Secure' : ''}`;

export function setToken(token: string): void {
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; ${attributes()}`;
}

export function clearToken(): void {
  document.cookie = `${TOKEN_COOKIE}=; max-age=0; ${attributes()}`;
}
