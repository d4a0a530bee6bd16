// Named calls (spec section 7). Each module: `export default (api: Hono<AppEnv>) => void`.
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import usuario from './usuario.ts';
import meta from './meta.ts';
import porEmpresa from './por_empresa.ts';
import home from './home.ts';
import biblioteca from './biblioteca.ts';
import ingest from '../ingest/calls.ts';

export const calls: ((api: Hono<AppEnv>) => void)[] = [usuario, meta, porEmpresa, home, ingest, biblioteca];
