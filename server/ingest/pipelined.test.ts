// One-round-trip transactions against a real PostgreSQL: the COPY's data sent behind the query, the statements
// after it run, and a failure anywhere (before the COPY, inside it, after it) rejects with the server's error,
// writes nothing and leaves the connection usable.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, defaultDatabaseUrl } from './testing/db.ts';
import { pipelined } from './pipelined.ts';

let db: { url: string; drop: () => Promise<void> };
let client: pg.Client;
const count = async () => Number((await client.query('SELECT count(*) n FROM t')).rows[0].n);
/** The error a pipelined call fails with (the test fails if it succeeds). */
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('deveria ter falhado'); }, (e: unknown) => e as { code: string });
const rows = (n: number, from = 1) => Buffer.from(Array.from({ length: n }, (_, i) => `${from + i}\tlinha ${from + i}\n`).join(''));

beforeAll(async () => {
  db = await createDatabase(inject('databaseUrl') ?? defaultDatabaseUrl(), `ingest_pipelined_${process.pid}`);
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('CREATE TABLE t (a int PRIMARY KEY, b text); CREATE TABLE log (n int)');
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

describe('pipelined transaction', () => {
  it('runs BEGIN, the COPY with its data, the statements after it and COMMIT in order, with their tags', async () => {
    const tags = await pipelined(client, 'BEGIN; COPY t (a, b) FROM STDIN; INSERT INTO log SELECT count(*) FROM t; COMMIT', rows(3000));
    expect(tags).toEqual(['BEGIN', 'COPY 3000', 'INSERT 0 1', 'COMMIT']);
    expect(await count()).toBe(3000);
    // The INSERT after the COPY saw the copied rows: it ran after the data was read.
    expect((await client.query('SELECT n FROM log')).rows).toEqual([{ n: 3000 }]);
    expect((await client.query(`SELECT b FROM t WHERE a = 2999`)).rows[0].b).toBe('linha 2999');
  });

  it('a duplicate inside the COPY: rejected with 23505, nothing written, the connection still answers', async () => {
    const err = await failure(pipelined(client, 'BEGIN; COPY t (a, b) FROM STDIN; INSERT INTO log VALUES (-1); COMMIT', rows(10, 2995)));
    expect(err.code).toBe('23505');
    await client.query('ROLLBACK');
    expect(await count()).toBe(3000);
    expect((await client.query('SELECT count(*)::int n FROM log WHERE n = -1')).rows[0].n).toBe(0);
  });

  it('a failure before the COPY: the data still on the wire is ignored by the server', async () => {
    const err = await failure(pipelined(client, 'BEGIN; SELECT 1/0; COPY t (a, b) FROM STDIN; COMMIT', rows(500, 5000)));
    expect(err.code).toBe('22012');
    await client.query('ROLLBACK');
    expect(await count()).toBe(3000);
    // Nothing of the ignored CopyData leaks into the next query.
    expect((await client.query('SELECT 42 AS v')).rows).toEqual([{ v: 42 }]);
  });

  it('a failure after the COPY rolls the copied rows back', async () => {
    const err = await failure(pipelined(client, `BEGIN; COPY t (a, b) FROM STDIN; INSERT INTO log VALUES ('x'); COMMIT`, rows(100, 9000)));
    expect(err.code).toBe('22P02');
    await client.query('ROLLBACK');
    expect(await count()).toBe(3000);
  });

  it('without COPY data: plain statements in one round trip', async () => {
    expect(await pipelined(client, 'BEGIN; DELETE FROM log; COMMIT')).toEqual(['BEGIN', 'DELETE 1', 'COMMIT']);
  });
});
