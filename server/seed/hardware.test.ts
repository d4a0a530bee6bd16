// Hardware seed: protocolos and modelos from metadata/_tecnologias.yaml and the equipamento enums, idempotent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadBundle, type Bundle } from '../app/bundle.ts';
import { createOrm, MIGRATIONS_DIR } from '../db/orm.ts';
import { migrate } from '../db/migration-tools.ts';
import { setRuntime } from '../crud/registry.ts';
import { createDatabase } from '../test/harness.ts';
import { seedCatalogues } from './catalogos.ts';
import { hardwareCatalogue } from './hardware.ts';

let bundle: Bundle;
let orm: MikroORM;
beforeAll(async () => {
  bundle = await loadBundle();
  setRuntime({ model: bundle.model, schemas: bundle.schemas, dir: bundle.dir });
  orm = await createOrm({ url: await createDatabase(), entities: bundle.entities, migrationsPath: MIGRATIONS_DIR });
  await migrate(orm);
});
afterAll(async () => { await orm?.close(true); });

const run = () => orm.em.fork().transactional((tx) => seedCatalogues(tx, bundle.model));
const sql = (q: string) => orm.em.getConnection().execute(q);

describe('seedHardware', () => {
  it('registers every technology and every model an equipamento may carry, once', async () => {
    const { protocolos, modelos } = hardwareCatalogue(bundle.model);
    expect([...protocolos.keys()].sort()).toEqual(['legacy', 'osmand', 'queclink', 'vdo']);
    // 28 places (Brasil + UFs) + fabricante Queclink + protocolos + modelos
    expect(await run()).toBe(28 + 1 + 4 + modelos.size);
    const equipamento = bundle.model.entities.find((e) => e.key === 'equipamento')!;
    const enumModels = equipamento.fields.find((f) => f.name === 'modelo')!.options!.map((o) => o.value);
    const rows = await sql(`select m.codigo, m.descricao, p.codigo as protocolo, f.nome as fabricante
      from modelo m join protocolo p on p.id = m.protocolo left join fabricante f on f.id = m.fabricante order by m.codigo`);
    const codes = rows.map((r: any) => r.codigo);
    for (const v of enumModels) expect(codes).toContain(v);
    for (const v of ['vdo_telemetria', 'vdo_compact', 'mix']) expect(codes).toContain(v);
    expect(rows.find((r: any) => r.codigo === 'gv50cg')).toEqual({ codigo: 'gv50cg', descricao: 'GV50CG', protocolo: 'queclink', fabricante: 'Queclink' });
    expect(rows.find((r: any) => r.codigo === 'gl300')).toMatchObject({ protocolo: 'queclink' });
    expect(rows.find((r: any) => r.codigo === 'osmand')).toMatchObject({ protocolo: 'osmand', fabricante: null });
    expect(rows.find((r: any) => r.codigo === 'vdo_telemetria')).toMatchObject({ protocolo: 'vdo', descricao: 'VDO Telemetria' });
    expect(await run()).toBe(0);
    await sql(`delete from modelo where codigo = 'mix'`);
    expect(await run()).toBe(1);
  });
});
