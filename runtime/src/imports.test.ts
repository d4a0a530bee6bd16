// The front end's import rules (issue 19): nothing under runtime/src imports from server/ or generator/, and runtime/src/crud is
// layered — lib (headless helpers) < widgets (inputs, values, pickers, dialogs) < forms < lists < pages — each file
// importing only its own layer or lower ones, with no barrel (index) inside crud.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname);
const REPO = path.resolve(SRC, '../..');
const CRUD = path.join(SRC, 'crud');
export const LAYERS = ['lib', 'widgets', 'forms', 'lists', 'pages'] as const;

const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
  const p = path.join(d, e.name);
  return e.isDirectory() ? walk(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
});

const IMPORTS = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/g, // import … from, import type … from, export … from
  /\bimport\s*(['"])([^'"]+)\1/g, // import 'x' (side effect)
  /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g, // import('x')
];

/** Static, type-only, re-export and dynamic import specifiers of a source, in source order (comments skipped). */
export function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
  const found = IMPORTS.flatMap((re) => [...code.matchAll(re)].map((m) => ({ at: m.index, spec: m[2] })));
  return found.sort((a, b) => a.at - b.at).map((f) => f.spec);
}

/** The file a relative specifier names (extension and index resolution as the bundler does); undefined if none. */
function resolve(from: string, spec: string, exists: (p: string) => boolean): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((x) => base + x).find(exists);
}

/** Imports of runtime/src files that reach into server/ or generator/ (what both sides share lives in shared/). */
export function serverImports(files: Map<string, string>): string[] {
  const banned = ['server', 'generator'].map((d) => path.join(REPO, d) + path.sep);
  const out: string[] = [];
  for (const [file, src] of files) for (const spec of importsOf(src)) {
    const to = path.resolve(path.dirname(file), spec);
    if (spec.startsWith('.') && banned.some((b) => to.startsWith(b))) out.push(`${path.relative(REPO, file)} → ${spec}`);
  }
  return out;
}

/** Layer violations in crud: a file outside the layer folders, an index barrel, or an import of a higher layer. */
export function layerViolations(files: Map<string, string>, exists = (p: string) => files.has(p)): string[] {
  const layerOf = (f: string) => {
    const top = path.relative(CRUD, f).split(path.sep)[0];
    return (LAYERS as readonly string[]).indexOf(top);
  };
  const out: string[] = [];
  for (const [file, src] of files) {
    if (!file.startsWith(CRUD + path.sep)) continue;
    const rel = path.relative(REPO, file);
    const own = layerOf(file);
    if (own < 0 || path.dirname(file) === CRUD) { out.push(`${rel}: fora das camadas (${LAYERS.join(', ')})`); continue; }
    if (/^index\.tsx?$/.test(path.basename(file))) out.push(`${rel}: barril (index) dentro de crud`);
    for (const spec of importsOf(src)) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(file, spec, exists);
      if (!target || !target.startsWith(CRUD + path.sep)) continue;
      if (/[\\/]index\.tsx?$/.test(target)) out.push(`${rel} → ${spec}: importa um barril`);
      const theirs = layerOf(target);
      if (theirs > own) out.push(`${rel} → ${spec}: ${LAYERS[own]} importa ${LAYERS[theirs]} (camada acima)`);
    }
  }
  return out;
}

/** Packages a file loads at once (static, non-type imports), following relative imports; dynamic import() is the
 *  split point and stops the walk. */
export function eagerPackages(entry: string, files: Map<string, string>, exists = (p: string) => files.has(p)): Map<string, string> {
  const out = new Map<string, string>(); // package → first file importing it
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file) || !files.has(file)) return;
    seen.add(file);
    const code = files.get(file)!.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
    const eager = [...code.matchAll(/\b(import|export)(\s+type\b)?[^'"`;()]*?\bfrom\s*(['"])([^'"]+)\3|\bimport\s*(['"])([^'"]+)\5/g)]
      .filter((m) => !m[2]).map((m) => m[4] ?? m[6]);
    for (const spec of eager) {
      if (spec.startsWith('.')) { const t = resolve(file, spec, exists); if (t) walk(t); }
      else if (!out.has(spec)) out.set(spec, path.relative(REPO, file));
    }
  };
  walk(entry);
  return out;
}

// What a list page must not load at once: the form library, the date pickers, the image cropper.
const HEAVY = /^(@rjsf\/(core|mui|validator-ajv8)|ajv|@mui\/x-date-pickers|dayjs|react-easy-crop)(\/|$)/;
const heavyOf = (m: Map<string, string>) => [...m].filter(([p]) => HEAVY.test(p)).map(([p, f]) => `${p} (${f})`);

/** Import cycles among crud files (static, type and dynamic imports alike): each as the files of the ring. */
export function cycles(files: Map<string, string>, exists = (p: string) => files.has(p)): string[][] {
  const crud = [...files.keys()].filter((f) => f.startsWith(CRUD + path.sep) && !/\.test\.tsx?$/.test(f));
  const edges = new Map(crud.map((f) => [f, importsOf(files.get(f)!).filter((s) => s.startsWith('.'))
    .map((s) => resolve(f, s, exists)).filter((t): t is string => !!t && t.startsWith(CRUD + path.sep))]));
  // Tarjan's strongly connected components
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next++); stack.push(v); on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const ring: string[] = [];
    let w: string;
    do { w = stack.pop()!; on.delete(w); ring.push(path.relative(CRUD, w)); } while (w !== v);
    if (ring.length > 1 || edges.get(v)!.includes(v)) out.push(ring.sort());
  };
  for (const f of crud) if (!index.has(f)) visit(f);
  return out;
}

