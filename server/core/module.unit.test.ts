// Module folders (README, Architecture): the core imports no module, modules import no other module, a module's
// screens import nothing from server/, and each modules/<name>/server.ts is the module named <name>.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const MODULES = path.join(REPO, 'modules');
const CORE = ['server', 'runtime/src', 'generator', 'shared'].map((d) => path.join(REPO, d));

const walk = (d: string): string[] => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []).flatMap((e) => {
  const p = path.join(d, e.name);
  if (e.isDirectory()) return e.name === 'generated' || e.name === 'node_modules' ? [] : walk(p);
  return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
});

/** Static, type-only, re-export and dynamic import specifiers (comments skipped). */
function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
  return [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/g,
    /\bimport\s*(['"])([^'"]+)\1/g,
    /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
  ].flatMap((re) => [...code.matchAll(re)].map((m) => m[2]));
}

const rel = (f: string) => path.relative(REPO, f).split(path.sep).join('/');
/** The module a repository path belongs to (modules/<name>/…), or undefined. */
const moduleOf = (f: string) => (rel(f).startsWith('modules/') ? rel(f).split('/')[1] : undefined);

/** Every relative import that breaks a rule, as 'file → specifier: rule'. */
export function violations(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, src] of files) {
    for (const spec of importsOf(src)) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      const own = moduleOf(file), theirs = moduleOf(target);
      const tests = /\.test\.tsx?$/.test(file);
      if (!own && theirs && !tests) out.push(`${rel(file)} → ${spec}: o núcleo importa um módulo`);
      if (own && theirs && own !== theirs) out.push(`${rel(file)} → ${spec}: um módulo importa outro`);
      if (own && rel(file).startsWith(`modules/${own}/screens/`)
        && (rel(target).startsWith('server/') || rel(target).startsWith(`modules/${own}/server`))) {
        out.push(`${rel(file)} → ${spec}: uma tela importa o servidor`);
      }
    }
  }
  return out;
}

const real = () => new Map([...CORE, MODULES].flatMap(walk).map((f) => [f, fs.readFileSync(f, 'utf8')]));

describe('module folders', () => {
  it('the core imports no module, a module no other module, a screen nothing from the server', () => {
    const files = real();
    expect([...files.keys()].filter((f) => moduleOf(f)).length).toBeGreaterThan(30);
    expect(violations(files)).toEqual([]);
  });

  it('sees a planted import of each kind', () => {
    const at = (p: string) => path.join(REPO, p);
    const planted = new Map([
      [at('server/crud/x.ts'), `import { providers } from '../../modules/ranking/server/ranking.ts';`],
      [at('server/crud/x.test.ts'), `import { providers } from '../../modules/ranking/server/ranking.ts';`],
      [at('modules/ranking/server/x.ts'), `import { providers } from '../../satelite/server/satelite.ts';`],
      [at('modules/perfil/screens/X.tsx'), `import { can } from '../../../server/auth/users.ts';\nconst m = () => import('../server/x.ts');`],
    ]);
    expect(violations(planted)).toEqual([
      'server/crud/x.ts → ../../modules/ranking/server/ranking.ts: o núcleo importa um módulo',
      'modules/ranking/server/x.ts → ../../satelite/server/satelite.ts: um módulo importa outro',
      'modules/perfil/screens/X.tsx → ../../../server/auth/users.ts: uma tela importa o servidor',
      'modules/perfil/screens/X.tsx → ../server/x.ts: uma tela importa o servidor',
    ]);
  });

  it('each modules/<name>/server.ts declares the module <name>; each module has metadata or server code', () => {
    const names = fs.readdirSync(MODULES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const server = path.join(MODULES, name, 'server.ts');
      expect(fs.existsSync(server) || fs.existsSync(path.join(MODULES, name, 'metadata')), name).toBe(true);
      if (fs.existsSync(server)) expect(fs.readFileSync(server, 'utf8'), name).toMatch(new RegExp(`defineModule\\(\\{\\s*name: '${name}'`));
    }
  });
});
