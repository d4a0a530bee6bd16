// Checks across entities (after every file is normalised): unique keys, references and lookups, nested lists
// (parent), companies paths, platform keys, named-call bases.
import { problem } from '../../errors.ts';
import type { LoadedMetadata } from '../../load.ts';
import type { EntityMeta } from '../../../shared/model.ts';
import { AMBIENTE, COMPANY, expandScope, tablesRead } from '../../../shared/scope-sql.ts';
import { lookupProblems } from './fields.ts';
import type { RawEntity } from './raw.ts';

/** key, table, route and permission prefix are each used once. */
export function uniqueEntities(entities: EntityMeta[], problems: string[]): void {
  const unique = (what: string, get: (e: EntityMeta) => string, path: string) => {
    const seen = new Map<string, EntityMeta>();
    for (const e of entities) {
      const v = get(e);
      const other = seen.get(v);
      if (other) problems.push(problem(e.file, path, `${what} "${v}" já usado em ${other.file}`));
      else seen.set(v, e);
    }
  };
  unique('key', (e) => e.key, '/key');
  unique('table', (e) => e.table, '/table');
  unique('route', (e) => e.route, '/route');
  unique('permission', (e) => e.permission, '/permission');
}

/** References and their pick labels, lookups and menu groups. */
export function linkReferences(entities: EntityMeta[], byKey: Map<string, EntityMeta>, groups: Set<string>, menuFile: string, problems: string[]): void {
  const byTable = new Map([...byKey.values()].map((t) => [t.table, t]));
  for (const e of entities) {
    const declared = e.fields.filter((f) => !f.system);
    for (const f of e.fields) {
      if (!f.reference) continue;
      const i = declared.indexOf(f);
      const path = f.system ? '/scope' : `/fields/${i}/reference`;
      if (!byKey.has(f.reference)) problems.push(problem(e.file, path, `entidade referenciada desconhecida: ${f.reference}`));
      for (const [theirs, mine] of Object.entries(f.narrow ?? {})) {
        if (byKey.has(f.reference) && !byKey.get(f.reference)!.fields.some((x) => x.name === theirs && !x.hidden))
          problems.push(problem(e.file, `/fields/${i}/narrow`, `campo desconhecido em ${f.reference}: ${theirs}`));
        if (!e.fields.some((x) => x.name === mine && !x.hidden)) problems.push(problem(e.file, `/fields/${i}/narrow`, `campo desconhecido em ${e.key}: ${mine}`));
      }
      const second = f.pick?.secondLabel;
      if (second && byKey.has(f.reference) && !byKey.get(f.reference)!.fields.some((x) => x.name === second && !x.hidden))
        problems.push(problem(e.file, `/fields/${i}/pick/secondLabel`, `campo desconhecido em ${f.reference}: ${second}`));
    }
    fromColumns(e, byKey, problems);
    // {scope:x} compares x's tenant column with the row's: x's table must have it (usuario has no empresa_id)
    e.columns.forEach((c, i) => {
      for (const t of c.sql ? tablesRead(c.sql) : []) {
        const target = byTable.get(t.table);
        const column = e.scope === 'ambiente' ? AMBIENTE : COMPANY;
        if (t.alias && target && target.scope !== e.scope && c.sql!.includes(`${t.alias}.${column}`))
          problems.push(problem(e.file, `/list/columns/${i}/sql`, `{scope:${t.alias}}: a tabela ${t.table} não tem a coluna ${column} (cadastro por ${target.scope})`));
      }
    });
    e.fields.forEach((f) => { if (f.lookup) for (const msg of lookupProblems(e, f, byKey)) problems.push(problem(e.file, `/fields/${declared.indexOf(f)}/lookup`, msg)); });
    if (e.menu && !groups.has(e.menu.group))
      problems.push(problem(e.file, '/menu/group', `grupo de menu desconhecido: ${e.menu.group} (veja ${menuFile})`));
  }
}

/** Virtual columns `from: reference.field` become a scalar subselect of the referenced row, in the row's company
 *  (a register without company: as it is). The referenced register must share the row's scope or be global. */
function fromColumns(e: EntityMeta, byKey: Map<string, EntityMeta>, problems: string[]): void {
  e.columns.forEach((c, i) => {
    if (!c.from) return;
    const bad = (msg: string) => problems.push(problem(e.file, `/list/columns/${i}/from`, msg));
    const [refName, targetName] = c.from.split('.');
    const ref = e.fields.find((f) => f.name === refName && f.type === 'reference');
    const target = ref?.reference ? byKey.get(ref.reference) : undefined;
    if (!ref || !target) return; // reported by entityList / the reference check
    const tf = target.fields.find((f) => f.name === targetName);
    const id = target.fields.find((f) => f.name === 'id');
    if (!tf || !id) return bad(`campo desconhecido em ${target.key}: ${targetName}`);
    if (tf.hidden || tf.writeOnly || tf.type === 'password') return bad(`campo oculto de ${target.key}: ${targetName}`);
    if (target.scope !== 'global' && target.scope !== e.scope) return bad(`${target.key} é um cadastro por ${target.scope}, esta entidade por ${e.scope}`);
    const scope = target.scope === 'global' ? '' : ' AND {scope:r}';
    c.sql = expandScope(`(SELECT r.${tf.column} FROM ${target.table} r WHERE r.${id.column} = {this}.${ref.column}${scope})`, e.scope);
  });
}

