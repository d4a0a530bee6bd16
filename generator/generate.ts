// The whole pipeline: load -> validate -> normalize -> emit -> write.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { MetadataError, problem } from './errors.ts';
import { DEFAULT_IMPORTS, emitAll, type ImportPaths, type Output } from './emit/index.ts';
import { loadMetadata } from './load.ts';
import type { Model } from './model.ts';
import { normalize } from './normalize.ts';
import { validateMetadata } from './validate.ts';
import { writeTree, type WriteStats } from './write.ts';

export interface GenerateOptions {
  metadata?: string; outServer?: string; outRuntime?: string; root?: string;
  /** Server sources (crud/, app/) and runtime sources (crud/) the generated modules import; set them
   *  when the output dirs are elsewhere (e.g. a test's temp dir). Default: the output dir's parent. */
  serverSrc?: string; runtimeSrc?: string;
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

/** Each screen's component must exist under {runtimeSrc}/screens/ (the generated index imports it). */
export function checkScreenComponents(model: Model, runtimeSrc: string): void {
  const problems = (model.screens ?? [])
    .filter((t) => !existsSync(join(runtimeSrc, 'screens', t.component)))
    .map((t) => problem(t.file, '/component', `arquivo não encontrado: ${relative(process.cwd(), join(runtimeSrc, 'screens', t.component)).split(sep).join('/')}`));
  if (problems.length) throw new MetadataError(problems);
}

const GENERATOR_DIR = import.meta.dirname;
const rel = (from: string, to: string) => relative(from, to).split(sep).join('/') || '.';

export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const o = { ...defaultOptions(options.root), ...Object.fromEntries(Object.entries(options).filter(([, v]) => v)) } as ReturnType<typeof defaultOptions> & GenerateOptions;
  const imports: ImportPaths = { ...DEFAULT_IMPORTS };
  if (o.serverSrc) Object.assign(imports, { serverSrc: rel(resolve(o.outServer), resolve(o.serverSrc)), generatorFromServer: rel(resolve(o.outServer), GENERATOR_DIR) });
  if (o.runtimeSrc) Object.assign(imports, { runtimeSrc: rel(resolve(o.outRuntime), resolve(o.runtimeSrc)), generatorFromRuntime: rel(resolve(o.outRuntime), GENERATOR_DIR) });
  const { model, server, runtime } = await render(resolve(o.metadata), imports);
  checkScreenComponents(model, resolve(o.runtimeSrc ?? dirname(resolve(o.outRuntime))));
  return { model, server: writeTree(resolve(o.outServer), server), runtime: writeTree(resolve(o.outRuntime), runtime) };
}