const real = () => new Map(walk(SRC).filter((f) => !f.includes(`${path.sep}generated${path.sep}`)).map((f) => [f, fs.readFileSync(f, 'utf8')]));
const isFile = (p: string) => fs.existsSync(p) && fs.statSync(p).isFile();

describe('front-end imports', () => {
  it('parses static, type, re-export and dynamic imports', () => {
    expect(importsOf(`import a from './a';\nimport type {\n  B,\n} from "../b";\nexport { c } from './c';\nconst d = () => import('./d');\nimport './e.css';\n// import x from './no';\n/* import y from './no' */`))
      .toEqual(['./a', '../b', './c', './d', './e.css']);
  });

  it('runtime/src imports nothing from server/ nor generator/', () => {
    const files = real();
    expect(files.size).toBeGreaterThan(80);
    expect(serverImports(files)).toEqual([]);
    // the check sees a planted import
    const planted = new Map([[path.join(SRC, 'crud/widgets/X.tsx'), `import { LookupValue } from '../../../../server/crud/lookup';`]]);
    expect(serverImports(planted)).toEqual(['runtime/src/crud/widgets/X.tsx → ../../../../server/crud/lookup']);
    const fromGenerator = new Map([[path.join(SRC, 'crud/lib/Y.ts'), `import { declaredMessage } from '../../../../generator/messages';`]]);
    expect(serverImports(fromGenerator)).toEqual(['runtime/src/crud/lib/Y.ts → ../../../../generator/messages']);
  });

  it('crud files import only their own layer or lower ones', () => {
    const files = real();
    expect([...files.keys()].filter((f) => f.startsWith(CRUD)).length).toBeGreaterThan(40);
    expect(layerViolations(files, isFile)).toEqual([]);
  });

  it('fails on an upward import, a file outside the layers and a barrel', () => {
    const files = real();
    const widget = path.join(CRUD, 'widgets/FieldValue.tsx');
    const up = new Map(files).set(widget, `${files.get(widget)}\nimport { GenericList } from '../lists/GenericList';\n`);
    expect(layerViolations(up, isFile)).toEqual(['runtime/src/crud/widgets/FieldValue.tsx → ../lists/GenericList: widgets importa lists (camada acima)']);
    const lazyUp = new Map(files).set(path.join(CRUD, 'lib/x.ts'), `export const f = () => import('../pages/RecordPage');`);
    expect(layerViolations(lazyUp, isFile)).toEqual(['runtime/src/crud/lib/x.ts → ../pages/RecordPage: lib importa pages (camada acima)']);
    const loose = new Map(files).set(path.join(CRUD, 'index.ts'), `export { GenericList } from './lists/GenericList';`);
    expect(layerViolations(loose, isFile)).toEqual(['runtime/src/crud/index.ts: fora das camadas (lib, widgets, forms, lists, pages)']);
    const barrel = path.join(CRUD, 'forms/index.ts');
    const withBarrel = new Map(files).set(barrel, `export { SchemaForm } from './SchemaForm';`);
    const isFileOrBarrel = (p: string) => p === barrel || isFile(p);
    const pages = path.join(CRUD, 'pages/RecordPage.tsx');
    withBarrel.set(pages, `${files.get(pages)}\nimport { SchemaForm } from '../forms';\n`);
    expect(layerViolations(withBarrel, isFileOrBarrel).sort()).toEqual([
      'runtime/src/crud/forms/index.ts: barril (index) dentro de crud',
      'runtime/src/crud/pages/RecordPage.tsx → ../forms: importa um barril',
    ]);
  });

  it('no import ring inside crud (type and lazy imports count)', () => {
    const files = real();
    expect(cycles(files, isFile)).toEqual([]);
    const a = path.join(CRUD, 'widgets/DateRangeFields.tsx');
    const ring = new Map(files).set(a, `${files.get(a)}\nimport type { DateRange } from './DateRangeFilter';\n`);
    expect(cycles(ring, isFile)).toEqual([['widgets/DateRangeFields.tsx', 'widgets/DateRangeFilter.tsx']]);
  });

  it('a list loads no form, picker or cropper code until they are used', () => {
    const files = real();
    const list = path.join(CRUD, 'lists/GenericList.tsx');
    const eager = eagerPackages(list, files, isFile);
    expect(eager.has('react-admin')).toBe(true);
    expect(heavyOf(eager)).toEqual([]);
    expect(heavyOf(eagerPackages(path.join(CRUD, 'lists/ProviderList.tsx'), files, isFile))).toEqual([]);
    // a static import of the pickers from a list widget is caught
    const range = path.join(CRUD, 'widgets/DateRangeFilter.tsx');
    const planted = new Map(files).set(range, `import { DATE_FORMAT } from './pickers';\n${files.get(range)}`);
    expect(heavyOf(eagerPackages(list, planted, isFile))).toEqual([
      'dayjs (runtime/src/crud/widgets/pickers.tsx)',
      'dayjs/locale/pt-br (runtime/src/crud/widgets/pickers.tsx)',
      '@mui/x-date-pickers/DatePicker (runtime/src/crud/widgets/pickers.tsx)',
      '@mui/x-date-pickers/DateTimePicker (runtime/src/crud/widgets/pickers.tsx)',
      '@mui/x-date-pickers/TimePicker (runtime/src/crud/widgets/pickers.tsx)',
      '@mui/x-date-pickers/LocalizationProvider (runtime/src/crud/widgets/PickersProvider.tsx)',
      '@mui/x-date-pickers/AdapterDayjs (runtime/src/crud/widgets/PickersProvider.tsx)',
      '@mui/x-date-pickers/locales (runtime/src/crud/widgets/PickersProvider.tsx)',
    ]);
  });
});
