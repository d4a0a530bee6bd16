// Catalogue data of the production seed: Brasil and its 27 unidades federativas (codes of IBGE). Idempotent:
// runs on every start and adds only what is missing, so databases seeded before the catalogue get it too.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Model } from '../../shared/model.ts';
import { estado, pais as paisCols } from '../generated/columns.ts';
import { Seeder } from './index.ts';
import { seedHardware } from './hardware.ts';
import { seedBibliotecas } from './biblioteca.ts';

export const BRASIL = { nome: 'Brasil', sigla: 'BR', codigoBacen: 1058 };

// [sigla, nome, código IBGE]
export const UFS: [string, string, number][] = [
  ['RO', 'Rondônia', 11], ['AC', 'Acre', 12], ['AM', 'Amazonas', 13], ['RR', 'Roraima', 14], ['PA', 'Pará', 15],
  ['AP', 'Amapá', 16], ['TO', 'Tocantins', 17], ['MA', 'Maranhão', 21], ['PI', 'Piauí', 22], ['CE', 'Ceará', 23],
  ['RN', 'Rio Grande do Norte', 24], ['PB', 'Paraíba', 25], ['PE', 'Pernambuco', 26], ['AL', 'Alagoas', 27], ['SE', 'Sergipe', 28],
  ['BA', 'Bahia', 29], ['MG', 'Minas Gerais', 31], ['ES', 'Espírito Santo', 32], ['RJ', 'Rio de Janeiro', 33], ['SP', 'São Paulo', 35],
  ['PR', 'Paraná', 41], ['SC', 'Santa Catarina', 42], ['RS', 'Rio Grande do Sul', 43], ['MS', 'Mato Grosso do Sul', 50],
  ['MT', 'Mato Grosso', 51], ['GO', 'Goiás', 52], ['DF', 'Distrito Federal', 53],
];

/** Adds Brasil, the UFs (matched by sigla and código IBGE), the hardware registers and the libraries' entries
 * (metadata/catalogos) that are missing; answers
 * how many rows were added. */
export async function seedCatalogues(em: EntityManager, model: Model): Promise<number> {
  return (await seedPlaces(em, model)) + (await seedHardware(em, model)) + (await seedBibliotecas(em, model));
}

export async function seedPlaces(em: EntityManager, model: Model): Promise<number> {
  const s = new Seeder(em, model);
  if (!s.has('pais') || !s.has('estado')) return 0;
  const conn = em.getConnection();
  let added = 0;
  let [pais] = (await conn.execute(`select ${paisCols.id} AS id from ${paisCols.table} where ${paisCols.sigla} = ?`, [BRASIL.sigla])) as { id: number }[];
  if (!pais) { [pais] = (await s.many('pais', [BRASIL])).map((id) => ({ id })); added++; }
  const have = new Set(((await conn.execute(`select ${estado.codigoIbge} AS codigo_ibge from ${estado.table} where ${estado.codigoIbge} is not null`)) as { codigo_ibge: number }[]).map((r) => r.codigo_ibge));
  const missing = UFS.filter(([, , ibge]) => !have.has(ibge));
  await s.many('estado', missing.map(([sigla, nome, codigoIbge]) => ({ sigla, nome, codigoIbge, pais: pais.id })));
  return added + missing.length;
}
