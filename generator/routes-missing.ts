// `npm run routes:missing`: the screen routes of core.md section 2 (every route and child, the spec's
// "children" notations expanded) that the generated route table does not open, grouped by the issue
// that owns them. Exit 0: it is a report, not a gate.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

export interface SpecRoute { path: string; section: string }

// Notation of core.md section 2, e.g.
//   /adm/cfg/imei (list, adicionar, :id/editar)          children in parentheses ("list"/"index" = the route itself)
//   /x with children a, b / with tabs a, b / /x: a, b     children up to the end of the item
//   /adm/sis/cadastro: index, plus list, adicionar, :id/editar for each of a, b   a template for each name
//   a, b; each with list, adicionar                          a template for each preceding name
//   ativos (list, ...) and motoristas (same) / x (same as y) the children of a sibling
//   :tecnology/:model, .../adicionar                       "..." = the previous sibling written in full
//   /historico_itinerario and /{id}                          a lone parameter segment extends the previous path
//   (add and edit share one form)                            a parenthesis of prose is a comment
interface Node { seg: string; children: Node[]; same?: string | true; ellipsis?: boolean }

type Tok = string;
const STRUCT = new Set(['(', ')', ',', ';', ':', 'and', 'plus', 'with', 'each', 'for-each-of']);

function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  const src = text.replace(/\bfor each of\b/g, ' for-each-of ');
  const re = /\s*([(),;]|[^\s(),;]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src))) {
    let w = m[1];
    // "sub-pages:" / "/adm/sis/cadastro:" — a trailing colon introduces children.
    if (w.length > 1 && w.endsWith(':')) { out.push(w.slice(0, -1), ':'); continue; }
    if (w === '.') continue;
    if (w.endsWith('.') && !w.endsWith('...')) w = w.slice(0, -1);
    out.push(w);
  }
  return out;
}

const isPlainWord = (w: string) => /^[a-zA-Z-]+$/.test(w) && !STRUCT.has(w);

class Parser {
  i = 0;
  constructor(private toks: Tok[]) {}
  peek(): Tok | undefined { return this.toks[this.i]; }
  next(): Tok | undefined { return this.toks[this.i++]; }
  done(stop: Set<string>) { const t = this.peek(); return t === undefined || stop.has(t); }

  /** A list of elements until a token of `stop` (not consumed). */
  list(stop: Set<string>): { nodes: Node[]; prose: boolean } {
    const nodes: Node[] = [];
    let prose = false;
    let templateStart = 0;
    while (!this.done(stop)) {
      const t = this.peek()!;
      if (t === ',' || t === ';' || t === 'and') { this.next(); continue; }
      if (t === 'plus') { this.next(); templateStart = nodes.length; continue; }
      if (t === 'for-each-of') {
        this.next();
        const template = nodes.splice(templateStart);
        const names = this.list(stop);
        prose ||= names.prose;
        for (const n of names.nodes) nodes.push({ ...n, children: [...template, ...n.children] });
        continue;
      }
      if (t === 'each') {
        this.next();
        if (this.peek() === 'with') this.next();
        const template = this.peek()?.includes('/') && this.toks[this.i + 1] !== ',' && this.toks[this.i + 1] !== 'and'
          ? slashTemplate(this.next()!)
          : this.list(stop).nodes;
        for (const n of nodes) n.children.push(...template);
        continue;
      }
      const el = this.element(stop, nodes.findLast((n) => !n.ellipsis));
      prose ||= el.prose;
      if (el.node) nodes.push(el.node);
    }
    return { nodes, prose };
  }

  element(stop: Set<string>, prev: Node | undefined): { node?: Node; prose: boolean } {
    const first = this.next()!;
    if (first === 'same') {
      if (this.peek() === 'as') { this.next(); return { node: { seg: '', children: [], same: this.next()! }, prose: false }; }
      return { node: { seg: '', children: [], same: true }, prose: false };
    }
    let seg = first;
    if (['child', 'children', 'then'].includes(seg)) seg = this.next()!;
    // Label words before an absolute path: "public link at /tlm/ras/link_publico".
    let label = false;
    if (isPlainWord(seg)) {
      let j = this.i;
      while (j < this.toks.length && isPlainWord(this.toks[j])) j++;
      if (j < this.toks.length && this.toks[j].startsWith('/')) { seg = this.toks[j]; this.i = j + 1; label = true; }
    }
    const ellipsis = seg.startsWith('.../') && !!prev;
    if (ellipsis) seg = `${prev!.seg}/${seg.slice(4)}`;
    // Description words after the segment ("sub-pages", "firmware list", "view").
    let desc = 0;
    while (this.peek() !== undefined && !STRUCT.has(this.peek()!) && !stop.has(this.peek()!)) { this.next(); desc++; }
    const prose = label || (desc > 0 && isPlainWord(seg));
    const node: Node = { seg, children: [], ellipsis };
    const t = this.peek();
    if (t === '(') {
      this.next();
      const inner = this.list(new Set([')']));
      this.next();
      if (!inner.prose) node.children.push(...inner.nodes);
    } else if (t === ':' || t === 'with') {
      this.next();
      if (this.peek() === 'children' || this.peek() === 'tabs') this.next();
      node.children.push(...this.list(stop).nodes);
    }
    return { node, prose };
  }
}

