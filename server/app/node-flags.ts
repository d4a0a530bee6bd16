// Node flags of the server process. `npm start` writes them in its script (package.json; a unit test keeps the two
// equal); tests and benchmarks that start server/main.ts in a child process take them from here.
//
// --experimental-async-context-frame: AsyncLocalStorage (the request's company, server/db/rls.ts) on context frames
// instead of promise hooks — Node 24's default; on Node 22 promise hooks cost every promise of every request
// (≈ 10 % of an API read's CPU, bench:api).
export const SERVER_NODE_FLAGS = ['--experimental-async-context-frame'];

/** Node arguments running a TypeScript entry of the server as `npm start` does. */
export const serverNodeArgs = (entry = 'server/main.ts') => [...SERVER_NODE_FLAGS, '--import', 'tsx', entry];
