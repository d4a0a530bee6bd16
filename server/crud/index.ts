// The CRUD core, split along its seams:
//   protocol.ts  ra-data-simple-rest parsing (filter/sort/range/id/body) and the paged answer
//   query.ts     serialization of ORM rows and the visible row before a write (reads: server/read/)
//   write.ts     body validation, references, uniqueness, driver errors
//   history.ts   change history
//   routes.ts    the routes of one entity (crudRoutes)
//   provider.ts  resources whose rows come from code (providers), on the same protocol and query part
export { MAX_PAGE, parseId, parseJson, parseRange, parseSort, readBody, sendPage } from './protocol.ts';
export { findVisible, serialize } from './query.ts';
export { parseFilter } from '../read/index.ts';
export { mapDbError } from './write.ts';
export { crudRoutes, crudRoutes as default } from './routes.ts';
