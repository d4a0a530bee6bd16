// Tachograph screens in the browser (modules/tacografo): a simulated transfer (frames posted the way the VDO bridge
// posts them) shows its file in /rel/rel/relatorios_registros/ultimos_registros_tacografo, whose Baixar link downloads
// the same bytes; /rel/rel/relatorios_registros/vdo_onboard lists the device's processing, log_tacografo the transfer,
// and a queued upload command shows in /cfg/dia/comandos_vdo_onboard. Runs as a user of the demo's second company
// (its rows are counted by no other test).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, secondCompanySession, type AdminSession } from './browser';
import { daysFromEpoch, splitFile } from '../../protocol/tacografo/index.ts';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/tacografo';

let s: AdminSession;
const tag = String(Date.now()).slice(-6);
const serial = `VDOT${tag}`;
const FILE = Buffer.from(Array.from({ length: 6000 }, (_, i) => (i * 13 + 1) & 0xff));
const fileName = `${serial}_7d_20261126_${Number(tag)}.ddd`;
let placa = '', veiculo = '';

const api = (path: string, body?: unknown) => apiCall(s.ctx, baseUrl, path, body);

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `tacografo${tag}`);
  await api('/api/equipamento', { serial, tecnologia: 'vdo', modelo: 'vdo_telemetria', ativado: true });
  const [ativo] = await api(`/api/ativo?range=${encodeURIComponent('[0,0]')}`);
  placa = ativo.placa;
  veiculo = ativo.descricao;
  await api('/api/equipamento_ativo', { serial, ativoId: ativo.id, dataInicio: new Date(Date.now() - 3_600_000).toISOString() });
  // Blocks out of order with a repeat, as the bridge may post them.
  const q = splitFile(FILE, { transferId: Number(tag), fileType: '7d', referenceDate: daysFromEpoch('2026-11-26'), blockSize: 1000 }).map((b) => b.toString('hex'));
  const r = await api('/api/tacografo/quadros', { serial, quadros: [q[5], q[0], q[2], q[1], q[2], q[4], q[3]] });
  expect(r.payload.transferencias[0]).toMatchObject({ situacao: 'concluida', arquivo: { nomeArquivo: fileName, tamanho: 6000 } });
  await api('/api/tacografo/comando', { serial, comando: 'upload', tipoArquivo: '24h', dataReferencia: '2026-11-27' });
}, 60_000);
afterAll(async () => { await s?.close(); });

describe('tachograph screens', () => {
  it('últimos registros: the file in the list, downloaded by its Baixar link with the same bytes', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/rel/rel/relatorios_registros/ultimos_registros_tacografo`);
    const row = page.locator('tbody tr', { hasText: fileName });
    await row.waitFor(T);
    await expect.poll(() => row.innerText()).toContain('7 dias');
    expect(await row.innerText()).toContain(veiculo);
    expect(await row.innerText()).toContain(placa);
    await page.screenshot({ path: `${SHOTS}/ultimos_registros_tacografo.png` });
    const download = page.waitForEvent('download', T);
    await row.getByRole('link', { name: 'Baixar' }).click();
    const d = await download;
    expect(d.suggestedFilename()).toBe(fileName);
    expect(fs.readFileSync((await d.path())!).equals(FILE)).toBe(true);
  });

  it('vdo_onboard: the device with its files; the log shows the transfer; comandos_vdo_onboard the queued upload', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/rel/rel/relatorios_registros/vdo_onboard`);
    const row = page.locator('tbody tr', { hasText: serial });
    await row.waitFor(T);
    await expect.poll(() => row.innerText()).toContain('VDO Telemetria');
    expect(await row.innerText()).toContain(placa);
    await page.screenshot({ path: `${SHOTS}/vdo_onboard.png` });
    await page.goto(`${baseUrl}/rel/rel/relatorios_registros/log_tacografo`);
    await page.locator('tbody tr', { hasText: 'Arquivo recebido' }).filter({ hasText: fileName }).waitFor(T);
    // the log names the truck by vehicle and plate (the serial is one click away, in the columns menu)
    await page.locator('tbody tr', { hasText: 'Comando enfileirado' }).filter({ hasText: placa }).waitFor(T);
    await page.screenshot({ path: `${SHOTS}/log_tacografo.png` });
    await page.goto(`${baseUrl}/cfg/dia/comandos_vdo_onboard/comandos`);
    await page.locator('tbody tr', { hasText: serial }).filter({ hasText: 'Tacógrafo: enviar arquivo' }).waitFor(T);
    await page.screenshot({ path: `${SHOTS}/comandos_vdo_onboard.png` });
    expect(s.errors).toEqual([]);
  });

  it("transferências → Enviar comando: the dialog's form (an interrupt's reason code beside the row's motivo text) queues the interrupt", async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/rel/rel/relatorios_registros/transferencias_tacografo`);
    const row = page.locator('tbody tr', { hasText: serial });
    await row.waitFor(T);
    await row.getByRole('button').last().click();
    await page.getByRole('menuitem', { name: /Enviar comando/ }).click();
    const dlg = page.getByRole('dialog');
    await expect.poll(() => dlg.innerText(), T).toContain(`equipamento ${serial}), transferência ${Number(tag)}: arquivo 7 dias de 26/11/2026`);
    const pick = async (label: RegExp, option: string) => {
      await dlg.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await pick(/^Comando/, 'Interromper transferência');
    await pick(/^Tipo de cancelamento/, 'RS232');
    await pick(/^Motivo/, 'USB: BVDR ocupado');
    await page.screenshot({ path: `${SHOTS}/transferencias_enviar_comando.png` });
    await dlg.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(() => page.getByRole('alert').allInnerTexts(), T).toContainEqual(expect.stringContaining(
      `Interromper transferência (cancelamento RS232, motivo USB: BVDR ocupado) — arquivo 7 dias de 26/11/2026, transferência ${Number(tag)}: enfileirado para o veículo ${veiculo} — ${placa} (equipamento ${serial})`));
    const [cmd] = await api(`/api/diagnostico/comandos_vdo/comandos?sort=${encodeURIComponent('["id","DESC"]')}&range=${encodeURIComponent('[0,0]')}`);
    expect(cmd).toMatchObject({ serial, event: 'Tacógrafo: interromper transferência', status: 'Pendente', value: { tipoArquivo: '7d', dataReferencia: '2026-11-26', cancelamento: 'rs232', motivo: 5, transferencia: Number(tag) } });
    expect(s.errors).toEqual([]);
  });
});
