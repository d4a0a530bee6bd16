// The whole pipeline: load -> validate -> normalize -> emit -> write.
import { resolve } from 'node:path';
import { emitAll, type Output } from './emit/index.ts';
import { loadMetadata } from './load.ts';
import type { Model } from './model.ts';
import { normalize } from './normalize.ts';
import { validateMetadata } from './validate.ts';
import { writeTree, type WriteStats } from './write.ts';

export interface GenerateOptions { metadata?: string; outServer?: string; outRuntime?: string; root?: string }
export interface GenerateResult { model: Model; server: WriteStats; runtime: WriteStats }

export function defaultOptions(root = process.cwd()): Required<Omit<GenerateOptions, 'root'>> {
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
export async function render(metadataDir: string): Promise<Output & { model: Model }> {
  const model = buildModel(metadataDir);
  return { model, ...(await emitAll(model)) };
}

export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const o = { ...defaultOptions(options.root), ...Object.fromEntries(Object.entries(options).filter(([, v]) => v)) };
  const { model, server, runtime } = await render(resolve(o.metadata));
  return { model, server: writeTree(resolve(o.outServer), server), runtime: writeTree(resolve(o.outRuntime), runtime) };
}
