// Named calls (spec section 7) and providers. Each call module: `export default (api: Hono<AppEnv>) => void`,
// registering its routes through server/core/pipeline.ts route(). Providers (metadata `kind: provider`) are
// implemented in the modules below and mounted by the core (server/crud/provider.ts), one implementation per key.
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { getModel } from '../core/registry.ts';
import { mountProviders, type Provider } from '../crud/provider.ts';
import usuario from './usuario.ts';
import meta from './meta.ts';
import porEmpresa from './por_empresa.ts';
import home from './home.ts';
import parametro from './parametro.ts';
import upload from './upload.ts';
import firmware from './firmware.ts';
import requestTime from './request_time.ts';
import importacao from './importacao.ts';
import biblioteca, { providers as bibliotecaProviders } from './biblioteca.ts';
import { providers as ingestProviders } from '../ingest/calls.ts';
import { providers as registrosProviders } from './registros.ts';
import { providers as acessoProviders } from './acesso.ts';
import { providers as diagnosticoProviders } from './diagnostico.ts';
import { providers as rankingProviders } from './ranking.ts';
import { providers as tecladoProviders } from './teclado.ts';
import { providers as sateliteProviders } from './satelite.ts';

/** The registry: provider key (metadata) → implementation (one line each: parallel additions merge cleanly). */
export const providers: Record<string, Provider> = {
  ...bibliotecaProviders,
  ...ingestProviders,
  ...registrosProviders,
  ...acessoProviders,
  ...rankingProviders,
  ...tecladoProviders,
  ...sateliteProviders,
  ...diagnosticoProviders,
};

const mount = (api: Hono<AppEnv>) => mountProviders(api, getModel().providers ?? [], providers);

export const calls: ((api: Hono<AppEnv>) => void)[] = [usuario, meta, porEmpresa, home, biblioteca, parametro, upload, firmware, requestTime, importacao, mount];
