// Named calls (spec section 7) and providers. The core's own calls are listed below; every module folder
// (modules/<name>/server.ts, contract server/core/module.ts) is found by its folder and brings its routes,
// its provider implementations and its body limits. Providers (metadata `kind: provider`) are mounted by the
// core (server/crud/provider.ts), one implementation per key.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { getModel } from '../core/registry.ts';
import type { BodyLimit, ServerModule } from '../core/module.ts';
import { mountProviders, type Provider } from '../crud/provider.ts';
import { registerHooks } from '../crud/hooks.ts';
import { registerActions } from '../crud/actions.ts';
import usuario from './usuario.ts';
import meta from './meta.ts';
import porEmpresa from './por_empresa.ts';
import home from './home.ts';
import upload from './upload.ts';
import requestTime from './request_time.ts';
import tarefas from '../jobs/routes.ts';
import ambiente from './ambiente.ts';
import aplicacao from './aplicacao.ts';

const MODULES_DIR = fileURLToPath(new URL('../../modules/', import.meta.url));

/** Every modules/<name>/server.ts, in name order. */
export const modules: ServerModule[] = await Promise.all(
  (existsSync(MODULES_DIR) ? readdirSync(MODULES_DIR).sort() : [])
    .filter((name) => existsSync(join(MODULES_DIR, name, 'server.ts')))
    .map(async (name) => {
      const m = (await import(pathToFileURL(join(MODULES_DIR, name, 'server.ts')).href)).default as ServerModule;
      if (m?.name !== name) throw new Error(`modules/${name}/server.ts: default export must be a module named '${name}'`);
      return m;
    }),
);

/** The registry: provider key (metadata) → implementation; a key implemented twice is an error. */
export const providers: Record<string, Provider> = {};
for (const m of modules) {
  for (const [key, p] of Object.entries(m.providers ?? {})) {
    if (key in providers) throw new Error(`provider '${key}' implemented twice (module ${m.name})`);
    providers[key] = p;
  }
}

// The modules' write hooks and action handlers join the core's registries before any CRUD route is built
// (server/app/bundle.ts imports this).
for (const m of modules) {
  if (m.hooks) registerHooks(m.name, m.hooks);
  if (m.actions) registerActions(m.name, m.actions);
}

/** Body limits of the modules' uploads (server/app/index.ts applies them before the JSON limit). */
export const bodyLimits: BodyLimit[] = modules.flatMap((m) => m.bodyLimits ?? []);

const mount = (api: Hono<AppEnv>) => mountProviders(api, getModel().providers ?? [], providers);

export const calls: ((api: Hono<AppEnv>) => void)[] = [
  usuario, meta, porEmpresa, home, upload, requestTime, tarefas, ambiente, aplicacao,
  ...modules.flatMap((m) => (m.routes ? [m.routes] : [])),
  mount,
];
