// No module the server or the gateway loads may subclass String: V8 then turns String.prototype into a dictionary
// (slow properties), and every charCodeAt in the process — the @Track tokenizer, Hono's path parsing, the read
// engine's timestamps — takes a slow path (measured 40× per call; the decoder at half its rate). ioredis 6 did
// (`class VerbatimString extends String`, its RESP3 decoder): the project pins ioredis 5.
import { execFileSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/tsx/dist/loader.mjs');

/** Imports `files` in a fresh Node process and answers whether String.prototype still has fast properties. */
function fastAfter(files: string[]): boolean {
  const script = `for (const f of ${JSON.stringify(files)}) await import(f);
    console.log(new Function('return %HasFastProperties(String.prototype)')());`;
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', tsx, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' } });
  return out.trim().split('\n').at(-1) === 'true';
}

describe('String.prototype keeps fast properties', () => {
  it('after the whole server, the gateway and every module are loaded', () => {
    const modules = readdirSync(path.join(root, 'modules')).sort().flatMap((m) =>
      ['server.ts', 'ingest.ts'].map((f) => path.join(root, 'modules', m, f)).filter((f) => existsSync(f)));
    const files = [path.join(root, 'server/app/start.ts'), path.join(root, 'server/ingest/index.ts'), ...modules].map((f) => `file://${f}`);
    expect(files.length).toBeGreaterThan(20);
    expect(fastAfter(files)).toBe(true);
  }, 60_000);

  it('the check sees a String subclass', () => {
    const probe = `data:text/javascript,${encodeURIComponent('class V extends String {}; export default V;')}`;
    expect(fastAfter([probe])).toBe(false);
  }, 60_000);
});
