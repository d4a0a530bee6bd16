// Device links in the browser (issue 20): the asset's Equipamento tab offers Vincular (a picker of the company's
// registered devices that says which are in another vehicle) and Desvincular (ends the link, keeps the history);
// the spec's asset-tab paths /adm/cfg/equipamentos/{id}/reiniciar_simcard/{serial} and
// /adm/cfg/equipamentos/{id}/remover_equipamento/remover open their screens and act through the server.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, openSession, randomPlate, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/link-shots';

let s: AdminSession;
const api = (path: string, body?: unknown) => apiCall(s.ctx, baseUrl, path, body);
const stamp = String(Date.now()).slice(-10);
const LIVRE = `86720${stamp}`, OCUPADO = `86721${stamp}`;
const SIM = '5511988887777';
const placaA = randomPlate(), placaB = randomPlate();
const descA = `Caminhão Vínculo ${placaA}`, descB = `Carreta Vínculo ${placaB}`;
let ativoA: number, ativoB: number, idOcupado: number;
const shot = (name: string) => s.page.screenshot({ path: `${SHOTS}/${name}.png` });
const openLinks = async (ativo: number) => ((await api(`/api/equipamento_ativo/por_ativo/${ativo}`)).payload as { serial: string }[]).map((l) => l.serial);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await openSession(baseUrl, 'admin', adminPassword);
  ativoA = (await api('/api/ativo', { descricao: descA, placa: placaA })).id;
  ativoB = (await api('/api/ativo', { descricao: descB, placa: placaB })).id;
  await api('/api/equipamento', { serial: LIVRE, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  idOcupado = (await api('/api/equipamento', { serial: OCUPADO, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true, simcard: SIM })).id;
  await api('/api/equipamento_ativo', { serial: OCUPADO, ativoId: ativoB, dataInicio: '2024-01-01T00:00:00Z' });
});
afterAll(async () => { await s?.close(); });

