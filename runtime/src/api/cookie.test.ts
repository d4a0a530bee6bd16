// The token cookie is Secure when the page came over HTTPS (issue 18), and only then (plain-HTTP dev servers).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from './cookie';

const written: string[] = [];
function page(protocol: string) {
  written.length = 0;
  vi.stubGlobal('location', { protocol });
  vi.stubGlobal('document', { set cookie(v: string) { written.push(v); }, get cookie() { return ''; } });
}
afterEach(() => { vi.unstubAllGlobals(); });

describe('token cookie', () => {
  it('over HTTPS: Secure on set and on clear', () => {
    page('https:');
    setToken('a b');
    clearToken();
    expect(written).toEqual(['rastro_token=a%20b; path=/; SameSite=Lax; Secure', 'rastro_token=; max-age=0; path=/; SameSite=Lax; Secure']);
  });
  it('over plain HTTP: no Secure (the browser would drop the cookie)', () => {
    page('http:');
    setToken('t');
    expect(written).toEqual(['rastro_token=t; path=/; SameSite=Lax']);
  });
});
