// The whole pipeline: load -> validate -> normalize -> emit -> write.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { MetadataError, problem } from './errors.ts';
import { DEFAULT_IMPORTS, emitAll, type ImportPaths, type Output } from './emit/index.ts';
import { loadMetadata } from './load.ts';
import { menuIcons } from './emit/icons.ts';
import { screenSource } from './emit/runtime.ts';
import type { Model } from '../shared/model.ts';
import { normalize } from './normalize.ts';
import { validateMetadata } from './validate.ts';
import { writeTree, type WriteStats } from './write.ts';

export interface GenerateOptions {
  metadata?: string; outServer?: string; outRuntime?: string; root?: string;
  /** Runtime sources (screens/) the generated index imports; set it when the runtime output dir is
   *  elsewhere (e.g. a test's temp dir). Default: the output dir's parent. */
  runtimeSrc?: string;
}
export interface GenerateResult { model: Model; server: WriteStats; runtime: WriteStats }

export function defaultOptions(root = process.cwd()): Required<Pick<GenerateOptions, 'metadata' | 'outServer' | 'outRuntime'>> {
  return {
    metadata: resolve(root, 'metadata'),
    outServer: resolve(root, 'server/generated'),
    outRuntime: resolve(root, 'runtime/src/generated'),
  };
}

/** Loads, validates and normalizes metadata/ (throws MetadataError listing every problem). */
export function buildModel(metadataDir: string): Model {
  const meta = loadMetadata(metadataDir);
  validateMetadata(meta);
  return normalize(meta);
}

/** Generated files in memory, without writing. */
export async function render(metadataDir: string, imports: ImportPaths = DEFAULT_IMPORTS): Promise<Output & { model: Model }> {
  const model = buildModel(metadataDir);
  return { model, ...(await emitAll(model, imports)) };
}

/** Each screen's component must exist under {runtimeSrc}/screens/ or its module folder (the generated index imports it). */
export function checkScreenComponents(model: Model, runtimeSrc: string): void {
  const problems = (model.screens ?? [])
    .filter((t) => !existsSync(join(runtimeSrc, screenSource(t))))
    .map((t) => problem(t.file, '/component', `arquivo não encontrado: ${relative(process.cwd(), join(runtimeSrc, screenSource(t))).split(sep).join('/')}`));
  if (problems.length) throw new MetadataError(problems);
}

/** Each menu icon must be an @mui/icons-material icon (the generated icons.tsx imports it). */
export function checkIcons(model: Model): void {
  const dir = dirname(createRequire(import.meta.url).resolve('@mui/icons-material/ListAlt'));
  const unknown = new Set(menuIcons(model).filter((n) => !existsSync(join(dir, `${n}.js`))));
  if (!unknown.size) return;
  const where = [
    ...model.entities.map((e) => ({ file: e.file, icon: e.menu?.icon })),
    ...(model.screens ?? []).map((t) => ({ file: t.file, icon: t.menu?.icon })),
  ];
  throw new MetadataError([...unknown].map((n) => problem(where.find((w) => w.icon === n)?.file ?? 'metadata/_menu.yaml', '/menu/icon', `ícone desconhecido: ${n} (não existe em @mui/icons-material)`)));
}

const rel = (from: string, to: string) => relative(from, to).split(sep).join('/') || '.';

export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const o = { ...defaultOptions(options.root), ...Object.fromEntries(Object.entries(options).filter(([, v]) => v)) } as ReturnType<typeof defaultOptions> & GenerateOptions;
  const imports: ImportPaths = { ...DEFAULT_IMPORTS };
  if (o.runtimeSrc) imports.runtimeSrc = rel(resolve(o.outRuntime), resolve(o.runtimeSrc));
  const { model, server, runtime } = await render(resolve(o.metadata), imports);
  checkScreenComponents(model, resolve(o.runtimeSrc ?? dirname(resolve(o.outRuntime))));
  checkIcons(model);
  return { model, server: writeTree(resolve(o.outServer), server), runtime: writeTree(resolve(o.outRuntime), runtime) };
}
