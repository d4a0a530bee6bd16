// PUT /api/usuario { ui }: the column choices the server keeps are those the chooser may make — at least one column
// selected, only the list's own columns, only routes with a chooser (spec 4: at least one column stays selected).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choiceColumns } from '../../shared/column-choices.ts';
import { LEITOR, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let leitor: Api;
const ATIVO = '/tlm/fro/ativo';
const col = (key: string, selected: boolean) => ({ key, label: key, selected });

beforeAll(async () => {
  ts = await startTestServer();
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
});
afterAll(async () => { await ts?.stop(); });

const put = async (ui: unknown) => {
  const r = await leitor.put('/api/usuario', { _id: leitor.user.id, ui });
  return { status: r.status, msg: (await json(r)).msg as string };
};
const stored = async () => (await json(await leitor.get('/api/auth/get_session'))).payload.user.ui;

describe('PUT /api/usuario ui', () => {
  it('keeps a choice with a selected column', async () => {
    const ui = { [ATIVO]: [col('placa', true), col('descricao', false)] };
    expect(await put(ui)).toEqual({ status: 200, msg: 'Preferências salvas' });
    expect((await stored())[ATIVO]).toEqual(ui[ATIVO]);
  });

  it('refuses a choice without any selected column, keeping the stored one', async () => {
    expect(await put({ [ATIVO]: [col('placa', false), col('descricao', false)] }))
      .toEqual({ status: 400, msg: `Ao menos uma coluna deve ficar selecionada (${ATIVO})` });
    expect(await put({ [ATIVO]: [] })).toEqual({ status: 400, msg: `Ao menos uma coluna deve ficar selecionada (${ATIVO})` });
    expect((await stored())[ATIVO]).toEqual([col('placa', true), col('descricao', false)]);
  });

  it('refuses unknown columns, repeated columns, unknown routes and other shapes', async () => {
    expect(await put({ [ATIVO]: [col('placa', true), col('senha', false)] })).toEqual({ status: 400, msg: `Coluna desconhecida em ${ATIVO}: senha` });
    expect(await put({ [ATIVO]: [col('placa', true), col('placa', false)] })).toEqual({ status: 400, msg: `Coluna repetida em ${ATIVO}: placa` });
    expect(await put({ '/nao/existe': [col('placa', true)] })).toEqual({ status: 400, msg: 'Rota sem seleção de colunas: /nao/existe' });
    expect((await put({ [ATIVO]: { placa: true } })).status).toBe(400);
    expect((await put({ [ATIVO]: [{ key: 'placa', selected: 'sim' }] })).status).toBe(400);
  });

  it('accepts every list the runtime offers a chooser on (entities, provider screens and tabs), all columns shown', async () => {
    const routes = choiceColumns(ts.model);
    expect(routes.get('/adm/bib/biblioteca_de_eventos/eventos')).toContain('event');
    expect(routes.has('/tlm/fro/ativo/:id/controle_de_acesso')).toBe(true);
    const ui = Object.fromEntries([...routes].map(([r, names]) => [r, [...names].map((n) => col(n, true))]));
    expect(await put(ui)).toEqual({ status: 200, msg: 'Preferências salvas' });
  });

  it('another user\'s choices: 403; no session: 401', async () => {
    expect((await leitor.put('/api/usuario', { _id: leitor.user.id + 1, ui: { [ATIVO]: [col('placa', true)] } })).status).toBe(403);
    expect((await ts.fetch('/api/usuario', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ui: {} }) })).status).toBe(401);
  });
});
