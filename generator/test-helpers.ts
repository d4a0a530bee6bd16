// Test helpers: a temp project root (inside the repo so node_modules resolve) with a copy of metadata/.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { afterEach } from 'vitest';
import { MetadataError } from './errors.ts';
import { loadMetadata } from './load.ts';

export const REPO = resolve(import.meta.dirname, '..');

export interface TempProject { root: string; metadata: string; outServer: string; outRuntime: string; cleanup: () => void }

export function tempProject(): TempProject {
  mkdirSync(join(REPO, '.tmp'), { recursive: true });
  const root = mkdtempSync(join(REPO, '.tmp', 'gen-'));
  const metadata = join(root, 'metadata');
  cpSync(join(REPO, 'metadata'), metadata, { recursive: true });
  // The modules' metadata too (loaded from {root}/modules/<name>/metadata beside metadata/).
  const modules = join(REPO, 'modules');
  for (const name of existsSync(modules) ? readdirSync(modules) : []) {
    const dir = join(modules, name, 'metadata');
    if (existsSync(dir)) cpSync(dir, join(root, 'modules', name, 'metadata'), { recursive: true });
  }
  // Screens (kind: tela) need their component under runtime/src/screens/ (or ./ in their module folder): a stub each.
  for (const s of loadMetadata(metadata).screens) {
    const component = (s.data as { component?: string }).component;
    const mod = /^modules\/[^/]+\//.exec(s.file)?.[0];
    const path = mod && component?.startsWith('./') ? join(root, mod, component.slice(2)) : join(root, 'runtime/src/screens', component ?? '');
    if (component) writeFile(path, 'export default function Tela() { return null; }\n');
  }
  return {
    root, metadata,
    outServer: join(root, 'server/generated'),
    outRuntime: join(root, 'runtime/src/generated'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function writeFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** A factory of temp projects removed after each test of the calling file. */
export function tempProjects(): () => TempProject {
  const made: TempProject[] = [];
  afterEach(() => { while (made.length) made.pop()!.cleanup(); });
  return () => { const p = tempProject(); made.push(p); return p; };
}

/** Rewrites one metadata YAML of a temp project through `edit` (written back as JSON, which YAML reads). */
export function editYaml(p: TempProject, rel: string, edit: (doc: any) => void): void {
  const file = join(p.metadata, rel);
  const data = parseDocument(readFileSync(file, 'utf8')).toJS();
  edit(data);
  writeFileSync(file, JSON.stringify(data));
}

/** The problems of the MetadataError that `run` must throw. */
export async function metadataProblems(run: () => unknown): Promise<string[]> {
  try { await run(); } catch (e) { if (e instanceof MetadataError) return e.problems; throw e; }
  throw new Error('expected a MetadataError');
}
