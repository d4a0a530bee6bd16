// The floor for npm run bench:api: node:http + pg, no framework, hand-written SQL, ONE statement per answer, prepared (the
// computed columns of metadata/tlm/ativo.yaml and the references' labels (`_labels`) inlined as subselects, the total joined to the page, the parent check
// of the nested list inside its statement), for one fixed company. Routes, same JSON and Content-Range as the API:
//   GET /api/ativo?filter&sort&range          list (filter: idGaragem and q over descricao, placa, numeroFrota)
//   GET /api/ativo/{id}                        by id, with the company check
//   GET /api/ativo/{id}/motorista_temporario   nested list (sort dataInicio DESC by default), 404 when the ativo is not visible
// Env: DATABASE_URL, PORT, BARE_EMPRESA; BARE_RLS=1 runs every statement as the API's company role (rastro_app, RLS on)
// instead of the tables' owner, to see what row-level security itself costs.
import http from 'node:http';
import pg from 'pg';

const empresa = Number(process.env.BARE_EMPRESA);
pg.types.setTypeParser(20, Number); // int8 (count) and numeric as numbers, as the API answers them
pg.types.setTypeParser(1700, Number);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
// Queued before any statement of a new connection (a client runs its queries in order).
if (process.env.BARE_RLS === '1') pool.on('connect', (c) => void c.query(`SET ROLE rastro_app; SET rastro.empresa = '${empresa}'`));
// Named (prepared) statements: each connection parses and plans a statement once, as the API does.
const names = new Map<string, string>();
const query = (text: string, values: unknown[]) => {
  let name = names.get(text);
  if (!name) names.set(text, (name = `bare${names.size + 1}`));
  return pool.query({ name, text, values });
};

