// Row actions (set or handler) and the entity's permission keys: CRUD, declared extras, one per action.
import type { ActionMeta, FieldMeta } from '../../../shared/model.ts';
import type { Err } from '../types.ts';
import type { Known, RawEntity } from './raw.ts';

export const CRUD_PERMISSIONS = [
  { key: 'lista', label: 'Listar' },
  { key: 'visualizar', label: 'Visualizar' },
  { key: 'adicionar', label: 'Adicionar' },
  { key: 'editar', label: 'Editar' },
  { key: 'excluir', label: 'Excluir' },
];

export function entityActions(raw: RawEntity, known: Known, err: Err): ActionMeta[] {
  return (raw.actions ?? []).map((a, i) => {
    for (const k of Object.keys(a.set ?? {})) known(k, `/actions/${i}/set/${k}`);
    for (const k of Object.keys(a.visibleWhen ?? {})) known(k, `/actions/${i}/visibleWhen/${k}`);
    (a.sets ?? []).forEach((k, j) => known(k, `/actions/${i}/sets/${j}`));
    if (a.sets !== undefined && !a.handler) err(`/actions/${i}/sets`, 'sets exige handler (uma ação set já diz o que muda)');
    // A permission named by the action must be one of the entity's declared extras (it then adds no key of its own).
    if (a.permission !== undefined && !(raw.permissions ?? []).some((p) => p.key === a.permission)) {
      err(`/actions/${i}/permission`, `permissão não declarada em permissions: ${a.permission}`);
    }
    if (a.payload !== undefined && a.payload.type !== 'object') err(`/actions/${i}/payload`, 'o payload deve ser um JSON Schema com type: object');
    if (a.payload !== undefined && !a.handler) err(`/actions/${i}/payload`, 'payload exige handler');
    const out: ActionMeta = { name: a.name, label: a.label, permission: `${raw.permission}.${a.permission ?? a.name}`, bulk: a.bulk ?? false };
    if (a.set !== undefined) out.set = a.set;
    if (a.handler !== undefined) out.handler = a.handler;
    if (a.sets !== undefined) out.sets = a.sets;
    if (a.payload !== undefined) out.payload = a.payload;
    if (a.confirm !== undefined) out.confirm = a.confirm;
    if (a.description !== undefined) out.description = a.description;
    if (a.visibleWhen !== undefined) out.visibleWhen = a.visibleWhen;
    if (a.guard !== undefined) {
      if (a.guard.typed !== undefined) known(a.guard.typed, `/actions/${i}/guard/typed`);
      // the typed confirmation travels in the payload: the schema must take it
      const props = (a.payload?.properties ?? {}) as Record<string, unknown>;
      if (a.guard.typed !== undefined && !props.confirmacao) err(`/actions/${i}/guard`, 'guard.typed exige a propriedade confirmacao no payload');
      if ((a.guard.typed === undefined) !== (a.guard.speedAbove === undefined)) err(`/actions/${i}/guard`, 'guard: typed e speedAbove andam juntos');
      out.guard = a.guard;
    }
    return out;
  });
}

/** State fields (spec section 4): a field an action changes (its `set`, or `sets` of a handler) changes only
 *  through its actions: read-only for writes, with the labels of those actions (FieldMeta.setBy). */
export function markStateFields(raw: RawEntity, fields: FieldMeta[]): void {
  for (const a of raw.actions ?? []) {
    for (const k of [...Object.keys(a.set ?? {}), ...(a.sets ?? [])]) {
      const f = fields.find((x) => x.name === k);
      if (!f || f.system) continue;
      f.readOnly = true;
      if (!(f.setBy ??= []).includes(a.label)) f.setBy.push(a.label);
    }
  }
}

/** Keys below the entity's prefix (without it): CRUD (lista/visualizar only when read-only), extras, actions. */
export function entityPermissionKeys(raw: RawEntity, err: Err): { key: string; label: string }[] {
  const readOnlyResource = raw.readOnlyResource ?? false;
  const crud = CRUD_PERMISSIONS.filter((p) => !readOnlyResource || p.key === 'lista' || p.key === 'visualizar');
  const perms = [...crud, ...(raw.permissions ?? []), ...(raw.actions ?? []).filter((a) => !a.permission).map((a) => ({ key: a.name, label: a.label }))];
  const seen = new Set<string>();
  perms.forEach((p) => {
    if (seen.has(p.key)) err('/permissions', `permissão repetida: ${raw.permission}.${p.key}`);
    seen.add(p.key);
  });
  return perms;
}
