// The read engine (server/read/): one planner for every read of the model's rows.
export { LABELS, jsonValue, visibleFields, planPage, readPage, readOne, readOptions, readFields, readBatches, checkQuery, type Row, type ReadQuery } from './engine.ts';
export { parseFilter, parseSort, whereSql, scopeSql, coerce, escapeLike, fieldOf, isText, pgParams, type Params, type Where, type Order } from './where.ts';
export { computedColumns, computedField, type Computed } from './computed.ts';
