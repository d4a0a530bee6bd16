// Three-state column sorting of the shared table (spec section 2): a click sorts by the column in its
// default order, the next click reverses it, the third removes the sort (registration order, by id).
export interface Sort { field: string; order: 'ASC' | 'DESC' }

export const UNSORTED: Sort = { field: 'id', order: 'ASC' };

export function nextSort(current: Sort | undefined, field: string, defaultOrder: 'ASC' | 'DESC' = 'ASC'): Sort {
  if (!current || current.field !== field) return { field, order: defaultOrder };
  if (current.order === defaultOrder) return { field, order: defaultOrder === 'ASC' ? 'DESC' : 'ASC' };
  return UNSORTED;
}