/** "list/adicionar/{id}/editar" → list, adicionar, {id}/editar (a parameter joins the next segment). */
function slashTemplate(s: string): Node[] {
  const out: Node[] = [];
  const parts = s.split('/');
  for (let k = 0; k < parts.length; k++) {
    if (isParam(parts[k]) && k + 1 < parts.length) { out.push({ seg: `${parts[k]}/${parts[k + 1]}`, children: [] }); k++; }
    else out.push({ seg: parts[k], children: [] });
  }
  return out;
}

const isParam = (seg: string) => /^(:\w+|\{\w+\})$/.test(seg);

function resolveSame(nodes: Node[]) {
  for (const [k, n] of nodes.entries()) {
    if (n.children.length === 1 && n.children[0].same) {
      const same = n.children[0].same;
      const src = same === true ? nodes[k - 1] : nodes.find((x) => x.seg === same);
      n.children = src ? src.children : [];
    }
    resolveSame(n.children);
  }
}

function flatten(base: string, nodes: Node[], out: string[]) {
  for (const n of nodes) {
    const p = n.seg === 'list' || n.seg === 'index' ? base : `${base}/${n.seg}`;
    out.push(p);
    flatten(p, n.children, out);
  }
}

/** The routes of one bullet of section 2. */
export function expandBullet(text: string): string[] {
  // Items at top level are separated by ';' — except "; each with ..." which continues the previous item.
  const items: string[] = [];
  let depth = 0, start = 0;
  for (let k = 0; k <= text.length; k++) {
    const ch = text[k];
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if ((ch === ';' && depth === 0) || k === text.length) {
      const item = text.slice(start, k).trim();
      if (/^each\b/.test(item) && items.length) items[items.length - 1] += `, ${item}`;
      else if (item) items.push(item);
      start = k + 1;
    }
  }
  const out: string[] = [];
  let lastHead: string | undefined;
  for (let item of items) {
    let underIt = false;
    if (/^under it\b/.test(item)) { underIt = true; item = item.replace(/^under it\s*/, ''); }
    const { nodes } = new Parser(tokenize(item)).list(new Set());
    resolveSame(nodes);
    let head = underIt ? lastHead : undefined;
    let prevAbs: string | undefined;
    for (const [k, n] of nodes.entries()) {
      if (n.seg.startsWith('/') && isParam(n.seg.slice(1)) && prevAbs) {
        flatten(prevAbs, [{ ...n, seg: n.seg.slice(1) }], out);
      } else if (n.seg.startsWith('/')) {
        const p = n.seg === '/' ? '/' : n.seg.replace(/\/$/, '');
        out.push(p);
        flatten(p === '/' ? '' : p, n.children, out);
        prevAbs = p;
        if (k === 0) head = p;
      } else if (!head) {
        // A screen named without its path ("perfil").
        const p = `/${n.seg}`;
        out.push(p);
        flatten(p, n.children, out);
        head = p;
      } else {
        const segs = head.split('/').filter(Boolean);
        const last = segs[segs.length - 1];
        // After a deep path (below area/module/screen) the names are its siblings; "garagem/adicionar"
        // after /tlm/fro/garagem repeats the screen's own name.
        const base = segs.length > 3 && !underIt ? `/${segs.slice(0, -1).join('/')}` : head;
        const seg = n.seg.startsWith(`${last}/`) && base === head ? n.seg.slice(last.length + 1) : n.seg;
        flatten(base, [{ ...n, seg }], out);
      }
    }
    lastHead = head ?? lastHead;
  }
  return [...new Set(out)];
}

