// Integration-test harness: a fresh database per test file (a copy of the run's template: committed migrations
// applied, seeded; see ./template.ts), the real app on a random port over real HTTP, and helpers to sign in and call the API.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { startServer, type Running, type StartOptions } from '../app/start.ts';
import { MIGRATIONS_DIR } from '../db/orm.ts';
import { freePort } from '../db/embedded.ts';
import { ormName } from '../core/registry.ts';
import { hashPassword } from '../auth/password.ts';
import type { Model } from '../../shared/model.ts';
import type { SeedResult } from '../seed/index.ts';
import { ADMIN, LEITOR, TEST_SEED, cloneTemplate, ensureTemplate, withDatabase } from './template.ts';
import { serverNodeArgs } from '../app/node-flags.ts';

export { ADMIN, LEITOR };

// Databases of this run share a prefix (global-setup drops them at the end when the server is shared).
const newName = () => `${inject('databasePrefix') ?? 'rastro_t_'}${crypto.randomBytes(5).toString('hex')}`;

/** Creates an empty database on the server given by global-setup; answers its URL. */
export async function createDatabase(): Promise<string> {
  const admin = inject('databaseUrl');
  const name = newName();
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try { await c.query(`create database ${name}`); } finally { await c.end(); }
  return withDatabase(admin, name);
}

/** A new database already migrated and seeded as startTestServer() seeds (a copy of the run's template);
 * answers its URL and the template's seed result. */
export async function createMigratedDatabase(): Promise<{ url: string; seed: SeedResult }> {
  const admin = inject('databaseUrl');
  const tpl = await ensureTemplate(admin, inject('databasePrefix') ?? 'rastro_t_');
  return { url: await cloneTemplate(admin, tpl.name, newName()), seed: tpl.seed };
}

/** Copy of server/migrations under server/test/.tmp (inside the repo, so migration files resolve their imports),
 * for tests that create migrations; the app never writes migrations itself. */
export function migrationsCopy(): string {
  const dir = path.resolve(path.dirname(MIGRATIONS_DIR), 'test/.tmp', `mig-${crypto.randomBytes(4).toString('hex')}`);
  fs.mkdirSync(dir, { recursive: true });
  if (fs.existsSync(MIGRATIONS_DIR)) {
    for (const f of fs.readdirSync(MIGRATIONS_DIR)) {
      const src = path.join(MIGRATIONS_DIR, f);
      if (fs.statSync(src).isFile()) fs.copyFileSync(src, path.join(dir, f));
    }
  }
  return dir;
}

