// Loader of the event/parameter libraries (metadata/catalogos/*.yaml), validated with ajv
// against metadata/catalogos/_schema.json. Used by the decoders for descriptions.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';

export type CatalogKind = 'eventos' | 'parametros' | 'alarmes';
export type RiskLevel = 'baixo' | 'médio' | 'alto';

export interface CatalogUnit { value: string; full: string; short: string }

export interface CatalogEntry {
  event: string;
  code?: number | string;
  message?: string;
  group?: 'rsp' | 'evt';
  risk?: RiskLevel;
  description: string;
  subtitle: string;
  type: string;
  unit: CatalogUnit;
  undescribed?: boolean;
}

export interface CatalogFile {
  /** File name without extension, e.g. legacy-eventos. */
  name: string;
  family: string;
  kind: CatalogKind;
  title: string;
  source?: string;
  entries: CatalogEntry[];
}

export class CatalogError extends Error {
  constructor(readonly file: string, readonly errors: string[]) {
    super(`catálogo inválido ${file}: ${errors.join('; ')}`);
    this.name = 'CatalogError';
  }
}

export const CATALOG_DIR = fileURLToPath(new URL('../metadata/catalogos/', import.meta.url));

let validator: ((data: unknown) => string[]) | undefined;

function getValidator(dir: string): (data: unknown) => string[] {
  if (validator && dir === CATALOG_DIR) return validator;
  const schema = JSON.parse(readFileSync(join(dir, '_schema.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  const fn = (data: unknown): string[] =>
    validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
  if (dir === CATALOG_DIR) validator = fn;
  return fn;
}

/** Validate one parsed catalogue file: JSON Schema plus unique keys and codes. Returns error messages. */
export function validateCatalog(data: unknown, dir = CATALOG_DIR): string[] {
  const errors = getValidator(dir)(data);
  if (errors.length) return errors;
  const file = data as Omit<CatalogFile, 'name'>;
  const keys = new Set<string>();
  const codes = new Set<string>();
  for (const e of file.entries) {
    if (keys.has(e.event)) errors.push(`chave duplicada: ${e.event}`);
    keys.add(e.event);
    if (e.code !== undefined) {
      if (codes.has(String(e.code))) errors.push(`código duplicado: ${e.code}`);
      codes.add(String(e.code));
    }
  }
  return errors;
}

/** Read and validate every *.yaml of a directory (files starting with _ are skipped). Throws CatalogError. */
export function loadCatalogs(dir = CATALOG_DIR): Map<string, CatalogFile> {
  const out = new Map<string, CatalogFile>();
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.yaml') || f.startsWith('_')) continue;
    const name = f.replace(/\.yaml$/, '');
    let data: unknown;
    try {
      data = parse(readFileSync(join(dir, f), 'utf8'));
    } catch (err) {
      throw new CatalogError(f, [String((err as Error).message)]);
    }
    const errors = validateCatalog(data, dir);
    if (errors.length) throw new CatalogError(f, errors);
    out.set(name, { name, ...(data as Omit<CatalogFile, 'name'>) });
  }
  return out;
}

// ---- Cached default catalogues and indexed lookups --------------------------------------------

interface Indexed { file: CatalogFile; byKey: Map<string, CatalogEntry>; byCode: Map<string, CatalogEntry>; byMessage: Map<string, CatalogEntry> }
let cache: Map<string, Indexed> | undefined;

function indexed(): Map<string, Indexed> {
  if (!cache) {
    cache = new Map();
    for (const [name, file] of loadCatalogs()) {
      const byKey = new Map<string, CatalogEntry>();
      const byCode = new Map<string, CatalogEntry>();
      const byMessage = new Map<string, CatalogEntry>();
      for (const e of file.entries) {
        byKey.set(e.event, e);
        if (e.code !== undefined) byCode.set(String(e.code), e);
        if (e.message && !byMessage.has(e.message)) byMessage.set(e.message, e);
      }
      cache.set(name, { file, byKey, byCode, byMessage });
    }
  }
  return cache;
}

/** Names of the loaded catalogues (e.g. legacy-eventos, camera-alarmes). */
export function catalogNames(): string[] {
  return [...indexed().keys()];
}

/** One catalogue by file name; undefined when missing. */
export function getCatalog(name: string): CatalogFile | undefined {
  return indexed().get(name)?.file;
}

export function findByKey(name: string, key: string): CatalogEntry | undefined {
  return indexed().get(name)?.byKey.get(key);
}

export function findByCode(name: string, code: number | string): CatalogEntry | undefined {
  return indexed().get(name)?.byCode.get(String(code));
}

/** First entry of a Queclink catalogue for an @Track message name (e.g. GTIGN). */
export function findByMessage(name: string, message: string): CatalogEntry | undefined {
  return indexed().get(name)?.byMessage.get(message);
}

/** pt-BR description of a key ("" when unknown or undescribed). */
export function describe(name: string, key: string): string {
  return findByKey(name, key)?.description ?? '';
}
