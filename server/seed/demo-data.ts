// Demo data per register, never part of the production seed: a second empresa with its roles (the admin gets both
// companies), the read-only 'leitor' (first company), lookups, a garage tree, 50 ativos and 20 motoristas.
// Added by the first start in demo mode (./index.ts) and by `npm run seed:demo` (./demo.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Model } from '../../shared/model.ts';
import { ormName } from '../core/registry.ts';
import { Seeder, companyRoles } from './index.ts';

type Row = Record<string, any>;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Valid plate: old format AAA-1234 or Mercosul AAA1A23, deterministic per index. */
export function plate(i: number): string {
  const l = (n: number) => LETTERS[Math.floor(n) % 26];
  const a = `${l(i / 676)}${l(i / 26)}${l(i)}`;
  return i % 2 === 0 ? `${a}-${String(1000 + (i % 9000)).padStart(4, '0')}` : `${a}${i % 10}${l(i * 7)}${String(i % 100).padStart(2, '0')}`;
}

/** Valid CPF (check digits) from a 9-digit base. */
export function cpf(base: number): string {
  const d = String(base).padStart(9, '0').split('').map(Number);
  const dv = (arr: number[]) => { const s = arr.reduce((acc, n, i) => acc + n * (arr.length + 1 - i), 0); const r = (s * 10) % 11; return r === 10 ? 0 : r; };
  d.push(dv(d)); d.push(dv(d));
  const s = d.join('');
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

export const DEMO_LOGIN = 'leitor';
const ALFA = { fantasia: 'Transportes Alfa', razaoSocial: 'Transportes Alfa Ltda', cnpj: '12.345.678/0001-95', email: 'contato@alfa.com.br' };
const BETA = { fantasia: 'Logística Beta', razaoSocial: 'Logística Beta S.A.', cnpj: '98.765.432/0001-98', email: 'contato@beta.com.br', status: 'ativa' };

const find = async (em: EntityManager, model: Model, key: string, where: Row) =>
  (await em.findOne(ormName(em, model.entities.find((e) => e.key === key)!), where as never)) as Row | null;

/** Whether the demo data is there (its read-only user). */
export async function hasDemo(em: EntityManager, model: Model): Promise<boolean> {
  return !!(await find(em, model, 'usuario', { login: DEMO_LOGIN }));
}

/**
 * Adds the demo data inside the caller's transaction, next to the first-start seed (`base`: its ambiente, empresa,
 * cargo and usuario ids). The first company takes the demo identity only while it still has the seed's default
 * name. `leitorHash`: the leitor's password hash.
 */
export async function seedDemo(em: EntityManager, model: Model, base: Record<string, number[]>, leitorHash: string): Promise<Record<string, number[]>> {
  const s = new Seeder(em, model);
  const ids = base;
  const A = { ambienteId: ids.ambiente[0] };
  const first = await find(em, model, 'empresa', { id: ids.empresa[0] });
  if (first && first.fantasia === 'Empresa principal') Object.assign(first, ALFA);
  const [beta] = await s.many('empresa', [{ ...A, ...BETA }]);
  const empresas = [ids.empresa[0], beta];
  const betaCargos = await s.many('cargo', companyRoles(model, { ...A, empresaId: beta }));
  const admin = await find(em, model, 'usuario', { id: ids.usuario[0] });
  if (admin) {
    admin.empresas = [...new Set([...(admin.empresas ?? []), beta])];
    admin.cargos = [...new Set([...(admin.cargos ?? []), betaCargos[0]])];
  }
  const leitura = ids.cargo[1];
  await s.many('usuario', [
    { ...A, nome: 'Leitor', login: DEMO_LOGIN, email: 'leitor@rastro.local', senha: leitorHash, ativo: true,
      empresas: [empresas[0]], empresaAtiva: empresas[0], cargos: [leitura], roles: [], permissoesExtras: [], ui: {} },
  ]);
  const cores = ['Branco', 'Prata', 'Preto', 'Vermelho', 'Azul'];
  let ativoN = 0, motN = 0;
  for (const [ei, empresaId] of empresas.entries()) {
    const E = { empresaId };
    const lk = async (key: string, names: string[]) => (ids[key] = await s.many(key, names.map((descricao) => ({ ...E, descricao }))));
    await lk('categoria_de_ativo', ['Caminhão', 'Carro', 'Moto', 'Ônibus', 'Van', 'Máquina']);
    await lk('fabricante_de_ativo', ['Volvo', 'Scania', 'Mercedes-Benz', 'Volkswagen', 'Fiat', 'Ford']);
    await lk('modelo_de_ativo', ['FH 540', 'R 450', 'Actros 2651', 'Constellation 24.280', 'Strada', 'Cargo 816']);
    await lk('situacao_do_ativo', ['Ativo', 'Em manutenção', 'Inativo', 'Vendido']);
    await s.many('acessorio', [{ ...E, descricao: 'Rastreador com bloqueio', fabricanteAtivo: ids.fabricante_de_ativo[0], tipoAtivo: ids.categoria_de_ativo[0] }]);
    await s.many('modelo_configuracao_teclado', [{ ...E, descricao: 'Teclado padrão', tempoTelaSegundos: 30 }]);
    const [matriz] = await s.many('garagem', [{ ...E, nome: ei === 0 ? 'Matriz São Paulo' : 'Matriz Curitiba', descricao: 'Matriz' }]);
    const filiais = await s.many('garagem', [
      { ...E, nome: ei === 0 ? 'Filial Campinas' : 'Filial Londrina', descricao: 'Filial', grupoSuperior: matriz },
      { ...E, nome: ei === 0 ? 'Filial Santos' : 'Filial Maringá', descricao: 'Filial', grupoSuperior: matriz },
    ]);
    const [patio] = await s.many('garagem', [{ ...E, nome: ei === 0 ? 'Pátio Campinas Norte' : 'Pátio Londrina Sul', descricao: 'Pátio', grupoSuperior: filiais[0] }]);
    const garagens = [matriz, ...filiais, patio];
    const nAtivos = ei === 0 ? 40 : 10;
    const ativos: Row[] = [];
    for (let i = 0; i < nAtivos; i++, ativoN++) {
      ativos.push({
        ...E, descricao: `Veículo ${String(ativoN + 1).padStart(3, '0')}`, placa: plate(ativoN * 37 + 11), idGaragem: garagens[i % garagens.length],
        numeroFrota: String(100 + ativoN), ano: 2010 + (ativoN % 15), cor: cores[ativoN % cores.length],
        categoria: ids.categoria_de_ativo?.[ativoN % 6], fabricante: ids.fabricante_de_ativo?.[ativoN % 6], modelo: ids.modelo_de_ativo?.[ativoN % 6],
        situacao: ids.situacao_do_ativo?.[ativoN % 7 === 0 ? 1 : 0], firmware: `v${1 + (ativoN % 3)}.${ativoN % 10}`, odometro: 10000 + ativoN * 1234.5,
      });
    }
    (ids.ativo ??= []).push(...(await s.many('ativo', ativos)));
    const nomes = ['Ana Souza', 'Bruno Lima', 'Carla Mendes', 'Diego Rocha', 'Eduarda Alves', 'Fábio Costa', 'Gabriela Dias', 'Henrique Melo',
      'Isabela Ramos', 'João Pereira', 'Karina Barros', 'Lucas Martins', 'Mariana Teixeira', 'Nelson Cardoso', 'Olívia Castro', 'Paulo Nunes',
      'Quésia Moura', 'Rafael Gomes', 'Sabrina Freitas', 'Tiago Ribeiro'];
    const nMot = ei === 0 ? 15 : 5;
    const mots: Row[] = [];
    for (let i = 0; i < nMot; i++, motN++) {
      mots.push({ ...E, nome: nomes[motN % nomes.length], documento: cpf(123456000 + motN * 7919), matricula: String(5000 + motN), cnh: String(40000000000 + motN * 97), validadeCnh: `20${27 + (motN % 4)}-0${1 + (motN % 9)}-15`,
        telefone: `(11) 9${String(80000000 + motN * 1111).slice(0, 4)}-${String(1000 + motN).slice(0, 4)}`, idGaragem: garagens[motN % garagens.length], categoriaCnh: 'E' });
    }
    (ids.motorista ??= []).push(...(await s.many('motorista', mots)));
  }
  await em.flush();
  ids.empresa = empresas;
  ids.cargo = [ids.cargo[0], ids.cargo[1], ...betaCargos];
  return ids;
}
