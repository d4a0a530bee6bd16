import type { HttpError } from 'react-admin';
import type { EntityMeta } from '../../../../shared/model';

// Server field errors; a 409 on a unique field lands on that field too.
export function fieldErrorsOf(e: unknown, entity: EntityMeta): Record<string, string> {
  const he = e as HttpError;
  const errs = (he?.body?.errors as Record<string, string>) ?? {};
  if (Object.keys(errs).length || he?.status !== 409) return errs;
  const f = entity.fields.find((x) => x.unique && he.message?.includes(x.label));
  return f ? { [f.name]: he.message } : {};
}