describe("the asset's Equipamento tab: Vincular and Desvincular", () => {
  it('an asset without a device says so and offers Vincular equipamento', async () => {
    await s.page.goto(`${baseUrl}/tlm/fro/ativo/${ativoA}/equipamento?slide=2&tabGroup=equipamento`);
    await s.page.getByText('Nenhum equipamento vinculado a este ativo.').waitFor(T);
    await s.page.getByText(`Vincular escolhe um equipamento cadastrado nesta empresa e o liga ao ativo ${descA} (${placaA}) a partir de agora.`).waitFor(T);
    await s.page.getByRole('button', { name: 'Vincular equipamento' }).waitFor(T);
    await shot('equipamento-vazio');
  });

  it("the picker searches the company's devices, tells one in another vehicle and links a free one", async () => {
    await s.page.getByRole('button', { name: 'Vincular equipamento' }).click();
    const dialog = s.page.getByRole('dialog', { name: `Vincular equipamento ao ativo ${descA} (${placaA})` });
    await dialog.waitFor(T);
    const search = dialog.getByLabel('Pesquisar por serial, IMEI, modelo ou SIM card');
    await search.fill(OCUPADO);
    const busy = dialog.locator(`[data-serial="${OCUPADO}"]`);
    await busy.getByText(`No ativo ${descB} (${placaB})`).waitFor(T);
    await expect.poll(() => dialog.locator('[data-serial]').count(), T).toBe(1);
    await busy.click();
    await dialog.getByText(`O equipamento ${OCUPADO} está no ativo ${descB} (${placaB}): desvincule-o de lá antes de vinculá-lo ao ativo ${descA} (${placaA}).`).waitFor(T);
    expect(await dialog.getByRole('button', { name: 'Vincular', exact: true }).isDisabled()).toBe(true);
    await shot('picker-ocupado');
    await search.fill(LIVRE.slice(0, 12));
    const free = dialog.locator(`[data-serial="${LIVRE}"]`);
    await free.getByText('Livre').waitFor(T);
    await free.click();
    await dialog.getByText(new RegExp(`^Vincula o equipamento ${LIVRE} \\(.+\\) ao ativo ${descA} \\(${placaA}\\) a partir de agora`)).waitFor(T);
    await shot('picker-livre');
    await dialog.getByRole('button', { name: 'Vincular', exact: true }).click();
    await s.page.getByText(`Equipamento ${LIVRE} vinculado ao ativo ${descA} (${placaA})`).waitFor(T);
    await s.page.locator('[data-testid="vinculo-linha"]', { hasText: LIVRE }).waitFor(T);
    expect(await openLinks(ativoA)).toEqual([LIVRE]);
    await shot('equipamento-vinculado');
  });

  it('Desvincular ends the link after a confirmation naming the device and the vehicle; the history keeps it', async () => {
    await s.page.locator('[data-testid="vinculo-linha"]', { hasText: LIVRE }).getByRole('button', { name: 'Desvincular' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Desvincular equipamento' });
    await dialog.getByText(`Desvincular encerra agora o vínculo do equipamento ${LIVRE} com o ativo ${descA} (${placaA}).`, { exact: false }).waitFor(T);
    await shot('desvincular-confirmacao');
    await dialog.getByRole('button', { name: 'Desvincular' }).click();
    await s.page.getByText(`Equipamento ${LIVRE} desvinculado do ativo ${descA} (${placaA})`).waitFor(T);
    await s.page.getByText('Nenhum equipamento vinculado a este ativo.').waitFor(T);
    expect(await openLinks(ativoA)).toEqual([]);
    const history = (await api(`/api/equipamento_ativo/por_ativo/${ativoA}?historico=1`)).payload as { serial: string; dataFim: string | null }[];
    expect(history.map((l) => [l.serial, l.dataFim !== null])).toEqual([[LIVRE, true]]);
  });
});

describe("the spec's asset-tab paths below /adm/cfg/equipamentos", () => {
  it('/adm/cfg/equipamentos/{id}/reiniciar_simcard/{serial} names the SIM card and the vehicle and queues the restart', async () => {
    await s.page.goto(`${baseUrl}/adm/cfg/equipamentos/${ativoB}/reiniciar_simcard/${OCUPADO}`);
    const sentence = s.page.getByTestId('acao-frase');
    await sentence.waitFor(T);
    expect(await sentence.innerText()).toMatch(new RegExp(`^Reinicia o SIM card ${SIM} do equipamento ${OCUPADO} \\(.+\\), instalado no ativo ${descB} \\(${placaB}\\)\\. O comando entra na fila de processamento`));
    await shot('reiniciar-simcard');
    await s.page.getByRole('button', { name: 'Reiniciar SIM card' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Reiniciar SIM card' });
    await dialog.getByText('O equipamento será reiniciado. Deseja continuar?', { exact: false }).waitFor(T);
    await dialog.getByRole('button', { name: 'Reiniciar SIM card' }).click();
    await s.page.getByText(new RegExp(`^Reinício do SIM card enfileirado para o equipamento ${OCUPADO} \\(ativo ${descB} \\(${placaB}\\)\\): comando nº \\d+`)).waitFor(T);
    const fila = await api(`/api/equipamento/${OCUPADO}/fila_processamento`);
    expect(fila.map((r: { event: string; status: string }) => [r.event, r.status])).toEqual([['reboot', 'pendente']]);
  });

  it('/adm/cfg/equipamentos/{id}/remover_equipamento/remover ends the link of the device after its confirmation', async () => {
    await s.page.goto(`${baseUrl}/adm/cfg/equipamentos/${OCUPADO}/remover_equipamento/remover`);
    const sentence = s.page.getByTestId('acao-frase');
    await sentence.waitFor(T);
    expect(await sentence.innerText()).toMatch(new RegExp(`^Remove o equipamento ${OCUPADO} \\(.+\\) do ativo ${descB} \\(${placaB}\\): o vínculo é encerrado agora e fica no histórico`));
    await shot('remover-equipamento');
    await s.page.getByRole('button', { name: 'Remover equipamento' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Remover equipamento' });
    await dialog.getByText(`Deseja remover o equipamento ${OCUPADO} do ativo ${descB} (${placaB})? O vínculo em vigor será encerrado.`).waitFor(T);
    await dialog.getByRole('button', { name: 'Remover equipamento' }).click();
    await s.page.getByText(`Equipamento ${OCUPADO} removido do ativo ${descB} (${placaB})`).waitFor(T);
    expect(await openLinks(ativoB)).toEqual([]);
    // the same path by the device's id
    await s.page.goto(`${baseUrl}/adm/cfg/equipamentos/${idOcupado}/remover_equipamento/remover`);
    await s.page.getByText(`O equipamento ${OCUPADO} (`, { exact: false }).waitFor(T);
    await s.page.getByText('não está vinculado a nenhum ativo: não há vínculo para encerrar.', { exact: false }).waitFor(T);
    expect(await s.page.getByRole('button', { name: 'Remover equipamento' }).isDisabled()).toBe(true);
  });

  it('no page error', () => { expect(s.errors).toEqual([]); });
});