/** Nested lists: the parent exists, shares the company scope, and its `by` field matches this entity's `field`. */
export function linkParents(meta: LoadedMetadata, byKey: Map<string, EntityMeta>, taken: Map<string, string>, problems: string[]): void {
  for (const src of meta.entities) {
    const raw = (src.data as RawEntity).parent;
    if (!raw) continue;
    const e = byKey.get((src.data as RawEntity).key)!;
    const bad = (path: string, msg: string) => problems.push(problem(e.file, `/parent${path}`, msg));
    const parent = byKey.get(raw.entity);
    const by = raw.by ?? 'id';
    const f = e.fields.find((x) => x.name === raw.field && !x.system);
    if (!parent) { bad('/entity', `entidade desconhecida: ${raw.entity}`); continue; }
    if (parent.scope !== e.scope) bad('/entity', `escopo diferente do pai (${parent.scope})`);
    const pf = parent.fields.find((x) => x.name === by);
    if (!pf) { bad('/by', `campo desconhecido em ${parent.key}: ${by}`); continue; }
    if (!f) { bad('/field', `campo desconhecido: ${raw.field}`); continue; }
    // by a unique field: the child holds that value, or a reference to the parent (refId: filtered by the parent's id)
    const refId = by !== 'id' && f.type === 'reference' && f.reference === parent.key;
    if (by === 'id' ? !(f.type === 'reference' && f.reference === parent.key) : !refId && f.type !== pf.type) {
      bad('/field', by === 'id' ? `deve ser um campo reference para ${parent.key}` : `tipo diferente de ${parent.key}.${by} (${pf.type})`);
    }
    if (by !== 'id' && !pf.unique) bad('/by', `${parent.key}.${by} deve ser unique`);
    // Below the parent's record page, wherever it lives (record.path).
    const parentBase = (meta.entities.find((m) => (m.data as RawEntity).key === parent.key)?.data as RawEntity | undefined)?.record?.path ?? parent.route;
    const route = `${parentBase}/:${by}/${raw.path ?? e.key}`;
    const other = taken.get(`route:${route}`);
    if (other) bad('/path', `route "${route}" já usado em ${other}`);
    taken.set(`route:${route}`, e.file);
    e.parent = { entity: parent.key, field: raw.field, by, permission: parent.permission, route, api: `${parent.key}/:parent/${e.key}`, ...(refId ? { refId } : {}) };
  }
}

/** companies paths: 'id' on empresa, a reference(List) to empresa, or reference.path through an entity with companies. */
export function linkCompanies(entities: EntityMeta[], byKey: Map<string, EntityMeta>, problems: string[]): void {
  for (const e of entities) {
    if (!e.companies) continue;
    const [head, rest] = e.companies.split('.');
    const f = e.fields.find((x) => x.name === head);
    const bad = (msg: string) => problems.push(problem(e.file, '/companies', msg));
    if (!rest) {
      if (head === 'id' ? e.key !== 'empresa' : !f || !['reference', 'referenceList'].includes(f.type) || f.reference !== 'empresa') bad(`deve ser id (na entidade empresa) ou um campo reference/referenceList para empresa: ${e.companies}`);
    } else {
      const target = f?.type === 'reference' && f.reference ? byKey.get(f.reference) : undefined;
      if (!target) bad(`${head} deve ser um campo reference`);
      else if (target.companies !== rest) bad(`${f!.reference} deve declarar companies: ${rest}`);
    }
  }
}

/** Platform keys: declared on the entities they gate; one label each; outside every entity's prefix. */
export function platformKeys(meta: LoadedMetadata, byKey: Map<string, EntityMeta>, taken: Map<string, string>, problems: string[]): { key: string; label: string; gated: string[] }[] {
  const platformByKey = new Map<string, { key: string; label: string; gated: string[] }>();
  for (const src of meta.entities) {
    const raw = (src.data as RawEntity).platform;
    if (!raw) continue;
    const e = byKey.get((src.data as RawEntity).key)!;
    const p = platformByKey.get(raw.key) ?? { key: raw.key, label: '', gated: [] };
    if (raw.label) {
      if (p.label && p.label !== raw.label) problems.push(problem(src.file, '/platform/label', `rótulo diferente para ${raw.key}: ${p.label}`));
      p.label = raw.label;
    }
    p.gated.push(...(e.platform?.gated ?? []));
    platformByKey.set(raw.key, p);
  }
  for (const p of platformByKey.values()) {
    if (!p.label) problems.push(problem(meta.menu.file.replace(/_menu\.yaml$/, ''), '', `a permissão de plataforma ${p.key} precisa de label em uma das declarações`));
    if (taken.has(`perm:${p.key}`)) problems.push(problem(taken.get(`perm:${p.key}`)!, '/platform/key', `permissão de plataforma repetida: ${p.key}`));
    p.gated.sort();
  }
  return [...platformByKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Named-call bases share the API namespace with the entity keys (and the providers' paths): claimed in apiPaths. */
export function callBases(entities: EntityMeta[], apiPaths: Map<string, string>, problems: string[]): void {
  for (const e of entities) {
    if (!e.calls) continue;
    const other = apiPaths.get(e.calls) ?? [...apiPaths.keys()].find((k) => e.calls!.startsWith(`${k}/`) && !k.includes('/', 1));
    if (other) problems.push(problem(e.file, '/calls', `caminho "${e.calls}" já usado em ${apiPaths.get(other) ?? other}`));
    else apiPaths.set(e.calls, e.file);
  }}
