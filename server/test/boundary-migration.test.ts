// The company-boundary migration on a database with data (issue 6 §2): roles and profiles move from the
// ambiente to companies without losing who holds what; look-alike logins and duplicate serials that
// would break the new unique indexes are resolved, the oldest keeping the name.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadBundle } from '../app/bundle.ts';
import { createOrm, MIGRATIONS_DIR } from '../db/orm.ts';
import { createDatabase } from './harness.ts';

const BEFORE = 'Migration20261123143416_equipamento_pendente_descartadas';

let orm: MikroORM;
let c: pg.Client;
beforeAll(async () => {
  const url = await createDatabase();
  orm = await createOrm({ url, entities: (await loadBundle()).entities, migrationsPath: MIGRATIONS_DIR });
  await orm.migrator.up({ to: BEFORE });
  c = new pg.Client({ connectionString: url });
  await c.connect();
});
afterAll(async () => { await c?.end(); await orm?.close(true); });

const q = async (sql: string, params: unknown[] = []) => (await c.query(sql, params)).rows;
const one = async (sql: string, params: unknown[] = []) => Number((await q(sql, params))[0].id);

describe('empresa_boundary migration', () => {
  it('moves roles to companies (copies for the other companies whose users hold them), resolves look-alike logins and duplicate serials', async () => {
    const now = 'now(), now()';
    const amb = await one(`insert into ambiente (descricao, ativo, created_at, updated_at) values ('Amb', true, ${now}) returning id`);
    const ambVazio = await one(`insert into ambiente (descricao, ativo, created_at, updated_at) values ('Vazio', true, ${now}) returning id`);
    const emp = (f: string) => one(`insert into empresa (ambiente_id, fantasia, status, created_at, updated_at) values ($1, $2, 'ativa', ${now}) returning id`, [amb, f]);
    const A = await emp('A'), B = await emp('B'), C = await emp('C');
    const cargo = (a: number, d: string, p: string[]) => one(`insert into cargo (ambiente_id, descricao, permissoes, created_at, updated_at) values ($1, $2, $3, ${now}) returning id`, [a, d, JSON.stringify(p)]);
    const gestao = await cargo(amb, 'Gestão', ['tlm.fro.ativo.lista']);
    const leitura = await cargo(amb, 'Leitura', ['tlm.fro.ativo.visualizar']);
    const orfao = await cargo(ambVazio, 'Órfão', ['x']);
    const usuario = (login: string, empresas: number[], cargos: number[]) => one(
      `insert into usuario (ambiente_id, nome, login, empresas, empresa_ativa, cargos, ativo, created_at, updated_at) values ($1, $2, $2, $3, $4, $5, true, ${now}) returning id`,
      [amb, login, `{${empresas.join(',')}}`, empresas[0], `{${cargos.join(',')}}`]);
    const ab = await usuario('ana', [A, B], [gestao, orfao]);
    const b = await usuario('Ana', [B], [leitura]);
    const aOnly = await usuario('bruno', [A], [gestao, leitura]);
    await one(`insert into permissao (ambiente_id, descricao, permissoes, created_at, updated_at) values ($1, 'Perfil', '[]', ${now}) returning id`, [amb]);
    const eq = (empresa: number, serial: string) => one(
      `insert into equipamento (empresa_id, serial, tecnologia, modelo, ativado, created_at, updated_at) values ($1, $2, 'queclink', 'gv58cg', true, ${now}) returning id`, [empresa, serial]);
    const e1 = await eq(B, '865585040000001'), e2 = await eq(A, '865585040000001'), e3 = await eq(C, '865585040000002');

    await orm.migrator.up();

    // Roles: Gestão stays in A (first company) and is copied into B for ana; Leitura stays in A for bruno,
    // copied into B for the B user; nothing into C (nobody of C holds them). The orphan role is gone.
    const cargos = await q('select id, empresa_id, descricao, permissoes from cargo order by id');
    expect(cargos.map((r) => [r.descricao, r.empresa_id])).toEqual([['Gestão', A], ['Leitura', A], ['Gestão', B], ['Leitura', B]]);
    const copy = (d: string, e: number) => cargos.find((r) => r.descricao === d && r.empresa_id === e)!.id;
    expect(cargos[2].permissoes).toEqual(['tlm.fro.ativo.lista']);
    const users = Object.fromEntries((await q('select id, login, cargos from usuario')).map((r) => [r.id, r]));
    expect(users[ab].cargos).toEqual([gestao, copy('Gestão', B)]);
    expect(users[b].cargos).toEqual([leitura, copy('Leitura', B)]);
    expect(users[aOnly].cargos).toEqual([gestao, leitura]);
    expect((await q('select id from cargo where id = $1', [orfao]))).toEqual([]);
    expect((await q('select descricao, empresa_id from permissao order by empresa_id')).map((r) => r.empresa_id)).toEqual([A, B, C]);

    // Logins: the oldest keeps it.
    expect(users[ab].login).toBe('ana');
    expect(users[b].login).toBe(`Ana.${b}`);
    await expect(c.query(`insert into usuario (ambiente_id, nome, login, ativo, created_at, updated_at) values ($1, 'x', 'ANA', true, ${now})`, [amb])).rejects.toThrow(/usuario_login_lower_unique/);

    // Serials: the oldest registration keeps it; the later duplicate is renamed and switched off.
    const eqs = Object.fromEntries((await q('select id, serial, ativado from equipamento')).map((r) => [r.id, r]));
    expect(eqs[e1]).toMatchObject({ serial: '865585040000001', ativado: true });
    expect(eqs[e2]).toMatchObject({ serial: `DUP${String(e2).padStart(17, '0')}`, ativado: false });
    expect(eqs[e3]).toMatchObject({ serial: '865585040000002', ativado: true });
    await expect(c.query(`insert into equipamento (empresa_id, serial, tecnologia, modelo, ativado, created_at, updated_at) values ($1, '865585040000002', 'queclink', 'gv58cg', true, ${now})`, [A])).rejects.toThrow(/equipamento_serial_unique/);
  });
});
