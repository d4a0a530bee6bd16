// Catalogue seed: Brasil and its 27 UFs; the hardware registers (protocolos and modelos from
// metadata/_tecnologias.yaml and the equipamento enums); the libraries' registers from metadata/catalogos. Idempotent
// (adds only what is missing; an edited entry is kept).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadBundle, type Bundle } from '../app/bundle.ts';
import { createOrm, MIGRATIONS_DIR } from '../db/orm.ts';
import { migrate } from '../db/migration-tools.ts';
import { setRuntime } from '../core/registry.ts';
import { createDatabase } from '../test/harness.ts';
import { seedPlaces } from './catalogos.ts';
import { hardwareCatalogue, seedHardware } from './hardware.ts';
import { LIBRARY_REGISTERS, seedBibliotecas } from './biblioteca.ts';
import { getCatalog } from '../../protocol/catalog.ts';

let bundle: Bundle;
let orm: MikroORM;
beforeAll(async () => {
  bundle = await loadBundle();
  setRuntime({ model: bundle.model, schemas: bundle.schemas, dir: bundle.dir });
  orm = await createOrm({ url: await createDatabase(), entities: bundle.entities, migrationsPath: MIGRATIONS_DIR });
  await migrate(orm);
});
afterAll(async () => { await orm?.close(true); });

const run = () => orm.em.fork().transactional((tx) => seedPlaces(tx, bundle.model));
const hw = () => orm.em.fork().transactional((tx) => seedHardware(tx, bundle.model));
const libs = () => orm.em.fork().transactional((tx) => seedBibliotecas(tx, bundle.model));
const sql = (q: string) => orm.em.getConnection().execute(q);

describe('seedPlaces', () => {
  it('adds Brasil and the 27 UFs once, then only what is missing', async () => {
    expect(await run()).toBe(28);
    expect(await sql(`select nome, sigla, codigo_bacen from pais`)).toEqual([{ nome: 'Brasil', sigla: 'BR', codigo_bacen: 1058 }]);
    const ufs = await sql(`select e.sigla, e.nome, e.codigo_ibge, p.sigla as pais from estado e join pais p on p.id = e.pais order by e.codigo_ibge`);
    expect(ufs).toHaveLength(27);
    expect(new Set(ufs.map((u: any) => u.sigla)).size).toBe(27);
    expect(ufs.find((u: any) => u.sigla === 'SP')).toEqual({ sigla: 'SP', nome: 'São Paulo', codigo_ibge: 35, pais: 'BR' });
    expect(ufs.every((u: any) => u.pais === 'BR')).toBe(true);
    expect(await run()).toBe(0);
    await sql(`delete from estado where sigla = 'DF'`);
    expect(await run()).toBe(1);
    expect(Number((await sql(`select count(*) as n from estado`))[0].n)).toBe(27);
  });
});

describe('seedHardware', () => {
  it('registers every technology and every model an equipamento may carry, once', async () => {
    const { protocolos, modelos } = hardwareCatalogue(bundle.model);
    expect([...protocolos.keys()].sort()).toEqual(['legacy', 'osmand', 'queclink', 'vdo']);
    // fabricante Queclink + protocolos + modelos
    expect(await hw()).toBe(1 + 4 + modelos.size);
    // the codes equipamento.modelo carried as an enum before it became a lookup of this register
    const enumModels = ['gv50cg', 'gv58cg', 'gv350ceu', 'gv300', 'gv310lau', 'gv350m', 'gv55', 'gv55w', 'gv56', 'gv600m', 'gl300', 'gl300m',
      'cv100lg', 'legacy', 'osmand', 'vdo_telemetria', 'vdo_compact', 'mix'];
    const rows = await sql(`select m.codigo, m.descricao, p.codigo as protocolo, f.nome as fabricante
      from modelo m join protocolo p on p.id = m.protocolo left join fabricante f on f.id = m.fabricante order by m.codigo`);
    const codes = rows.map((r: any) => r.codigo);
    for (const v of enumModels) expect(codes).toContain(v);
    for (const v of ['vdo_telemetria', 'vdo_compact', 'mix']) expect(codes).toContain(v);
    expect(rows.find((r: any) => r.codigo === 'gv50cg')).toEqual({ codigo: 'gv50cg', descricao: 'GV50CG', protocolo: 'queclink', fabricante: 'Queclink' });
    expect(rows.find((r: any) => r.codigo === 'gl300')).toMatchObject({ protocolo: 'queclink' });
    expect(rows.find((r: any) => r.codigo === 'osmand')).toMatchObject({ protocolo: 'osmand', fabricante: null });
    expect(rows.find((r: any) => r.codigo === 'vdo_telemetria')).toMatchObject({ protocolo: 'vdo', descricao: 'VDO Telemetria' });
    expect(await hw()).toBe(0);
    await sql(`delete from modelo where codigo = 'mix'`);
    expect(await hw()).toBe(1);
  });
});

