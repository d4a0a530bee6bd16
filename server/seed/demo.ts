// npm run seed:demo -- [--ativos N] [--motoristas N] [--empresa ID]
// The demo data per register (./demo-data.ts: a second company, the read-only 'leitor', lookups, garages, ativos,
// motoristas) when it is not there yet — on a database never started, the schema and the first-start seed too — and,
// with --ativos / --motoristas, bulk rows in one company (multi-row INSERT ... SELECT generate_series, duplicates
// skipped). DATABASE_URL, else the embedded database of `npm start` (DATA_DIR).
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { loadBundle } from '../app/bundle.ts';
import { createOrm } from '../db/orm.ts';
import { migrate } from '../db/migration-tools.ts';
import { hashPassword } from '../auth/password.ts';
import { companyRoles, password, seedIfEmpty, Seeder } from './index.ts';
import { hasDemo, seedDemo } from './demo-data.ts';
import { seedCatalogues } from './catalogos.ts';
import { ativo, cargo as cargoCols, empresa as empresaCols, garagem, motorista, usuario } from '../generated/columns.ts';
import { companySql, pgParams, qParams } from '../tenancy/scope.ts';

const { values } = parseArgs({
  options: { ativos: { type: 'string', default: '0' }, motoristas: { type: 'string', default: '0' }, empresa: { type: 'string' } },
});
const nAtivos = Number(values.ativos);
const nMot = Number(values.motoristas);

let url = process.env.DATABASE_URL;
const embedded = url ? undefined : await startEmbeddedPostgres({ dir: path.resolve(process.env.DATA_DIR ?? 'data', 'pg') });
url ??= embedded!.url;

/** The demo data per register, unless already there. */
async function demoData(url: string): Promise<void> {
  const bundle = await loadBundle();
  const orm = await createOrm({ url, entities: bundle.entities, migrationsPath: process.env.MIGRATIONS_PATH });
  try {
    const fresh = !(await orm.em.getConnection().execute(`select to_regclass('ambiente') as t`))[0].t;
    if (fresh) await migrate(orm);
    const r = await seedIfEmpty(orm, bundle.model, undefined, { demo: true });
    await orm.em.fork().transactional((tx) => seedCatalogues(tx, bundle.model));
    if (r.seeded) { console.log('banco inicializado com os dados de demonstração'); return; }
    const em = orm.em.fork();
    if (await hasDemo(em, bundle.model)) { console.log('dados de demonstração já presentes'); return; }
    const leitor = password(process.env.LEITOR_PASSWORD);
    await em.transactional(async (tx) => {
      const conn = tx.getConnection();
      const one = async (sql: string, p: unknown[] = []) => (await conn.execute(sql, p))[0] as Record<string, number> | undefined;
      const empresa = Number((await one(`select min(${empresaCols.id}) as id from ${empresaCols.table}`))!.id);
      const ambiente = Number((await one(`select ${empresaCols.ambienteId} as id from ${empresaCols.table} where ${empresaCols.id} = ?`, [empresa]))!.id);
      const admin = await one(`select ${usuario.id} as id from ${usuario.table} where ${usuario.login} = 'admin'`);
      const p = qParams();
      const roles = (await conn.execute(`select c.${cargoCols.id} as id, c.${cargoCols.descricao} as descricao from ${cargoCols.table} c where ${companySql('c', empresa, p)} and c.${cargoCols.descricao} in ('Administrador', 'Somente leitura') order by c.${cargoCols.id}`, p.values)) as { id: number; descricao: string }[];
      let cargo = ['Administrador', 'Somente leitura'].map((n) => roles.find((x) => x.descricao === n)?.id);
      if (cargo.some((x) => !x)) cargo = await new Seeder(tx, bundle.model).many('cargo', companyRoles(bundle.model, { ambienteId: ambiente, empresaId: empresa }));
      await seedDemo(tx, bundle.model, { ambiente: [ambiente], empresa: [empresa], cargo: cargo as number[], usuario: admin ? [Number(admin.id)] : [] }, await hashPassword(leitor.value));
    });
    console.log(`dados de demonstração adicionados; usuário somente leitura: leitor   senha: ${leitor.given ? '(a de LEITOR_PASSWORD)' : leitor.value}`);
  } finally {
    await orm.close(true);
  }
}

await demoData(url).catch(async (e) => { await embedded?.stop(); throw e; });
const c = new pg.Client({ connectionString: url });
await c.connect();
try {
  const empresa = Number(values.empresa ?? (await c.query(`select min(${empresaCols.id}) as id from ${empresaCols.table}`)).rows[0].id);
  const gp = pgParams();
  const garagens = (await c.query(`select g.${garagem.id} as id from ${garagem.table} g where ${companySql('g', empresa, gp)} order by g.${garagem.id}`, gp.values)).rows.map((r) => r.id);
  const t0 = performance.now();
  if (nAtivos > 0) {
    const r = await c.query(
      `insert into ${ativo.table} (${[ativo.empresaId, ativo.descricao, ativo.placa, ativo.idGaragem, ativo.numeroFrota, ativo.ano, ativo.cor, ativo.odometro, ativo.createdAt, ativo.updatedAt].join(', ')})
       select $1, 'Veículo demo ' || lpad(i::text, 6, '0'),
              chr(65 + (i / 10000 / 676) % 26) || chr(65 + (i / 10000 / 26) % 26) || chr(65 + (i / 10000) % 26) || '-' || lpad((i % 10000)::text, 4, '0'),
              ($2::int[])[1 + i % greatest(array_length($2::int[], 1), 1)], (100000 + i)::text, 2005 + i % 20,
              (array['Branco','Prata','Preto','Vermelho','Azul'])[1 + i % 5], (i % 500000) * 1.5, now(), now()
       from generate_series(1000000, 1000000 + $3::int - 1) as i
       on conflict do nothing`,
      [empresa, garagens.length ? garagens : null, nAtivos],
    );
    console.log(`${r.rowCount} ativos inseridos na empresa ${empresa} em ${Math.round(performance.now() - t0)} ms`);
  }
  if (nMot > 0) {
    const m = await c.query(
      `insert into ${motorista.table} (${[motorista.empresaId, motorista.nome, motorista.documento, motorista.situacao, motorista.createdAt, motorista.updatedAt].join(', ')})
       select $1, 'Motorista demo ' || i, lpad(i::text, 11, '0'), 'ativo', now(), now() from generate_series(1, $2::int) as i on conflict do nothing`,
      [empresa, nMot],
    );
    console.log(`${m.rowCount} motoristas inseridos`);
  }
  // vacuum: flushes the GIN pending lists of the trigram indexes so the planner uses them at once.
  await c.query(`vacuum analyze ${ativo.table}`);
} finally {
  await c.end();
  await embedded?.stop();
}