export interface Api {
  token: string;
  user: any;
  empresaAtiva: number;
  headers(extra?: Record<string, string>): Record<string, string>;
  get(p: string): Promise<Response>;
  post(p: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  put(p: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  del(p: string, headers?: Record<string, string>): Promise<Response>;
}

export interface TestServer extends Running {
  migrationsDir: string;
  model: Model;
  em(): EntityManager;
  fetch(p: string, init?: RequestInit): Promise<Response>;
  login(login: string, senha: string): Promise<Api>;
  as(token: string, empresaAtiva: number, user?: any): Api;
  /** Inserts a row straight through the ORM (no validation, no tenancy). */
  insert(key: string, data: Record<string, unknown>): Promise<Record<string, any>>;
  createUser(o: { login: string; senha?: string; ambienteId: number; empresas: number[]; permissoes?: string[]; roles?: string[]; ativo?: boolean }): Promise<number>;
  stop(): Promise<void>;
}

export async function startTestServer(o: Partial<StartOptions> = {}): Promise<TestServer> {
  // The standard database (committed migrations, the test seed, the generated model) is a copy of the template;
  // a file with its own database, migrations, model or seed gets an empty database migrated and seeded at start.
  const standard = o.databaseUrl === undefined && o.migrationsPath === undefined && o.generatedDir === undefined && o.bundle === undefined && o.seed === undefined;
  const copy = standard ? await createMigratedDatabase() : undefined;
  const databaseUrl = o.databaseUrl ?? copy?.url ?? await createDatabase();
  // Only the committed migrations (or the test's own folder) are applied.
  const migrationsDir = o.migrationsPath ?? MIGRATIONS_DIR;
  const tmpDir = path.resolve(path.dirname(MIGRATIONS_DIR), 'test/.tmp', `srv-${crypto.randomBytes(4).toString('hex')}`);
  fs.mkdirSync(tmpDir, { recursive: true });
  const r = await startServer({
    port: 0, host: '127.0.0.1', databaseUrl, migrationsPath: migrationsDir, dataDir: path.join(tmpDir, 'data'),
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    seed: TEST_SEED, distDir: path.join(tmpDir, 'no-dist'),
    // A copy of the template, which this run built and verified against the same metadata and migrations.
    ...(copy ? { verifyMigrations: false } : {}),
    ...o,
  }).catch((e) => { fs.rmSync(tmpDir, { recursive: true, force: true }); throw e; });
  // What the first start seeded, as if this database had been seeded now (ids are the same in the copy).
  if (copy) r.seed = copy.seed;
  const base = r.url.replace('localhost', '127.0.0.1');
  const doFetch = (p: string, init?: RequestInit) => fetch(base + p, init);
  const as = (token: string, empresaAtiva: number, user?: any): Api => {
    const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, companyId: String(empresaAtiva), ...extra });
    const json = (method: string) => (p: string, body?: unknown, h?: Record<string, string>) =>
      doFetch(p, { method, headers: headers({ 'content-type': 'application/json', ...h }), body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    return {
      token, user, empresaAtiva, headers,
      get: (p) => doFetch(p, { headers: headers() }),
      post: json('POST'), put: json('PUT'),
      del: (p, h) => doFetch(p, { method: 'DELETE', headers: headers(h) }),
    };
  };
  const ts: TestServer = {
    ...r, migrationsDir, model: r.bundle.model,
    em: () => { const em = r.orm.em.fork(); return em as EntityManager; },
    fetch: doFetch,
    as,
    login: async (login, senha) => {
      const res = await doFetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login, senha }) });
      const j = await res.json();
      if (res.status !== 200) throw new Error(`login ${login} falhou: ${res.status} ${j.msg}`);
      return as(j.payload.token, j.payload.user.empresaAtiva, j.payload.user);
    },
    insert: async (key, data) => {
      const em = r.orm.em.fork();
      const e = r.bundle.model.entities.find((x) => x.key === key)!;
      const row = em.create(ormName(em, e), data as never) as Record<string, any>;
      await em.flush();
      return row;
    },
    createUser: async (u) => {
      const row = await ts.insert('usuario', {
        ambienteId: u.ambienteId, nome: u.login, login: u.login, email: `${u.login}@teste.local`, senha: await hashPassword(u.senha ?? 'senha-teste-123'),
        empresas: u.empresas, empresaAtiva: u.empresas[0], cargos: [], permissoesExtras: u.permissoes ?? [], roles: u.roles ?? [], ui: {}, ativo: u.ativo ?? true,
      });
      return Number(row.id);
    },
    stop: async () => {
      await r.close();
      fs.rmSync(tmpDir, { recursive: true, force: true });
    },
  };
  return ts;
}

export async function json(res: Response): Promise<any> {
  const t = await res.text();
  try { return JSON.parse(t); } catch { return t; }
}

/** A second API process (`server/main.ts`) on the test server's database, for cross-process checks. */
export async function startSecondProcess(ts: TestServer, env: Record<string, string> = {}): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '../..');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-p2-'));
  const child = spawn(process.execPath, serverNodeArgs(), {
    cwd: root,
    env: {
      ...process.env, DATABASE_URL: ts.databaseUrl, PORT: String(port), HOST: '127.0.0.1', MIGRATIONS_PATH: ts.migrationsDir,
      DATA_DIR: path.join(tmp, 'data'), DIST_DIR: path.join(tmp, 'no-dist'), LOG_LEVEL: 'warn', ADMIN_PASSWORD: ADMIN.senha,
      // No device gateway unless asked: its default ports (5001, 5002, 5055) are fixed, and files run in parallel.
      GATEWAY: 'off', ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) await new Promise<void>((res) => { child.once('exit', () => res()); child.kill('SIGTERM'); });
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const r = await fetch(`${base}/api/openapi.json`).catch(() => null);
    if (r) { await r.arrayBuffer(); break; }
    if (i > 600 || child.exitCode !== null) { await stop(); throw new Error('segundo servidor não respondeu'); }
    await new Promise((res) => setTimeout(res, 50));
  }
  return { base, stop };
}
