// The core's job routes (register tarefa's list, one and cancela are the generated CRUD of metadata/adm/tarefa.yaml):
// POST /api/tarefa/inicia/{tipo} starts a job of a declared kind with the body as its data (the kind's key: 403).
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { route } from '../core/pipeline.ts';
import { readPayload } from '../crud/actions.ts';
import { jobKind, queued, startJob } from './index.ts';
import { requestEm } from '../db/context.ts';

export default function tarefas(api: Hono<AppEnv>): void {
  route(api, 'post', '/tarefa/inicia/:tipo', { permission: (c) => [jobKind(c.req.param('tipo')!).permission], scope: 'empresa' }, async (c) => {
    const { row, change } = await startJob(requestEm(c), c.get('session'), c.req.param('tipo')!, await readPayload(c.req));
    queued(change);
    return c.json(row, 201);
  });
}
