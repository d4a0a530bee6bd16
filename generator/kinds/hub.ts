// Hubs (metadata `kind: hub`, metadata/_schema/hub.schema.json): an index screen generated from the route table. Its members are the
// entities and screens whose route sits directly below the hub's route; the runtime shows those the
// user may open (runtime/src/crud/Hub.tsx). No component of its own: a hub is declared, never hand-written.
import { basename } from 'node:path';
import type { EntityMeta, HubMeta, RouteEntry, ScreenMeta } from '../../shared/model.ts';
import type { KindModule } from './types.ts';

export interface RawHub {
  kind: 'hub'; key: string; label: string; route: string; permission: string; permissionLabel?: string;
  menu?: { group: string; order: number; icon?: string }; help?: string;
}

export function normalizeHub(raw: RawHub, file: string, area: string, entities: EntityMeta[], screens: ScreenMeta[], err: (path: string, msg: string) => void): HubMeta {
  const expectedKey = basename(file).replace(/\.ya?ml$/, '');
  if (raw.key !== expectedKey) err('/key', `deve ser igual ao nome do arquivo (${expectedKey})`);
  if (!area) err('', 'o arquivo deve estar numa pasta de área (adm/, tlm/, cfg/ ...)');
  const below = (route: string) => route.startsWith(`${raw.route}/`) && !route.slice(raw.route.length + 1).includes('/');
  const members = [
    ...entities.filter((e) => below(e.route)).map((e) => ({ key: e.key, label: e.label.plural, route: e.route, permission: `${e.permission}.lista` })),
    ...screens.filter((t) => below(t.route)).map((t) => ({ key: t.key, label: t.label, route: t.route, permission: t.permission })),
  ].sort((a, b) => a.label.localeCompare(b.label, 'pt-BR'));
  if (!members.length) err('/route', `nenhuma entidade ou tela abaixo de ${raw.route}`);
  const hub: HubMeta = {
    key: raw.key, file, area, label: raw.label, route: raw.route, permission: raw.permission,
    permissions: [{ key: raw.permission, label: raw.permissionLabel ?? `${raw.label}: Acessar` }],
    members,
  };
  if (raw.menu) hub.menu = raw.menu;
  if (raw.help) hub.help = raw.help;
  return hub;
}

/** A hub's route: its name is its key; the runtime lists the members (view 'hub'). */
export function hubRoutes(hubs: HubMeta[]): RouteEntry[] {
  return hubs.map((h) => ({ path: h.route, name: h.permission, hub: h.key, view: 'hub' }));
}

export const hubKind: KindModule<HubMeta, RawHub> = {
  kind: 'hub',
  schema: 'hub.schema.json',
  modelKey: 'hubs',
  normalize: (raw, src, err, { model }) => normalizeHub(raw, src.file, src.area, model.entities ?? [], model.screens ?? [], err),
};
