// npm run seed:demo -- [--ativos 100000] [--motoristas 1000] [--empresa ID]
// Bulk demo data in one company (multi-row INSERT ... SELECT generate_series, duplicates skipped).
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedPostgres } from '../db/embedded.ts';

const { values } = parseArgs({
  options: { ativos: { type: 'string', default: '100000' }, motoristas: { type: 'string', default: '0' }, empresa: { type: 'string' } },
});
const nAtivos = Number(values.ativos);
const nMot = Number(values.motoristas);

let url = process.env.DATABASE_URL;
const embedded = url ? undefined : await startEmbeddedPostgres({ dir: path.resolve(process.env.DATA_DIR ?? 'data', 'pg') });
url ??= embedded!.url;
const c = new pg.Client({ connectionString: url });
await c.connect();
try {
  const empresa = Number(values.empresa ?? (await c.query('select min(id) as id from empresa')).rows[0].id);
  if (!empresa) throw new Error('banco vazio: execute npm start uma vez antes (cria o esquema e os dados iniciais)');
  const garagens = (await c.query('select id from garagem where empresa_id = $1 order by id', [empresa])).rows.map((r) => r.id);
  const t0 = performance.now();
  const r = await c.query(
    `insert into ativo (empresa_id, descricao, placa, id_garagem, numero_frota, ano, cor, odometro, created_at, updated_at)
     select $1, 'Veículo demo ' || lpad(i::text, 6, '0'),
            chr(65 + (i / 10000 / 676) % 26) || chr(65 + (i / 10000 / 26) % 26) || chr(65 + (i / 10000) % 26) || '-' || lpad((i % 10000)::text, 4, '0'),
            ($2::int[])[1 + i % greatest(array_length($2::int[], 1), 1)], (100000 + i)::text, 2005 + i % 20,
            (array['Branco','Prata','Preto','Vermelho','Azul'])[1 + i % 5], (i % 500000) * 1.5, now(), now()
     from generate_series(1000000, 1000000 + $3::int - 1) as i
     on conflict do nothing`,
    [empresa, garagens.length ? garagens : null, nAtivos],
  );
  console.log(`${r.rowCount} ativos inseridos na empresa ${empresa} em ${Math.round(performance.now() - t0)} ms`);
  if (nMot > 0) {
    const m = await c.query(
      `insert into motorista (empresa_id, nome, documento, situacao, created_at, updated_at)
       select $1, 'Motorista demo ' || i, lpad(i::text, 11, '0'), 'ativo', now(), now() from generate_series(1, $2::int) as i on conflict do nothing`,
      [empresa, nMot],
    );
    console.log(`${m.rowCount} motoristas inseridos`);
  }
  // vacuum: flushes the GIN pending lists of the trigram indexes so the planner uses them at once.
  await c.query('vacuum analyze ativo');
} finally {
  await c.end();
  await embedded?.stop();
}
