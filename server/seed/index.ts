// First-start seed (empty database), the same in production: ambiente, the first empresa, its company
// administrator and read-only roles (roles are company-scoped), the admin user (role dev); catalogue data comes from
// ./catalogos.ts (every start). Nothing per register:
// the demo data (a second company, the read-only 'leitor', lookups, garages, ativos, motoristas) is added only in
// demo mode (./demo-data.ts: `npm start` on the embedded database, or DEMO=on) or by `npm run seed:demo`.
// Writes only the fields the model declares. Passwords: admin = ADMIN_PASSWORD, leitor = LEITOR_PASSWORD; each
// one not set is generated and printed once.
import crypto from 'node:crypto';
import type { MikroORM, EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Model } from '../../shared/model.ts';
import { hashPassword } from '../auth/password.ts';
import { ormName } from '../core/registry.ts';
import { seedDemo } from './demo-data.ts';

type Row = Record<string, any>;

export interface SeedResult { seeded: boolean; demo?: boolean; adminPassword?: string; leitorPassword?: string; ids?: Record<string, number[]> }
export interface SeedOptions { adminPassword?: string; leitorPassword?: string; demo?: boolean }

const off = (v: string) => ['off', '0', 'false', 'no'].includes(v.toLowerCase());
/** Demo mode: DEMO=on|off, else on exactly when no DATABASE_URL is given (the embedded database of `npm start`). */
export function demoMode(databaseUrl = process.env.DATABASE_URL, env = process.env.DEMO): boolean {
  return env ? !off(env) : !databaseUrl;
}

/** The company roles of one empresa: its administrator (every key but the platform's) and read-only. */
export const companyRoles = (model: Model, base: Row) => [
  { ...base, nome: 'Administrador', descricao: 'Administrador', permissoes: companyAdminPermissions(model) },
  { ...base, nome: 'Somente leitura', descricao: 'Somente leitura', permissoes: readOnlyPermissions(model) },
];

/** A password given by the operator (option or variable), or a generated one to print. */
export function password(...given: (string | undefined)[]): { value: string; given: boolean } {
  const v = given.find((x) => x);
  return v ? { value: v, given: true } : { value: crypto.randomBytes(9).toString('base64url'), given: false };
}

/** Keys of a company administrator: every key but the platform keys and the keys they gate. */
export function companyAdminPermissions(model: Model): string[] {
  const platform = new Set((model.platform ?? []).flatMap((p) => [p.key, ...p.gated]));
  return model.permissions.map((p) => p.key).filter((k) => !platform.has(k));
}

export function readOnlyPermissions(model: Model): string[] {
  // Viewing keys of the registers, plus the key that opens each screen (maps, libraries: read-only by nature) and hub.
  const keys = model.permissions.map((p) => p.key).filter((k) => k.endsWith('.lista') || k.endsWith('.visualizar'));
  const platform = new Set((model.platform ?? []).flatMap((p) => [p.key, ...p.gated]));
  // only keys of the catalogue: a screen every user opens (self: perfil) has none, and a key the catalogue does not
  // list makes the role unsavable (its form sends back what it holds)
  const known = new Set(model.permissions.map((p) => p.key));
  // a screen that shares another's key (an action's screen: reiniciar_simcard) opens nothing of its own: a write key
  const opens = [...(model.screens ?? []).filter((s) => !s.sharedKey), ...(model.hubs ?? [])].map((s) => s.permission).filter((k) => known.has(k));
  return [...new Set([...keys, ...opens])].filter((k) => !platform.has(k)).sort();
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

export async function seedIfEmpty(orm: MikroORM, model: Model, log?: Logger, opts: SeedOptions = {}): Promise<SeedResult> {
  const em = orm.em.fork();
  const ambienteMeta = model.entities.find((e) => e.key === 'ambiente')!;
  if ((await em.count(ormName(em, ambienteMeta), {})) > 0) return { seeded: false };
  const admin = password(opts.adminPassword, process.env.ADMIN_PASSWORD);
  const leitor = opts.demo ? password(opts.leitorPassword, process.env.LEITOR_PASSWORD) : undefined;
  const ids: Record<string, number[]> = {};
  await em.transactional(async (tx) => {
    const s = new Seeder(tx, model);
    const [amb] = await s.many('ambiente', [{ nome: 'Principal', descricao: 'Principal', ativo: true }]);
    const A = { ambienteId: amb };
    const empresas = await s.many('empresa', [{ ...A, fantasia: 'Empresa principal', razaoSocial: 'Empresa principal', status: 'ativa' }]);
    // Roles belong to one company (cargo scope empresa); the ambiente too while it is ambiente-scoped.
    const cargos = await s.many('cargo', companyRoles(model, { ...A, empresaId: empresas[0] }));
    const [usuario] = await s.many('usuario', [
      { ...A, nome: 'Administrador', login: 'admin', email: 'admin@rastro.local', senha: await hashPassword(admin.value), ativo: true,
        empresas, empresaAtiva: empresas[0], cargos: [cargos[0]], roles: ['dev'], permissoesExtras: [], ui: {} },
    ]);
    Object.assign(ids, { ambiente: [amb], empresa: empresas, cargo: cargos, usuario: [usuario] });
    if (leitor) await seedDemo(tx, model, ids, await hashPassword(leitor.value));
  });
  // Printed once, on the first start only: every generated password (a given one is the operator's).
  const lines = [`  Usuário inicial: admin   senha: ${admin.given ? '(a de ADMIN_PASSWORD)' : admin.value}`];
  if (leitor) lines.push(`  Usuário somente leitura: leitor   senha: ${leitor.given ? '(a de LEITOR_PASSWORD)' : leitor.value}`);
  if (!admin.given || (leitor && !leitor.given)) console.log(`\n${lines.join('\n')}\n`);
  log?.info(leitor ? 'banco de dados inicializado com dados de demonstração' : 'banco de dados inicializado');
  return { seeded: true, demo: !!leitor, adminPassword: admin.value, leitorPassword: leitor?.value, ids };
}