/** Every route of core.md section 2 (public, administration, telematics, special, reports). */
export function specRoutes(coreMd: string): SpecRoute[] {
  const lines = coreMd.split('\n');
  const from = lines.findIndex((l) => l.startsWith('## 2.'));
  const to = lines.findIndex((l, k) => k > from && l.startsWith('## '));
  const sections = new Set(['Public routes', 'Administration and configuration', 'Telematics', 'Special', 'Reports']);
  const out: SpecRoute[] = [];
  const seen = new Set<string>();
  let section = '';
  for (const l of lines.slice(from, to)) {
    if (l.startsWith('### ')) { section = l.slice(4).trim(); continue; }
    if (!sections.has(section) || !l.startsWith('- ')) continue;
    for (const p of expandBullet(l.slice(2).trim().replace(/\.$/, ''))) {
      if (seen.has(p)) continue;
      seen.add(p);
      out.push({ path: p, section });
    }
  }
  return out;
}

/** Parameters compare by position only: {id}, :_id and :id are the same. */
export const normalize = (p: string) => p.split('/').map((s) => (isParam(s) || /^:_\w+$|^\{_\w+\}$/.test(s) ? ':p' : s)).join('/');

export const ISSUE_9 = 'issue 9 (cadastros, configuração e administração)';
export const OTHERS = 'outros módulos (mapas, relatórios, vídeo, demais)';

// Owner by path prefix, first match wins: registers, configuration and administration are issue 9; maps,
// reports, video and the other modules follow in their own issues (their registers are issue 9's).
const OWNERS: [RegExp, string][] = [
  [/^\/cfg\/map\//, OTHERS],
  [/^\/(adm|cfg|sistema|perfil)(\/|$)/, ISSUE_9],
  [/^\/tlm\/(fro|cee|cfg)\//, ISSUE_9],
  [/^\/tlm\/ras\/(registros|link_publico)$/, ISSUE_9],
  [/^\/esp\/(tcl|sat)\//, ISSUE_9],
  [/^\/rel\/for\//, ISSUE_9],
];
export const owner = (p: string) => OWNERS.find(([re]) => re.test(p))?.[1] ?? OTHERS;

// Routes the runtime opens itself (AdminApp: react-admin's login page and dashboard, /home, password change).
export const CORE_ROUTES = ['/', '/login', '/home', '/alterar_senha/:id'];

export interface MissingReport { total: number; withScreen: number; missing: Map<string, SpecRoute[]> }

/** `known`: the known values of route parameters (technology and model ids of metadata/_tecnologias.yaml); a spec
 *  route naming one of them literally (/cfg/fir/lista/vdo/vdo_telemetria) is the screen of the parameter route at
 *  that position (/cfg/fir/lista/:tecnology/:model), which the runtime opens with that value. */
export function missingRoutes(spec: SpecRoute[], generated: { path: string }[], known: Iterable<string> = []): MissingReport {
  const have = new Set([...generated.map((r) => normalize(r.path)), ...CORE_ROUTES.map(normalize)]);
  const values = new Set(known);
  const withParams = (p: string) => p.split('/').map((s) => (values.has(s) ? ':p' : s)).join('/');
  const served = (p: string) => have.has(normalize(p)) || have.has(normalize(withParams(p)));
  const missing = new Map<string, SpecRoute[]>([[ISSUE_9, []], [OTHERS, []]]);
  for (const r of spec) if (!served(r.path)) missing.get(owner(r.path))!.push(r);
  const n = [...missing.values()].reduce((s, l) => s + l.length, 0);
  return { total: spec.length, withScreen: spec.length - n, missing };
}

export function formatReport(rep: MissingReport): string {
  const lines = [`Rotas da seção 2 do core.md: ${rep.total}; com tela: ${rep.withScreen}; sem tela: ${rep.total - rep.withScreen}`];
  for (const [group, list] of rep.missing) {
    lines.push('', `${group}: ${list.length}`);
    for (const r of list) lines.push(`  ${r.path}    [${r.section}]`);
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const spec = process.env.RASTRO_SPEC ?? '/work/shared/spec/core.md';
  const table = path.join(root, 'server/generated/routes.json');
  if (!fs.existsSync(table)) { console.error('server/generated/routes.json não existe: rode `npm run generate`.'); process.exit(1); }
  const tecnologias = (YAML.parse(fs.readFileSync(path.join(root, 'metadata/_tecnologias.yaml'), 'utf8')) as { tecnologias: { id: string; modelos: { id: string }[] }[] }).tecnologias;
  const known = tecnologias.flatMap((t) => [t.id, ...t.modelos.map((m) => m.id)]);
  const rep = missingRoutes(specRoutes(fs.readFileSync(spec, 'utf8')), JSON.parse(fs.readFileSync(table, 'utf8')), known);
  console.log(formatReport(rep));
}