describe('seedBibliotecas', () => {
  const entries = (name: string) => getCatalog(name)!.entries;
  it('holds every catalogue of metadata/catalogos in exactly one register', () => {
    const names = LIBRARY_REGISTERS.flatMap((r) => r.sources.map((s) => s.catalogo)).sort();
    expect(names).toEqual(['camera-alarmes', 'camera-parametros', 'can-parametros', 'legacy-eventos', 'legacy-parametros', 'queclink-eventos', 'queclink-parametros', 'viagem-parametros']);
  });

  it('adds every entry once in catalogue order, keeps edits, and adds back only what is missing', async () => {
    const total = LIBRARY_REGISTERS.flatMap((r) => r.sources).reduce((n, s) => n + entries(s.catalogo).length, 0);
    expect(await libs()).toBe(total);
    const count = async (t: string) => Number((await sql(`select count(*) as n from ${t}`))[0].n);
    expect(await count('biblioteca_evento')).toBe(entries('queclink-eventos').length + entries('legacy-eventos').length + entries('camera-alarmes').length);
    expect(await count('biblioteca_periferico')).toBe(entries('can-parametros').length + entries('camera-parametros').length);
    expect(await count('biblioteca_parametro')).toBe(entries('queclink-parametros').length + entries('legacy-parametros').length + entries('viagem-parametros').length);
    const gtign = entries('queclink-eventos').find((e) => e.message === 'GTIGN')!;
    expect((await sql(`select tecnologia, event, description, type, message, grupo, code, ordem from biblioteca_evento where message = 'GTIGN'`))[0])
      .toEqual({ tecnologia: 'queclink', event: gtign.event, description: gtign.description, type: 'primary', message: 'GTIGN', grupo: gtign.group ?? null, code: null, ordem: entries('queclink-eventos').indexOf(gtign) });
    expect((await sql(`select tecnologia, code, risk, unit_short from biblioteca_evento where event = 'frontal_collision_l1'`))[0])
      .toEqual({ tecnologia: 'vdo', code: 600, risk: 'baixo', unit_short: null });
    expect((await sql(`select origem, type, unit_short, unit_full from biblioteca_periferico where event = 'fuelLevel'`))[0])
      .toEqual({ origem: 'can', type: 'percentage', unit_short: '%', unit_full: 'Porcentagem' });
    // an undescribed entry has no description
    expect((await sql(`select description from biblioteca_evento where event = 'primary_1'`))[0]).toEqual({ description: null });

    expect(await libs()).toBe(0);
    await sql(`update biblioteca_evento set description = 'Ignição (editada)' where message = 'GTIGN'`);
    await sql(`delete from biblioteca_parametro where event = 'trip_distance'`);
    expect(await libs()).toBe(1);
    expect((await sql(`select description from biblioteca_evento where message = 'GTIGN'`))[0]).toEqual({ description: 'Ignição (editada)' });
    expect((await sql(`select origem from biblioteca_parametro where event = 'trip_distance'`))[0]).toEqual({ origem: 'viagem' });
  });
});
