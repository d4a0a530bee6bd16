// The kinds of record-page tabs (metadata `record.tabs`, TabMeta.kind). The generator registers each once
// (generator/kinds/entity/tabs.ts `tabKinds`); the runtime renders each from a map typed Record<TabKind, …>.
import type { TabMeta } from './model.ts';

export type TabKind = TabMeta['kind'];

/** In the order the generator tries them (a tab declares exactly one). */
export const TAB_KINDS = ['form', 'list', 'provider', 'screen', 'action', 'delete', 'route', 'group'] as const satisfies readonly TabKind[];

// Every kind of TabMeta is listed above (the type check fails otherwise).
const allListed: Exclude<TabKind, (typeof TAB_KINDS)[number]> extends never ? true : false = true;
void allListed;
