// Every register below a hub (metadata kind: hub, e.g. /adm/sis/cadastro), walked from the generated route
// table as an administrator: the hub lists them; each list, add form and (when a row exists) edit form opens
// with its title and renders, with no error in the browser console. Screens open inside the running app (as its links
// do): a full page load per screen would cost ~1.5 s each over 200 screens.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Model } from '../../shared/model';
import { goInApp, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine
const model = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../server/generated/model.json'), 'utf8')) as Model;
const hubs = model.hubs ?? [];
const byKey = new Map(model.entities.map((e) => [e.key, e]));
const shots = process.env.E2E_SHOTS;

let s: AdminSession;
let page: Page;
beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  page = s.page;
});
afterAll(async () => { await s?.close(); });

async function firstId(key: string): Promise<number | undefined> {
  const token = decodeURIComponent((await s.ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}/api/${key}?range=[0,0]`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await r.json()) as { id: number }[])[0]?.id;
}

const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });

it('walks the system registers hub (/adm/sis/cadastro) among the hubs', () => {
  expect(hubs.find((h) => h.route === '/adm/sis/cadastro')?.members.length).toBeGreaterThanOrEqual(30);
});

describe.each(hubs.map((h) => [h.route, h] as const))('hub %s', (_route, hub) => {
  it('lists its registers by name and opens one', async () => {
    expect(hub.members.length).toBeGreaterThan(0);
    await goInApp(page, hub.route);
    await heading(hub.label).waitFor(T);
    const nav = page.getByRole('navigation', { name: hub.label });
    await expect.poll(() => nav.getByRole('link').allInnerTexts(), T).toEqual(hub.members.map((m) => m.label));
    if (shots) await page.screenshot({ path: `${shots}/hub-${hub.key}.png`, fullPage: true });
    await nav.getByRole('link', { name: hub.members[0].label, exact: true }).click();
    await page.waitForURL(`${baseUrl}${hub.members[0].route}`);
    await heading(hub.members[0].label).waitFor(T);
  });

  // The route table's screens of each member register: list, adicionar, :id/editar.
  const routes = model.routes.filter((r) => r.entity && hub.members.some((m) => m.key === r.entity) && !r.parent && ['list', 'create', 'edit'].includes(r.view));
  it.each(routes.map((r) => [r.path, r] as const))('%s opens with its title and renders', async (_p, r) => {
    const e = byKey.get(r.entity!)!;
    if (r.view === 'list') {
      await goInApp(page, r.path);
      // an alias route may carry its own title (e.g. /cfg/cfg/configuracao/vincular)
      const alias = r.alias !== undefined ? e.aliases?.[r.alias] : undefined;
      await heading(alias?.label ?? e.label.plural).waitFor(T);
      await expect.poll(async () => (await page.locator('table tbody tr').count()) + (await page.getByText('Nenhum item foi encontrado').count()), T).toBeGreaterThan(0);
      return;
    }
    let url = r.path;
    if (r.view === 'edit') {
      const id = await firstId(e.key);
      if (id === undefined) return; // no row to edit in this database (the add form is walked above)
      url = r.path.replace(':id', String(id));
    }
    await goInApp(page, url);
    await heading(`${r.view === 'create' ? 'Adicionar' : 'Editar'} ${e.label.singular}`).waitFor(T);
    const first = e.form.sections[0]?.fields[0] ?? e.fields.find((f) => !f.system && !f.readOnly && !f.hidden)!.name;
    const label = e.fields.find((f) => f.name === first)!.label;
    await expect.poll(() => page.getByText(label, { exact: false }).count(), T).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('button', { name: 'Salvar' }).count(), T).toBe(1);
    if (shots && r.view === 'create' && e.key === 'contato') await page.screenshot({ path: `${shots}/form-${e.key}.png`, fullPage: true });
  });

  it('logs no errors in the browser console', () => {
    expect(s.errors).toEqual([]);
  });
});
