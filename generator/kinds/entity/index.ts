// The entity kind (metadata files without `kind`, or `kind: entidade`; metadata/_schema/entity.schema.json):
// a register with its CRUD API, screens and permission keys. Normalisation by concern: fields.ts (fields, form),
// columns.ts (list), actions.ts (actions, keys), routing.ts (aliases, route parameters), rules.ts, pickers.ts,
// tabs.ts (record pages; one table of tab kinds). Checks across entities run in generator/normalize.ts.
import { basename } from 'node:path';
import type { EntityMeta } from '../../../shared/model.ts';
import type { Err, KindModule } from '../types.ts';
import { entityActions, entityPermissionKeys, markStateFields } from './actions.ts';
import { entityList } from './columns.ts';
import { entityFields, formSections } from './fields.ts';
import { pickers } from './pickers.ts';
import type { RawEntity } from './raw.ts';
import { checkAliases, routeParams } from './routing.ts';
import { compare, rules } from './rules.ts';
import { withTabKinds } from './tabs.ts';

export function normalizeEntity(raw: RawEntity, file: string, area: string, err: Err): EntityMeta {
  const { declared, fields, byName, known } = entityFields(raw, err);
  markStateFields(raw, fields);
  const { columns, recordRepresentation, search, sort } = entityList(raw, declared, byName, known, err);
  const sections = formSections(raw, declared, known, err);
  const actions = entityActions(raw, known, err);
  const readOnlyResource = raw.readOnlyResource ?? false;
  const perms = entityPermissionKeys(raw, err);
  const expectedKey = basename(file).replace(/\.ya?ml$/, '');
  if (raw.key !== expectedKey) err('/key', `deve ser igual ao nome do arquivo (${expectedKey})`);
  if (!area) err('', 'o arquivo deve estar numa pasta de área (adm/, tlm/, cfg/ ...)');

  const entity: EntityMeta = {
    key: raw.key, table: raw.table, file, area, label: raw.label, route: raw.route, permission: raw.permission,
    scope: raw.scope, fields, columns, search, sort, form: { sections }, actions,
    permissions: perms.map((p) => ({ key: `${raw.permission}.${p.key}`, label: `${raw.label.plural}: ${p.label}` })),
    readOnlyResource, history: raw.history ?? true, recordRepresentation,
  };
  if (raw.dateRange) entity.dateRange = raw.dateRange;
  if (raw.listTabs) entity.listTabs = { group: raw.listTabs.group, order: raw.listTabs.order, label: raw.listTabs.label ?? raw.label.plural };
  if (raw.importable) {
    if (raw.scope !== 'empresa') err('/importable', 'importable exige scope: empresa');
    if (readOnlyResource) err('/importable', 'cadastro somente leitura não pode ser importado');
    entity.importable = true;
  }
  if (raw.credentials) {
    if (raw.importable) err('/importable', 'cadastro de credenciais (credentials) não pode ser importado');
    entity.credentials = true;
  }
  if (raw.owner) {
    const f = byName.get(raw.owner);
    if (raw.scope !== 'empresa') err('/owner', 'owner exige scope: empresa');
    if (!f || f.type !== 'reference' || f.reference !== 'usuario' || !f.readOnly) err('/owner', `owner deve ser um campo reference a usuario com readOnly: ${raw.owner}`);
    entity.owner = raw.owner;
  }
  if (raw.aliases) {
    checkAliases(raw, byName, err);
    entity.aliases = raw.aliases;
  }
  if (raw.menu) entity.menu = raw.menu;
  if (raw.listScreen) {
    if (raw.params) err('/listScreen', 'listScreen e params não podem ser usados juntos');
    if (raw.menu) err('/listScreen', 'a lista é da tela: o menu também');
    entity.listScreen = raw.listScreen;
  }
  if (raw.calls) entity.calls = raw.calls;
  if (raw.hook) {
    if (readOnlyResource) err('/hook', 'cadastro somente leitura não tem escrita: hook não se aplica');
    entity.hook = raw.hook;
  }
  routeParams(raw, entity, byName, err);
  if (raw.rules) entity.rules = rules(raw.rules, byName, err);
  if (raw.compare) entity.compare = compare(raw.compare, byName, err);
  pickers(raw, entity, known, err);
  if (raw.companies) {
    if (raw.scope !== 'ambiente') err('/companies', 'companies exige scope: ambiente');
    entity.companies = raw.companies;
  }
  if (raw.platform) {
    const ops = new Set(perms.map((p) => p.key));
    raw.platform.operations.forEach((op, i) => { if (!ops.has(op)) err(`/platform/operations/${i}`, `operação desconhecida: ${op}`); });
    entity.platform = { key: raw.platform.key, gated: raw.platform.operations.map((op) => `${raw.permission}.${op}`) };
  }
  return entity;
}

export const entityKind: KindModule<EntityMeta, RawEntity> = {
  kind: 'entidade',
  schema: 'entity.schema.json',
  withSchema: withTabKinds,
  modelKey: 'entities',
  normalize: (raw, src, err) => normalizeEntity(raw, src.file, src.area, err),
};
