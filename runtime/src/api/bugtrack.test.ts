// The client's bug reports: kinds of the error catalogue (ChunkLoadError, CSS_CHUNK_LOAD_FAILED, 'Cannot find module'),
// the chunk time-out, de-duplication per minute, nothing without a session; window errors, rejections and Vite's
// stylesheet failures through the installed listeners.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chunk, installBugReporter, reportBug, rootErrorOptions, setBugSender, type BugReport } from './bugtrack';

const sent: BugReport[] = [];
const listeners = new Map<string, (ev: any) => void>();
let cookie = 'rastro_token=abc';
beforeEach(() => {
  sent.length = 0;
  cookie = 'rastro_token=abc';
  vi.stubGlobal('document', { get cookie() { return cookie; } });
  vi.stubGlobal('location', { pathname: '/tlm/fro/ativo', search: '?x=1' });
  vi.stubGlobal('navigator', { userAgent: 'Teste/1.0' });
  vi.stubGlobal('window', { addEventListener: (t: string, fn: (ev: any) => void) => listeners.set(t, fn) });
  setBugSender((r) => sent.push(r));
});
afterEach(() => { vi.unstubAllGlobals(); vi.useRealTimers(); });

describe('bug reports from the browser', () => {
  it('sends kind, message, stack, route and browser; the same error once a minute; nothing signed out', () => {
    const e = new TypeError('x is undefined');
    reportBug('erro', e);
    reportBug('erro', e);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ tipo: 'erro', mensagem: 'TypeError: x is undefined', rota: '/tlm/fro/ativo?x=1', navegador: 'Teste/1.0' });
    expect(sent[0].stack).toContain('x is undefined');
    cookie = '';
    reportBug('erro', new Error('sem sessão'));
    expect(sent).toHaveLength(1);
  });

  it('a failed chunk is ChunkLoadError; a late one too, after the time-out; no default export is Cannot find module', async () => {
    const failed = chunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/Lista.js')), 'Lista');
    await expect(failed()).rejects.toMatchObject({ name: 'ChunkLoadError', message: 'Loading chunk Lista failed.' });
    expect(sent.at(-1)).toMatchObject({ tipo: 'chunk', mensagem: 'ChunkLoadError: Loading chunk Lista failed.' });

    vi.useFakeTimers();
    const late = chunk(() => new Promise<{ default: number }>(() => undefined), 'Mapa', 120_000)();
    vi.advanceTimersByTime(119_999);
    let done = false;
    late.catch(() => { done = true; });
    await Promise.resolve();
    expect(done).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(late).rejects.toMatchObject({ name: 'ChunkLoadError', message: 'Loading chunk Mapa failed. (timeout: 120 s)' });
    vi.useRealTimers();

    await expect(chunk(() => Promise.resolve({} as { default: number }), './screens/Falta')()).rejects.toThrow("Cannot find module './screens/Falta'");
    await expect(chunk(() => Promise.resolve({ default: 7 }))()).resolves.toEqual({ default: 7 });
  });

  it('listeners: window errors, unhandled rejections, stylesheet chunks (CSS_CHUNK_LOAD_FAILED) and error boundaries', () => {
    installBugReporter();
    listeners.get('error')!({ error: new RangeError('fora do intervalo'), message: 'fora do intervalo' });
    listeners.get('error')!({ error: null, message: '' }); // a failed <img>: not a bug
    listeners.get('unhandledrejection')!({ reason: new Error('promessa recusada') });
    const ev = { payload: new Error('Unable to preload CSS for https://rastro.local/assets/Mapa-x1.css'), preventDefault: vi.fn() };
    listeners.get('vite:preloadError')!(ev);
    expect(ev.preventDefault).toHaveBeenCalled();
    rootErrorOptions.onCaughtError(new Error('render falhou'), { componentStack: '\n    at Lista' });
    expect(sent.map((r) => [r.tipo, r.mensagem])).toEqual([
      ['erro', 'RangeError: fora do intervalo'],
      ['rejeicao', 'promessa recusada'],
      ['css_chunk', 'Loading CSS chunk https://rastro.local/assets/Mapa-x1.css failed.'],
      ['componente', 'render falhou'],
    ]);
    expect(sent.at(-1)!.stack).toContain('Componentes:\n    at Lista');
  });
});
