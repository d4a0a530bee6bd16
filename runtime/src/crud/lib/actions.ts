// Headless helpers of the entity actions (metadata actions).
import type { JSONSchema7 } from 'json-schema';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';

/** True when the record may show the action (metadata visibleWhen: field → allowed values). */
export function matches(record: Record<string, unknown> | undefined, when?: Record<string, unknown>) {
  if (!when || !record) return true;
  return Object.entries(when).every(([k, v]) => (Array.isArray(v) ? v.includes(record[k]) : record[k] === v));
}

/** True when the action asks for a payload (a form in its 'ATENÇÃO' dialog). */
/** (A guard's typed confirmation travels in the payload but is asked by the guard's dialog, not by a form.) */
export const hasPayload = (a: ActionMeta) => Object.keys(((a.payload as JSONSchema7 | undefined)?.properties) ?? {})
  .filter((k) => !(a.guard?.typed && k === 'confirmacao')).length > 0;

/** Upper case, letters and digits only (the server's rule, server/crud/guard.ts): 'mov-1a23' types 'MOV1A23'. */
export const typedForm = (v: unknown) => String(v ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');

/** A latest-state row of a guard's provider (e.g. ultimo_estado). */
export interface GuardRow { serial?: string; velocidade?: number | null; ignicao?: boolean | null; ultimaComunicacao?: string | null; motoristaNome?: string | null }

/** The row's state for the dialog: the highest speed of its devices, the latest communication, the ignition then. */
export function guardState(rows: GuardRow[], guard: NonNullable<ActionMeta['guard']>) {
  const speeds = rows.map((r) => r.velocidade).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const speed = speeds.length ? Math.max(...speeds) : null;
  const latest = [...rows].filter((r) => r.ultimaComunicacao).sort((a, b) => String(b.ultimaComunicacao).localeCompare(String(a.ultimaComunicacao)))[0];
  const limit = guard.speedAbove ?? 0;
  return {
    speed,
    moving: speed != null && speed > limit,
    /** typed confirmation needed: moving above the guard's limit */
    mustType: !!guard.typed && guard.speedAbove != null && speed != null && speed > guard.speedAbove,
    ultimaComunicacao: latest?.ultimaComunicacao ?? null,
    ignicao: latest ? latest.ignicao ?? null : null,
    motorista: latest?.motoristaNome ?? null,
  };
}

/** How a record is named in the dialog and the outcome: its representation, and the guard's typed field (the plate). */
export function recordName(entity: Pick<EntityMeta, 'recordRepresentation'>, action: ActionMeta, record: Record<string, unknown>): string {
  const main = String(record[entity.recordRepresentation] ?? record.id ?? '');
  const typed = action.guard?.typed && record[action.guard.typed];
  return typed ? `${main} (${String(typed)})` : main;
}

/** The action's confirm text with `{field}` replaced by the record's value as the list shows it: a reference's
 *  label (`_labels`), an enum's option label, a date as DD/MM/AAAA; '—' when empty. */
export function confirmText(entity: Pick<EntityMeta, 'fields'>, action: Pick<ActionMeta, 'confirm'>, record: Record<string, unknown>): string {
  const text = action.confirm ?? 'Deseja continuar a requisição?';
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => {
    const field = entity.fields.find((f) => f.name === name);
    if (!field) return all;
    const label = (record._labels as Record<string, unknown> | undefined)?.[name];
    const v = label ?? record[name];
    if (v == null || v === '') return '—';
    const option = field.options?.find((o) => o.value === v);
    if (option) return option.label;
    if (field.type === 'date' && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) return `${v.slice(8, 10)}/${v.slice(5, 7)}/${v.slice(0, 4)}`;
    return String(v);
  });
}

/** The notification after an action on one record: for queued commands (rows with a serial and an event) which
 *  devices got it, or the handler's own `resumo` of what it did; other answers (e.g. links ended) keep the plain text. */
export function actionOutcome(action: Pick<ActionMeta, 'label'>, name: string, answer: unknown): string {
  const resumos = Array.isArray(answer) ? answer.map((r) => (r as { resumo?: unknown })?.resumo).filter((r): r is string => typeof r === 'string' && !!r) : [];
  if (resumos.length) return `${action.label} — ${name}: ${resumos.join('; ')}`;
  const commands = Array.isArray(answer) ? answer.filter((r) => (r as { serial?: unknown; event?: unknown })?.serial != null && (r as { event?: unknown }).event != null) : [];
  const serials = [...new Set(commands.map((r) => String((r as { serial: unknown }).serial)))];
  if (!serials.length) return 'Ação executada';
  return `${action.label} — ${name}: comando enfileirado para ${serials.length === 1 ? 'o equipamento' : 'os equipamentos'} ${serials.join(', ')}`;
}
