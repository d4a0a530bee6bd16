// Reads metadata/ and modules/*/metadata/: every *.yaml under an area folder is an entity, a screen when it says `kind: tela`, or a
// provider when it says `kind: provider`;
// _menu.yaml holds the menu groups; _tecnologias.yaml (optional) the device technologies and models.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { parse, YAMLParseError } from 'yaml';
import { MetadataError, problem } from './errors.ts';
import { kindOf, kinds } from './kinds/registry.ts';

export interface SourceFile {
  file: string;   // display/relative name, e.g. metadata/tlm/ativo.yaml
  area: string;   // first folder below metadata/, e.g. tlm
  data: unknown;
}

export interface LoadedMetadata {
  dir: string;
  /** Files by the `kind` of their module (generator/kinds/registry.ts), entities under 'entidade'. */
  kinds?: Record<string, SourceFile[]>;
  entities: SourceFile[];
  screens: SourceFile[];   // files with kind: tela (metadata/_schema/screen.schema.json)
  providers?: SourceFile[]; // files with kind: provider (metadata/_schema/provider.schema.json)
  hubs?: SourceFile[];     // files with kind: hub (metadata/_schema/hub.schema.json)
  menu: SourceFile;
  tecnologias?: SourceFile;
}

export const isScreen = (data: unknown) => !!data && typeof data === 'object' && (data as { kind?: unknown }).kind === 'tela';
export const isHub = (data: unknown) => !!data && typeof data === 'object' && (data as { kind?: unknown }).kind === 'hub';
export const isProvider = (data: unknown) => !!data && typeof data === 'object' && (data as { kind?: unknown }).kind === 'provider';

// Folders under metadata/ that hold other data (not entity files).
export const IGNORED_DIRS = new Set(['catalogos']);

function listYaml(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('_') || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!IGNORED_DIRS.has(name)) out.push(...listYaml(full));
    } else if (name.endsWith('.yaml') || name.endsWith('.yml')) {
      out.push(full);
    }
  }
  return out;
}

function readYaml(full: string, file: string): unknown {
  try {
    return parse(readFileSync(full, 'utf8'), { uniqueKeys: true });
  } catch (e) {
    if (e instanceof YAMLParseError) {
      const pos = e.linePos?.[0];
      const where = pos ? `linha ${pos.line}, coluna ${pos.col}` : '';
      throw new MetadataError([problem(file, where, `YAML inválido: ${e.message.split('\n')[0]}`)]);
    }
    throw e;
  }
}

/** The metadata folders of the module folders beside dir: {dir}/../modules/<name>/metadata (README, architecture). */
export function moduleMetadataDirs(dir: string): string[] {
  const modules = join(dirname(dir), 'modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules).sort().map((name) => join(modules, name, 'metadata')).filter((d) => existsSync(d) && statSync(d).isDirectory());
}

export function loadMetadata(dir: string): LoadedMetadata {
  const root = basename(dir);
  const display = (full: string) => [root, ...relative(dir, full).split(sep)].join('/');
  // Each YAML's area is its first folder below metadata/ (or below modules/<name>/metadata/).
  const read = (base: string, show: (full: string) => string) => listYaml(base).map((full) => {
    const file = show(full);
    const parts = relative(base, full).split(sep);
    return { file, area: parts.length > 1 ? parts[0] : '', data: readYaml(full, file) };
  });
  const files = [
    ...read(dir, display),
    ...moduleMetadataDirs(dir).flatMap((m) => read(m, (full) => relative(dirname(dir), full).split(sep).join('/'))),
  ];
  const menuPath = join(dir, '_menu.yaml');
  const menuFile = display(menuPath);
  let menuData: unknown = { groups: [] };
  try {
    statSync(menuPath);
    menuData = readYaml(menuPath, menuFile);
  } catch (e) {
    if (e instanceof MetadataError) throw e;
    throw new MetadataError([problem(menuFile, '', 'arquivo de grupos do menu não encontrado')]);
  }
  const tecPath = join(dir, '_tecnologias.yaml');
  const tecnologias = existsSync(tecPath) ? { file: display(tecPath), area: '', data: readYaml(tecPath, display(tecPath)) } : undefined;
  // Each file goes to its kind's module (generator/kinds/registry.ts); the built-ins keep their own lists too.
  const byKind: Record<string, SourceFile[]> = Object.fromEntries(kinds().map((k) => [k.kind, []]));
  for (const f of files) byKind[kindOf(f.data).kind].push(f);
  const entities = byKind.entidade;
  const screens = byKind.tela;
  const providers = byKind.provider;
  const hubs = byKind.hub;
  return { dir, kinds: byKind, entities, screens, providers, hubs, menu: { file: menuFile, area: '', data: menuData }, ...(tecnologias ? { tecnologias } : {}) };
}
