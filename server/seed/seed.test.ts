// First-start seed: passwords (ADMIN_PASSWORD, LEITOR_PASSWORD, or generated and printed once), company-scoped
// roles without the platform key, leitor in the first company only.
import { verify } from '@node-rs/argon2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadBundle, type Bundle } from '../app/bundle.ts';
import { createOrm, MIGRATIONS_DIR } from '../db/orm.ts';
import { migrate } from '../db/migration-tools.ts';
import { setRuntime } from '../crud/registry.ts';
import { createDatabase } from '../test/harness.ts';
import { seedIfEmpty } from './index.ts';

let bundle: Bundle;
let orm: MikroORM | undefined;
const saved = { a: process.env.ADMIN_PASSWORD, l: process.env.LEITOR_PASSWORD };
let printed: string[];

beforeEach(async () => {
  bundle ??= await loadBundle();
  setRuntime({ model: bundle.model, schemas: bundle.schemas, dir: bundle.dir });
  orm = await createOrm({ url: await createDatabase(), entities: bundle.entities, migrationsPath: MIGRATIONS_DIR });
  await migrate(orm);
  printed = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => { printed.push(a.join(' ')); });
  delete process.env.ADMIN_PASSWORD;
  delete process.env.LEITOR_PASSWORD;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await orm?.close(true);
  for (const [k, v] of [['ADMIN_PASSWORD', saved.a], ['LEITOR_PASSWORD', saved.l]] as const) {
    if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
});

const senha = async (login: string) => String((await orm!.em.getConnection().execute('select senha from usuario where login = ?', [login]))[0].senha);

describe('seed', () => {
  it('without the variables: both passwords generated, different, and printed once', async () => {
    const r = await seedIfEmpty(orm!, bundle.model);
    expect(r.seeded).toBe(true);
    expect(r.adminPassword).not.toBe(r.leitorPassword);
    expect(await verify(await senha('admin'), r.adminPassword!)).toBe(true);
    expect(await verify(await senha('leitor'), r.leitorPassword!)).toBe(true);
    const out = printed.join('\n');
    expect(out).toContain(`Usuário inicial: admin   senha: ${r.adminPassword}`);
    expect(out).toContain(`Usuário somente leitura: leitor   senha: ${r.leitorPassword}`);
    // Second start: nothing seeded, nothing printed.
    printed.length = 0;
    expect((await seedIfEmpty(orm!, bundle.model)).seeded).toBe(false);
    expect(printed).toEqual([]);
  });

  it('ADMIN_PASSWORD set: admin uses it (not printed); leitor gets its own generated password, printed', async () => {
    process.env.ADMIN_PASSWORD = 'senha-do-admin-1';
    const r = await seedIfEmpty(orm!, bundle.model);
    expect(await verify(await senha('admin'), 'senha-do-admin-1')).toBe(true);
    expect(await verify(await senha('leitor'), 'senha-do-admin-1')).toBe(false);
    expect(await verify(await senha('leitor'), r.leitorPassword!)).toBe(true);
    const out = printed.join('\n');
    expect(out).not.toContain('senha-do-admin-1');
    expect(out).toContain('Usuário inicial: admin   senha: (a de ADMIN_PASSWORD)');
    expect(out).toContain(`Usuário somente leitura: leitor   senha: ${r.leitorPassword}`);
  });

  it('both set: nothing printed; roles are per company without the platform key', async () => {
    process.env.ADMIN_PASSWORD = 'senha-do-admin-1';
    process.env.LEITOR_PASSWORD = 'senha-do-leitor-1';
    await seedIfEmpty(orm!, bundle.model);
    expect(printed).toEqual([]);
    expect(await verify(await senha('leitor'), 'senha-do-leitor-1')).toBe(true);
    const conn = orm!.em.getConnection();
    const cargos = (await conn.execute('select empresa_id, descricao, permissoes from cargo order by id')) as { empresa_id: number; descricao: string; permissoes: string[] }[];
    const empresas = ((await conn.execute('select id from empresa order by id')) as { id: number }[]).map((e) => e.id);
    expect(cargos.map((c) => [c.empresa_id, c.descricao])).toEqual(empresas.flatMap((e) => [[e, 'Administrador'], [e, 'Somente leitura']]));
    for (const c of cargos) expect(c.permissoes.filter((k) => k.startsWith('adm.sis.plataforma') || k === 'adm.sis.empresa.suspende' || k.startsWith('adm.sis.ambiente.'))).toEqual([]);
    const leitor = (await conn.execute(`select empresas from usuario where login = 'leitor'`))[0] as { empresas: number[] };
    expect(leitor.empresas).toEqual([empresas[0]]);
  });
});
