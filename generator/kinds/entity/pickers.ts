// How a list or another register picks rows of this entity: the list panel's select, and the picker
// (server search, grouped by a reference or flat).
import type { EntityMeta } from '../../../shared/model.ts';
import type { Err } from '../types.ts';
import type { Known, RawEntity } from './raw.ts';

export function pickers(raw: RawEntity, entity: EntityMeta, known: Known, err: Err): void {
  const search = entity.search;
  if (raw.list?.select) {
    const f = known(raw.list.select.field, '/list/select/field');
    if (f && !['enum', 'reference'].includes(f.type) && !f.lookup) err('/list/select/field', `o seletor da lista exige campo enum, reference ou com lookup: ${f.name}`);
    if (f?.lookup?.parent) err('/list/select/field', `o seletor da lista não aceita lookup com parent: ${f.name}`);
    else if (f?.hidden) err('/list/select/field', `campo oculto: ${f.name}`);
    entity.listSelect = raw.list.select.field;
  }
  if (raw.list?.refreshOn) entity.listRefreshOn = raw.list.refreshOn;
  if (raw.picker) {
    const g = known(raw.picker.groupBy, '/picker/groupBy');
    if (g && g.type !== 'reference') err('/picker/groupBy', `deve ser um campo reference: ${raw.picker.groupBy}`);
    if (raw.picker.secondLabel) known(raw.picker.secondLabel, '/picker/secondLabel');
    if (!search.length) err('/picker', 'picker exige campos de busca (search)');
    entity.picker = raw.picker;
  }
}
