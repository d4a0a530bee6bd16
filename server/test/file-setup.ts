// Setup file of every integration test file. The files share one worker process (isolate: false, so the server's
// module graph is imported once): what a file changes in the process's environment is put back when it ends.
import { afterAll } from 'vitest';

const env = { ...process.env };
afterAll(() => {
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  Object.assign(process.env, env);
});