// ativo's columns as the API answers them (camelCase keys, references as ids), then its computed columns.
const ATIVO_COLS = `t.id AS "id", t.empresa_id AS "empresaId", t.descricao AS "descricao", t.placa AS "placa", t.id_garagem AS "idGaragem",
  t.numero_frota AS "numeroFrota", t.ano AS "ano", t.cor AS "cor", t.categoria AS "categoria", t.fabricante AS "fabricante",
  t.modelo AS "modelo", t.situacao AS "situacao", t.firmware AS "firmware", t.odometro AS "odometro",
  t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;
// metadata/tlm/ativo.yaml list.columns, virtual (the same SQL, {scope:x} as x.empresa_id = t.empresa_id): the current
// driver, communication, address of the latest position and the serials linked now.
const MOTORISTA = `coalesce((SELECT m.nome FROM telemetria.ultimo_estado u JOIN motorista m ON m.id = u.motorista_id AND m.empresa_id = t.empresa_id
    WHERE u.ativo_id = t.id AND u.empresa_id = t.empresa_id ORDER BY u.ultima_comunicacao DESC LIMIT 1),
  (SELECT mt.nome FROM motorista_temporario esc JOIN motorista mt ON mt.id = esc.motorista_id AND mt.empresa_id = t.empresa_id
    WHERE esc.ativo_id = t.id AND esc.empresa_id = t.empresa_id AND esc.data_inicio <= now() AND esc.data_fim > now()
    ORDER BY esc.data_inicio DESC LIMIT 1))`;
const ULTIMA = `(SELECT max(u.ultima_comunicacao) FROM telemetria.ultimo_estado u WHERE u.ativo_id = t.id AND u.empresa_id = t.empresa_id)`;
const POSICAO = `(SELECT coalesce((SELECT g.endereco FROM telemetria.endereco g
      WHERE g.empresa_id = t.empresa_id AND g.lat_key BETWEEN k.lat_min AND k.lat_max AND g.lon_key BETWEEN k.lon_min AND k.lon_max
      ORDER BY abs(g.lat_key - k.lat_key) + abs(g.lon_key - k.lon_key), g.fonte DESC, g.lat_key, g.lon_key LIMIT 1),
    to_char(k.lat, 'FM990.000000') || ', ' || to_char(k.lon, 'FM990.000000'))
  FROM (SELECT u.lat, u.lon, round(u.lat * 1000)::int AS lat_key, round(u.lon * 1000)::int AS lon_key,
      round(u.lat * 1000)::int - 3 AS lat_min, round(u.lat * 1000)::int + 3 AS lat_max,
      round(u.lon * 1000)::int - 3 AS lon_min, round(u.lon * 1000)::int + 3 AS lon_max
    FROM telemetria.ultimo_estado u
    WHERE u.ativo_id = t.id AND u.empresa_id = t.empresa_id AND u.lat IS NOT NULL ORDER BY u.fix_time DESC NULLS LAST LIMIT 1) k)`;
const EQUIPAMENTOS = `(SELECT string_agg(ea.serial, ', ' ORDER BY ea.serial) FROM equipamento_ativo ea
  WHERE ea.ativo_id = t.id AND ea.empresa_id = t.empresa_id AND ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now()))`;
/** `_labels`: each reference's record representation, only from the company's rows (the company is $1). */
const labels = (refs: [string, string, string, string][]) =>
  `json_build_object(${refs.map(([name, col, table, rep]) => `'${name}', (SELECT l.${rep}::text FROM ${table} l WHERE l.id = t.${col} AND l.empresa_id = $1)`).join(', ')}) AS "_labels"`;
const ATIVO_LABELS = labels([['idGaragem', 'id_garagem', 'garagem', 'nome'], ['categoria', 'categoria', 'categoria_de_ativo', 'descricao'],
  ['fabricante', 'fabricante', 'fabricante_de_ativo', 'descricao'], ['modelo', 'modelo', 'modelo_de_ativo', 'descricao'],
  ['situacao', 'situacao', 'situacao_do_ativo', 'descricao']]);
const ATIVO_SELECT = `${ATIVO_COLS}, ${MOTORISTA} AS "motorista", ${ULTIMA} AS "online", ${ULTIMA} AS "ultimaComunicacao",
  ${POSICAO} AS "ultimaPosicao", ${EQUIPAMENTOS} AS "equipamentosList", ${ATIVO_LABELS}`;

const MT_COLS = `t.id AS "id", t.empresa_id AS "empresaId", t.ativo_id AS "ativoId", t.motorista_id AS "motoristaId",
  t.data_inicio AS "dataInicio", t.data_fim AS "dataFim", t.observacao AS "observacao", t.created_at AS "createdAt", t.updated_at AS "updatedAt",
  ${labels([['ativoId', 'ativo_id', 'ativo', 'descricao'], ['motoristaId', 'motorista_id', 'motorista', 'nome']])}`;

const ATIVO_SORT: Record<string, string> = { placa: 't.placa', descricao: 't.descricao', numeroFrota: 't.numero_frota', id: 't.id' };
const MT_SORT: Record<string, string> = { dataInicio: 't.data_inicio', dataFim: 't.data_fim', id: 't.id' };

/** Page and total in one statement: the count's row always comes, with the page's rows (none: one row of nulls). */
const paged = (table: string, select: string, where: string, order: string, n: number) =>
  `SELECT c.n AS "__total", p.* FROM (SELECT count(*)::int AS n FROM ${table} t WHERE ${where}) c
   LEFT JOIN LATERAL (SELECT 1 AS "__row", ${select} FROM ${table} t WHERE ${where} ORDER BY ${order} LIMIT $${n} OFFSET $${n + 1}) p ON TRUE`;

function orderOf(sort: string | null, cols: Record<string, string>, dflt: [string, string]): string {
  const [f, d] = sort ? (JSON.parse(sort) as [string, string]) : dflt;
  const col = cols[f];
  if (!col || (d !== 'ASC' && d !== 'DESC')) throw new Error(`sort ${sort}`);
  return f === 'id' ? `${col} ${d}` : `${col} ${d}, t.id ASC`;
}
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => '\\' + m);

/** Rows of a paged statement without the helper columns, and the total. */
function page(rows: Record<string, unknown>[]): { rows: Record<string, unknown>[]; total: number } {
  const total = (rows[0]?.__total as number) ?? 0;
  if (rows[0]?.__row == null) return { rows: [], total };
  return { rows: rows.map(({ __total, __row, ...r }) => r), total };
}

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const s = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(s), ...headers });
  res.end(s);
};
const sendPage = (res: http.ServerResponse, unit: string, offset: number, p: { rows: unknown[]; total: number }) =>
  send(res, 200, p.rows, { 'content-range': `${unit} ${offset}-${p.rows.length ? offset + p.rows.length - 1 : offset}/${p.total}` });
const range = (u: URL) => JSON.parse(u.searchParams.get('range') ?? '[0,24]') as [number, number];

http.createServer(async (req, res) => {
  try {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/api/ativo') {
      const [a, b] = range(u);
      const filter = JSON.parse(u.searchParams.get('filter') ?? '{}') as { idGaragem?: number; q?: string };
      const params: unknown[] = [empresa];
      let where = 't.empresa_id = $1';
      if (filter.idGaragem !== undefined) { params.push(Number(filter.idGaragem)); where += ` AND t.id_garagem = $${params.length}`; }
      if (filter.q) {
        params.push(`%${escapeLike(filter.q)}%`);
        const q = `$${params.length}`;
        where += ` AND (t.descricao ILIKE ${q} OR t.placa ILIKE ${q} OR t.numero_frota ILIKE ${q})`;
      }
      const order = orderOf(u.searchParams.get('sort'), ATIVO_SORT, ['descricao', 'ASC']);
      const r = await query(paged('ativo', ATIVO_SELECT, where, order, params.length + 1), [...params, b - a + 1, a]);
      return sendPage(res, 'ativo', a, page(r.rows));
    }
    const one = /^\/api\/ativo\/(\d+)$/.exec(u.pathname);
    if (one) {
      const r = await query(`SELECT ${ATIVO_SELECT} FROM ativo t WHERE t.id = $2 AND t.empresa_id = $1`, [empresa, Number(one[1])]);
      return r.rows[0] ? send(res, 200, r.rows[0]) : send(res, 404, { status: 404, msg: 'Registro não encontrado' });
    }
    const nested = /^\/api\/ativo\/(\d+)\/motorista_temporario$/.exec(u.pathname);
    if (nested) {
      const [a, b] = range(u);
      const order = orderOf(u.searchParams.get('sort'), MT_SORT, ['dataInicio', 'DESC']);
      // The parent's visibility in the same statement: no row at all when the ativo is not the company's.
      const sql = `${paged('motorista_temporario', MT_COLS, 't.empresa_id = $1 AND t.ativo_id = $2', order, 3)}
        WHERE EXISTS (SELECT 1 FROM ativo x WHERE x.id = $2 AND x.empresa_id = $1)`;
      const r = await query(sql, [empresa, Number(nested[1]), b - a + 1, a]);
      if (!r.rows.length) return send(res, 404, { status: 404, msg: 'Registro pai não encontrado' });
      return sendPage(res, 'motorista_temporario', a, page(r.rows));
    }
    send(res, 404, { status: 404, msg: 'Rota não encontrada' });
  } catch (err) {
    send(res, 500, { status: 500, msg: String(err) });
  }
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
