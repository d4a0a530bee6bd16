// Special module screens in the browser: the keyboard's command console /esp/tcl/comandos/:serial (Mensagens,
// Macros with the enviar_macro payload dialog, Logs, Informações), the satellite panel /esp/sat/painel, and the
// company-bound edit route /tlm/cee/prestadoras/:companyId/:id/editar.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, openSession, randomPlate, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine

let s: AdminSession;
const tag = String(Date.now()).slice(-8);
const serial = `TK${tag}`;
const api = (path: string, body?: unknown) => apiCall(s.ctx, baseUrl, path, body);
const tabs = () => s.page.getByRole('tablist', { name: 'Abas' }).getByRole('tab').allInnerTexts();

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  await api('/api/dispositivo_teclado', { descricao: `Teclado E2E ${tag}`, serial, deviceModel: 'TK-10', ativado: true });
  await api('/api/macro_teclado', { descricao: `Parada E2E ${tag}`, codigo: 100 + (Number(tag) % 150), texto: `Parada programada ${tag}`, exigeResposta: false });
});
afterAll(async () => { await s?.close(); });

describe('keyboard command console', () => {
  it('opens on Mensagens with every tab, and sends a message from the tab', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/esp/tcl/comandos/${serial}`);
    await page.waitForURL(`${baseUrl}/esp/tcl/comandos/${serial}/mensagens`);
    await expect.poll(tabs, T).toEqual(['Mensagens', 'Logs', 'Informações']);
    await page.locator('h1', { hasText: `Comandos: Teclado E2E ${tag}` }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(0);
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await page.getByLabel('Mensagem').fill(`Volte à base ${tag}`);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.goto(`${baseUrl}/esp/tcl/comandos/${serial}/mensagens`);
    await page.locator('tbody tr', { hasText: `Volte à base ${tag}` }).waitFor(T);
  });

  it('Macros: picks a library macro in the ATENÇÃO dialog and queues it as a pending message', async () => {
    const { page } = s;
    // an action of the record's toolbar, not a tab
    await page.getByRole('toolbar', { name: 'Ações do registro' }).getByRole('button', { name: 'Enviar macro' }).click(T);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Deseja enviar a macro ao teclado? Ela ficará pendente até o dispositivo confirmar a entrega.').waitFor(T);
    await dialog.getByLabel('Macro').fill(`Parada E2E ${tag}`);
    await page.getByRole('option', { name: `Parada E2E ${tag}` }).click(T);
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Ação executada').first().waitFor(T);
    await page.getByRole('tab', { name: 'Mensagens' }).click();
    const row = page.locator('tbody tr', { hasText: `Parada programada ${tag}` });
    await row.waitFor(T);
    expect(await row.innerText()).toContain('Pendente');
  });

  it('Logs: the history of the keyboard and its messages', async () => {
    const { page } = s;
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.waitForURL(`${baseUrl}/esp/tcl/comandos/${serial}/logs`);
    await page.locator('tbody tr', { hasText: `Parada programada ${tag}` }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(3); // device created, two messages
    expect(s.errors).toEqual([]);
  });
});

describe('satellite panel', () => {
  it("lists the company's terminals (vehicle, last communication, messages) and sends through the command queue", async () => {
    const { page } = s;
    const sat = `30043406${tag.slice(-7)}`;
    await api('/api/equipamento', { serial: sat, tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
    const placa = randomPlate();
    const ativo = await api('/api/ativo', { descricao: `Bitrem satelital ${tag}`, placa });
    const veiculo = `Bitrem satelital ${tag} (${placa})`;
    await api('/api/equipamento_ativo', { serial: sat, ativoId: ativo.id, dataInicio: new Date(Date.now() - 60_000).toISOString() });
    await api('/api/mensagem_satelite', { serial: sat, mensagem: 'Posição recebida', direcao: 'recebida', situacao: 'entregue', dataHora: '2026-11-20T10:00:00Z' });
    await page.goto(`${baseUrl}/esp/sat/painel`);
    await page.locator('h1', { hasText: 'Painel satelital' }).first().waitFor(T);
    const row = page.locator('tbody tr', { hasText: sat });
    await row.waitFor(T);
    expect(await row.innerText()).toContain(veiculo);
    await page.getByRole('button', { name: 'Enviar mensagem' }).click(T);
    const dialog = page.getByRole('dialog', { name: 'Enviar mensagem' });
    await dialog.getByRole('combobox', { name: 'Terminal' }).click();
    await page.getByRole('option', { name: `${sat} — ${veiculo}` }).click(T);
    await dialog.getByRole('textbox', { name: 'Mensagem' }).fill(`Retorne à base ${tag}`);
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText(`Mensagem posta na fila de comandos do terminal ${sat} (${veiculo})`).waitFor(T);
    await expect.poll(() => row.innerText(), T).toContain('Aguardando envio');
    const fila = await api(`/api/equipamento/${sat}/fila_processamento`);
    expect(fila.map((r: any) => [r.event, r.value?.mensagem, r.status])).toEqual([['mensagemSatelite', `Retorne à base ${tag}`, 'pendente']]);
    expect(s.errors).toEqual([]);
  });
});

describe('prestadora by company and id', () => {
  it('opens the form in its company, offers to switch from another one, refuses a company the user lacks', async () => {
    const { page } = s;
    const me = await api('/api/auth/get_session');
    const prest = await api('/api/prestadora', { nome: `Prestadora E2E ${tag}` });
    const empresa = prest.empresaId as number;
    await page.goto(`${baseUrl}/tlm/cee/prestadoras/${empresa}/${prest.id}/editar`);
    await expect.poll(() => page.getByLabel('Nome').first().inputValue(), T).toBe(`Prestadora E2E ${tag}`);
    const empresas = ((me.payload?.user ?? me.payload ?? me).empresas ?? []) as { id: number; fantasia: string }[];
    const other = empresas.find((e) => e.id !== empresa)!;
    expect(other).toBeDefined(); // the seeded administrator works for two companies
    await page.goto(`${baseUrl}/tlm/cee/prestadoras/${other.id}/${prest.id}/editar`);
    await page.getByText(`Este registro pertence à empresa ${other.fantasia}. Troque a empresa ativa para abri-lo.`).waitFor(T);
    await page.getByRole('button', { name: `Trocar para ${other.fantasia}` }).waitFor(T);
    await page.goto(`${baseUrl}/tlm/cee/prestadoras/999999/${prest.id}/editar`);
    await page.getByText('Você não tem acesso à empresa deste registro.').waitFor(T);
    expect(s.errors).toEqual([]);
  });
});
