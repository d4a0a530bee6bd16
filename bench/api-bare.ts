// The floor for npm run bench:api: node:http + pg, no framework, running the SQL the generated API runs for
// GET /api/ativo (25 sorted by placa, with the total) and GET /api/ativo/{id} (with the company check), for one
// fixed company, plus the computed columns' query when the model declares them. Env: DATABASE_URL, PORT,
// BARE_EMPRESA. Answers the same JSON shape and Content-Range.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { Ativo } from '../server/generated/entities/ativo.ts';

const empresa = Number(process.env.BARE_EMPRESA);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

// Columns as the API answers them (camelCase keys, references as ids).
const props = Object.entries(Ativo.meta.properties as Record<string, { fieldName?: string; fieldNames?: string[]; name?: string }>);
const cols = props.map(([name, p]) => `"${p.fieldName ?? p.fieldNames?.[0] ?? name}" as "${name}"`).join(', ');
const LIST = `select ${cols} from "ativo" where "empresa_id" = $1 order by "placa" asc, "id" asc limit $2 offset $3`;
const COUNT = 'select count(*)::int as "count" from "ativo" where "empresa_id" = $1';
const ONE = `select ${cols} from "ativo" where "id" = $1 and "empresa_id" = $2 limit 1`;

// Computed columns of the model (metadata `sql`), one query per answer as server/crud/computed.ts does.
const model = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../server/generated/model.json'), 'utf8'));
const computed = ((model.entities.find((x: { key: string }) => x.key === 'ativo')?.columns ?? []) as { source: string; virtual?: boolean; sql?: string; tables?: string[] }[])
  .filter((c) => c.virtual && c.sql);
let usable: typeof computed | undefined;
async function addComputed(rows: Record<string, unknown>[]): Promise<void> {
  if (!computed.length || !rows.length) return;
  if (!usable) {
    usable = [];
    for (const c of computed) {
      let ok = true;
      for (const t of c.tables ?? []) ok &&= !!(await pool.query('select to_regclass($1) is not null as ok', [t])).rows[0].ok;
      if (ok) usable.push(c);
    }
  }
  for (const r of rows) for (const c of computed) r[c.source] = null;
  if (!usable.length) return;
  const select = usable.map((c) => `${c.sql!.replaceAll('{this}', 't')} as "${c.source}"`).join(', ');
  const out = await pool.query(`select t.id, ${select} from "ativo" t where t.id = any($1::bigint[])`, [rows.map((r) => r.id)]);
  const byId = new Map(out.rows.map((r) => [Number(r.id), r]));
  for (const r of rows) { const v = byId.get(Number(r.id)); if (v) for (const c of usable) r[c.source] = v[c.source] ?? null; }
}

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const s = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(s), ...headers });
  res.end(s);
};

http.createServer(async (req, res) => {
  try {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/api/ativo') {
      const [a, b] = JSON.parse(u.searchParams.get('range') ?? '[0,24]') as [number, number];
      const [rows, count] = await Promise.all([pool.query(LIST, [empresa, b - a + 1, a]), pool.query(COUNT, [empresa])]);
      const total = count.rows[0].count as number;
      await addComputed(rows.rows);
      return send(res, 200, rows.rows, { 'content-range': `ativo ${a}-${a + rows.rows.length - 1}/${total}` });
    }
    const m = /^\/api\/ativo\/(\d+)$/.exec(u.pathname);
    if (m) {
      const r = await pool.query(ONE, [Number(m[1]), empresa]);
      await addComputed(r.rows);
      return r.rows[0] ? send(res, 200, r.rows[0]) : send(res, 404, { status: 404, msg: 'Registro não encontrado' });
    }
    send(res, 404, { status: 404, msg: 'Rota não encontrada' });
  } catch (err) {
    send(res, 500, { status: 500, msg: String(err) });
  }
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
