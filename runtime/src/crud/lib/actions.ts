// Headless helpers of the entity actions (metadata actions).
import type { JSONSchema7 } from 'json-schema';
import type { ActionMeta } from '../../../../shared/model';

/** True when the record may show the action (metadata visibleWhen: field → allowed values). */
export function matches(record: Record<string, unknown> | undefined, when?: Record<string, unknown>) {
  if (!when || !record) return true;
  return Object.entries(when).every(([k, v]) => (Array.isArray(v) ? v.includes(record[k]) : record[k] === v));
}

/** True when the action asks for a payload (a form in its 'ATENÇÃO' dialog). */
export const hasPayload = (a: ActionMeta) => Object.keys(((a.payload as JSONSchema7 | undefined)?.properties) ?? {}).length > 0;
