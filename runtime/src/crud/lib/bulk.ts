// Headless helpers of the list's bulk actions (BulkActions.tsx, ActionConfirm).
import type { Identifier } from 'react-admin';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';
import type { BulkResult } from '../../api/dataProvider';

/** The bulk actions the caller's keys allow. */
export const bulkActions = (entity: EntityMeta, can: (key: string) => boolean) => entity.actions.filter((a) => a.bulk && can(a.permission));

/** The notification of a bulk run: how many rows went through, then each refused row with its reason. */
export function bulkOutcome(action: Pick<ActionMeta, 'label'>, results: BulkResult[], name: (id: Identifier) => string): string {
  const done = results.filter((r) => r.status < 300).length;
  const refused = results.filter((r) => r.status >= 300);
  // queued commands (answers with serials): which devices of which row got them
  const sent = results.filter((r) => r.status < 300 && Array.isArray(r.payload)).map((r) => {
    const serials = [...new Set((r.payload as { serial?: unknown; event?: unknown }[]).filter((x) => x?.serial != null && x.event != null).map((x) => String(x.serial)))];
    return serials.length ? `${name(r.id)}: ${serials.length === 1 ? 'equipamento' : 'equipamentos'} ${serials.join(', ')}` : null;
  }).filter(Boolean);
  const parts = [`${done} ${done === 1 ? 'executado' : 'executados'}${sent.length ? ` (${sent.join('; ')})` : ''}`];
  if (refused.length) {
    parts.push(`${refused.length} ${refused.length === 1 ? 'recusado' : 'recusados'}: ${refused.map((r) => `${name(r.id)}: ${r.msg ?? `erro ${r.status}`}`).join('; ')}`);
  }
  return `${action.label}: ${parts.join(', ')}`;
}

/** The new selection when the header box toggles the page's rows (others' selection kept). */
export function toggledPage(selected: Identifier[], page: Identifier[]): Identifier[] {
  const all = page.length > 0 && page.every((id) => selected.includes(id));
  return all ? selected.filter((id) => !page.includes(id)) : [...new Set([...selected, ...page])];
}
