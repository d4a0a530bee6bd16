// First-start seed (empty database): ambiente, two empresas, admin (role dev, both companies), read-only
// 'leitor' (first company), a company administrator role and a read-only role in each company (roles are
// company-scoped), lookups, a garage tree, 50 ativos, 20 motoristas. Writes only the fields the model declares.
// Passwords: admin = ADMIN_PASSWORD, leitor = LEITOR_PASSWORD; each one not set is generated and printed once.
import crypto from 'node:crypto';
import type { MikroORM, EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Model } from '../../generator/model.ts';
import { hashPassword } from '../crud/index.ts';
import { ormName } from '../crud/registry.ts';

type Row = Record<string, any>;

export interface SeedResult { seeded: boolean; adminPassword?: string; leitorPassword?: string; ids?: Record<string, number[]> }

/** Keys of a company administrator: every key but the platform keys and the keys they gate. */
export function companyAdminPermissions(model: Model): string[] {
  const platform = new Set((model.platform ?? []).flatMap((p) => [p.key, ...p.gated]));
  return model.permissions.map((p) => p.key).filter((k) => !platform.has(k));
}

export function readOnlyPermissions(model: Model): string[] {
  // Viewing keys of the registers, plus the key that opens each screen (maps, libraries: read-only by nature).
  const keys = model.permissions.map((p) => p.key).filter((k) => k.endsWith('.lista') || k.endsWith('.visualizar'));
  const platform = new Set((model.platform ?? []).flatMap((p) => [p.key, ...p.gated]));
  return [...new Set([...keys, ...(model.screens ?? []).map((s) => s.permission)])].filter((k) => !platform.has(k)).sort();
}

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

export class Seeder {
  constructor(private em: EntityManager, private model: Model) {}
  has(key: string) { return this.model.entities.some((e) => e.key === key); }
  /** Creates a row of entity `key` with the fields it declares; answers its id after flush. */
  make(key: string, data: Row): Row {
    const e = this.model.entities.find((x) => x.key === key);
    if (!e) throw new Error(`seed: entity ${key} missing`);
    const row: Row = {};
    for (const f of e.fields) if (f.name in data) row[f.name] = data[f.name];
    for (const f of e.fields) if (!(f.name in row) && f.default !== undefined && !f.system) row[f.name] = f.default;
    for (const f of e.fields) if (!(f.name in row) && f.required && f.type === 'enum' && f.options?.length) row[f.name] = f.options[0].value;
    return this.em.create(ormName(this.em, e), row as never) as Row;
  }
  async many(key: string, rows: Row[]): Promise<number[]> {
    if (!this.has(key)) return [];
    const made = rows.map((r) => this.make(key, r));
    await this.em.flush();
    return made.map((m) => Number(m.id));
  }
}

export async function seedIfEmpty(orm: MikroORM, model: Model, log?: Logger, opts: { adminPassword?: string; leitorPassword?: string } = {}): Promise<SeedResult> {
  const em = orm.em.fork();
  const ambienteMeta = model.entities.find((e) => e.key === 'ambiente')!;
  if ((await em.count(ormName(em, ambienteMeta), {}, { filters: false })) > 0) return { seeded: false };
  const given = (v: string | undefined) => (v ? v : undefined);
  const adminGiven = given(opts.adminPassword) ?? given(process.env.ADMIN_PASSWORD);
  const leitorGiven = given(opts.leitorPassword) ?? given(process.env.LEITOR_PASSWORD);
  const adminPassword = adminGiven ?? crypto.randomBytes(9).toString('base64url');
  const leitorPassword = leitorGiven ?? crypto.randomBytes(9).toString('base64url');
  const ids: Record<string, number[]> = {};
  await em.transactional(async (tx) => {
    const s = new Seeder(tx, model);
    const [amb] = await s.many('ambiente', [{ nome: 'Principal', descricao: 'Principal', ativo: true }]);
    const A = { ambienteId: amb };
    const empresas = await s.many('empresa', [
      { ...A, fantasia: 'Transportes Alfa', razaoSocial: 'Transportes Alfa Ltda', cnpj: '12.345.678/0001-95', email: 'contato@alfa.com.br', status: 'ativa' },
      { ...A, fantasia: 'Logística Beta', razaoSocial: 'Logística Beta S.A.', cnpj: '98.765.432/0001-98', email: 'contato@beta.com.br', status: 'ativa' },
    ]);
    // Roles belong to one company (cargo scope empresa); the ambiente too while it is ambiente-scoped.
    const cargos: number[] = [];
    for (const empresaId of empresas) {
      cargos.push(...await s.many('cargo', [
        { ...A, empresaId, nome: 'Administrador', descricao: 'Administrador', permissoes: companyAdminPermissions(model) },
        { ...A, empresaId, nome: 'Somente leitura', descricao: 'Somente leitura', permissoes: readOnlyPermissions(model) },
      ]));
    }
    const leitura = cargos[1];
    await s.many('usuario', [
      { ...A, nome: 'Administrador', login: 'admin', email: 'admin@rastro.local', senha: await hashPassword(adminPassword), ativo: true,
        empresas, empresaAtiva: empresas[0], cargos: cargos.filter((_, i) => i % 2 === 0), roles: ['dev'], permissoesExtras: [], ui: {} },
      { ...A, nome: 'Leitor', login: 'leitor', email: 'leitor@rastro.local', senha: await hashPassword(leitorPassword), ativo: true,
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
    ids.empresa = empresas; ids.ambiente = [amb]; ids.cargo = cargos;
  });
  // Printed once, on the first start only: every generated password (a given one is the operator's).
  const lines = [
    `  Usuário inicial: admin   senha: ${adminGiven ? '(a de ADMIN_PASSWORD)' : adminPassword}`,
    `  Usuário somente leitura: leitor   senha: ${leitorGiven ? '(a de LEITOR_PASSWORD)' : leitorPassword}`,
  ];
  if (!adminGiven || !leitorGiven) console.log(`\n${lines.join('\n')}\n`);
  log?.info('banco de dados inicializado com dados de exemplo');
  return { seeded: true, adminPassword, leitorPassword, ids };
}
