// Setup file of every browser test file: waits until the server the global setup started answers (its cold start
// runs while the other projects' tests do), or fails the file with the server's output when it never did.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';

const file = inject('e2eServerState');
const until = Date.now() + 960_000; // the global setup gives up at 900 s and writes 'failed'
for (;;) {
  const s = JSON.parse(readFileSync(file, 'utf8')) as { state: 'starting' | 'ready' | 'failed'; error?: string };
  if (s.state === 'ready') break;
  if (s.state === 'failed') throw new Error(`o servidor dos testes de navegador não iniciou: ${s.error}`);
  if (Date.now() > until) throw new Error('o servidor dos testes de navegador não ficou pronto em 960 s');
  await new Promise((r) => setTimeout(r, 250));
}
