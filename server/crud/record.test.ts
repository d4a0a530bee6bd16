// Record page tabs (metadata record) on the server: what each tab targets is refused without the tab's key —
// Motorista temporário (nested list + its tab key), Controle de acesso (provider acesso_ativo), the equipment's
// Reiniciar SIM card (queues reboot) and Remover equipamento (ends the links in force).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
let ativo: number, ativoB: number, motorista: number, equipamento: number;
const serial = '865000111222333';

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => r.id);
  ativo = (await json(await admin.post('/api/ativo', { descricao: 'Ativo abas', placa: 'ABA1A11' }))).id;
  ativoB = Number((await ts.insert('ativo', { empresaId: B, descricao: 'Ativo de B', placa: 'ABB1A11' })).id);
  motorista = (await json(await admin.post('/api/motorista', { nome: 'Motorista Abas', documento: '222.333.444-55' }))).id;
  equipamento = (await json(await admin.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true }))).id;
  expect((await admin.post('/api/equipamento_ativo', { serial, ativoId: ativo, dataInicio: '2024-01-01T00:00:00Z' })).status).toBe(201);
});
afterAll(async () => { await ts?.stop(); });

describe('Motorista temporário (list tab with its own key)', () => {
  it('assigns a driver to the asset for a period, listed under the asset only', async () => {
    const res = await admin.post(`/api/ativo/${ativo}/motorista_temporario`, { motoristaId: motorista, dataInicio: '2026-01-01T08:00:00Z', dataFim: '2026-01-02T18:00:00Z', ativoId: ativoB });
    expect(res.status).toBe(201);
    expect((await res.json()).ativoId).toBe(ativo);
    const list = await json(await admin.get(`/api/ativo/${ativo}/motorista_temporario`));
    expect(list.map((r: any) => [r.ativoId, r.motoristaId, r.dataFim])).toEqual([[ativo, motorista, '2026-01-02T18:00:00.000Z']]);
    expect((await admin.get(`/api/ativo/${ativoB}/motorista_temporario`)).status).toBe(404);
  });

  it('is refused without tlm.fro.ativo.motorista_temporario even with the list keys', async () => {
    const ambienteId = admin.user.ambienteId;
    const keys = ['tlm.fro.ativo.visualizar', 'tlm.fro.motorista_temporario.lista', 'tlm.fro.motorista_temporario.adicionar'];
    await ts.createUser({ login: 'semaba', ambienteId, empresas: [A], permissoes: keys });
    await ts.createUser({ login: 'comaba', ambienteId, empresas: [A], permissoes: [...keys, 'tlm.fro.ativo.motorista_temporario'] });
    const sem = await ts.login('semaba', 'senha-teste-123');
    const com = await ts.login('comaba', 'senha-teste-123');
    expect((await sem.get(`/api/ativo/${ativo}/motorista_temporario`)).status).toBe(403);
    expect((await sem.post(`/api/ativo/${ativo}/motorista_temporario`, { motoristaId: motorista, dataInicio: '2026-02-01T08:00:00Z', dataFim: '2026-02-02T08:00:00Z' })).status).toBe(403);
    expect((await com.get(`/api/ativo/${ativo}/motorista_temporario`)).status).toBe(200);
  });
});

describe('Controle de acesso (provider acesso_ativo)', () => {
  it('lists the users of the company who may see the asset and through what', async () => {
    const ambienteId = admin.user.ambienteId;
    const cargo = Number((await ts.insert('cargo', { empresaId: A, descricao: 'Frota leitura', permissoes: ['tlm.fro.ativo.visualizar'] })).id);
    const u = await ts.createUser({ login: 'viaCargo', ambienteId, empresas: [A], permissoes: [] });
    await ts.em().getConnection().execute('UPDATE usuario SET cargos = ? WHERE id = ?', [`{${cargo}}`, u]);
    await ts.createUser({ login: 'semAtivo', ambienteId, empresas: [A], permissoes: ['tlm.fro.garagem.lista'] });
    await ts.createUser({ login: 'outraEmpresa', ambienteId, empresas: [B], permissoes: ['tlm.fro.ativo.visualizar'] });
    const res = await admin.get(`/api/acesso_ativo/${ativo}?range=${encodeURIComponent('[0,99]')}`);
    expect(res.status).toBe(200);
    const rows = await res.json();
    const by = Object.fromEntries(rows.map((r: any) => [r.login, r.origem]));
    expect(by.viaCargo).toBe('Cargo Frota leitura');
    expect(by[ADMIN.login]).toBeTruthy();
    expect(by.semAtivo).toBeUndefined();
    expect(by.outraEmpresa).toBeUndefined();
    expect((await admin.get(`/api/acesso_ativo/${ativoB}`)).status).toBe(404);
  });

  it('needs tlm.fro.ativo.controle_acesso', async () => {
    await ts.createUser({ login: 'semcontrole', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.visualizar', 'tlm.fro.ativo.lista'] });
    const u = await ts.login('semcontrole', 'senha-teste-123');
    expect((await u.get(`/api/acesso_ativo/${ativo}`)).status).toBe(403);
  });
});

describe("the equipment's actions (its record tabs, also per serial in the asset's Equipamento tab)", () => {
  it('Reiniciar SIM card queues reboot for the serial', async () => {
    const res = await admin.post(`/api/equipamento/${equipamento}/reiniciar_simcard`, {});
    expect(res.status).toBe(201);
    expect((await res.json()).map((r: any) => [r.serial, r.event, r.status])).toEqual([[serial, 'reboot', 'pendente']]);
  });

  it('Remover equipamento ends the link in force; a second time is 422', async () => {
    const res = await admin.post(`/api/equipamento/${equipamento}/remover_equipamento`, {});
    expect(res.status).toBe(200);
    const [link] = await res.json();
    expect(link.serial).toBe(serial);
    expect(Date.parse(link.dataFim)).toBeLessThanOrEqual(Date.now());
    expect((await json(await admin.get(`/api/ativo/${ativo}`))).equipamentosList ?? null).toBeNull();
    const again = await admin.post(`/api/equipamento/${equipamento}/remover_equipamento`, {});
    expect(again.status).toBe(422);
    expect((await again.json()).msg).toBe('O equipamento não está vinculado a nenhum ativo');
  });

  it('are refused without their keys', async () => {
    await ts.createUser({ login: 'soequip', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['adm.cfg.equipamentos.lista', 'adm.cfg.equipamentos.visualizar'] });
    const u = await ts.login('soequip', 'senha-teste-123');
    expect((await u.post(`/api/equipamento/${equipamento}/reiniciar_simcard`, {})).status).toBe(403);
    expect((await u.post(`/api/equipamento/${equipamento}/remover_equipamento`, {})).status).toBe(403);
  });
});
