import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, serverNodeArgs } from './node-flags.ts';

const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('server node flags', () => {
  it('npm start runs the server with every flag (as the tests and benchmarks do)', () => {
    expect(SERVER_NODE_FLAGS).toEqual(['--experimental-async-context-frame']);
    for (const flag of SERVER_NODE_FLAGS) {
      expect(pkg.scripts.start).toContain(`tsx ${flag} server/main.ts`);
      expect(pkg.scripts.dev).toContain(`tsx watch ${flag} server/main.ts`);
    }
  });
  it('a child server gets the flags before the tsx loader and the entry', () => {
    expect(serverNodeArgs()).toEqual(['--experimental-async-context-frame', '--import', 'tsx', 'server/main.ts']);
    expect(serverNodeArgs('server/ingest/main.ts').at(-1)).toBe('server/ingest/main.ts');
  });
});
