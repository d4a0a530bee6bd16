// The ambiente picker of the app bar: shown beside the company picker only to a user who may enter more than one
// ambiente; choosing another ambiente opens the user's company there (the company picker then lists that
// ambiente's companies only). A company in a second ambiente is made in the database (no screen moves a company
// between ambientes); the ambiente is deactivated afterwards, so later files see one ambiente again.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import pg from 'pg';
import { apiCall, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const leitorPassword = inject('leitorPassword');
const T = { timeout: 30_000 };
const tag = Date.now().toString(36).slice(-5);
const AMB = `Ambiente E2E ${tag}`;
const EMP = `Empresa E2E ${tag}`;
const LOGIN = `amb.e2e.${tag}`;
const SENHA = `Senha-${tag}-123`;

let ambId: number;
let s: AdminSession | undefined;

async function put(ctx: AdminSession, path: string, body: unknown) {
  const token = decodeURIComponent((await ctx.ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}${path}`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${(await r.json()).msg}`);
}

beforeAll(async () => {
  const admin = await openSession(baseUrl, 'admin', adminPassword);
  try {
    const me = (await apiCall(admin.ctx, baseUrl, '/api/auth/get_session')).payload.user;
    ambId = (await apiCall(admin.ctx, baseUrl, '/api/ambiente', { descricao: AMB, ativo: true })).id;
    const emp = (await apiCall(admin.ctx, baseUrl, '/api/empresa', { fantasia: EMP, status: 'ativa' })).id as number;
    await apiCall(admin.ctx, baseUrl, '/api/usuario', { nome: `Usuário ${tag}`, login: LOGIN, senha: SENHA, empresas: [me.empresaAtiva], empresaAtiva: me.empresaAtiva, permissoesExtras: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'] });
    // What no screen does: the company moves to the new ambiente and the user gets it too.
    const db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
    await db.connect();
    try {
      await db.query('update empresa set ambiente_id = $1 where id = $2', [ambId, emp]);
      await db.query('update usuario set empresas = array_append(empresas, $1) where login = $2', [emp, LOGIN]);
    } finally {
      await db.end();
    }
  } finally {
    await admin.close();
  }
});

afterAll(async () => {
  await s?.close();
  const admin = await openSession(baseUrl, 'admin', adminPassword);
  try {
    if (ambId) await put(admin, `/api/ambiente/${ambId}`, { descricao: AMB, ativo: false });
  } finally {
    await admin.close();
  }
});

it('switches ambiente from the app bar, and the company picker follows', async () => {
  s = await openSession(baseUrl, LOGIN, SENHA);
  const { page } = s;
  const ambiente = page.getByRole('combobox', { name: 'Ambiente' });
  const empresa = page.getByRole('combobox', { name: 'Empresa' });
  await ambiente.waitFor(T);
  await expect.poll(() => ambiente.innerText(), T).toBe('Principal');
  const first = await empresa.innerText();
  expect(first).not.toBe(EMP);
  await ambiente.click();
  const options = page.getByRole('option');
  await expect.poll(() => options.allInnerTexts(), T).toEqual([AMB, 'Principal']);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/ambiente-menu.png` });
  await page.getByRole('option', { name: AMB }).click();
  await expect.poll(() => empresa.innerText(), T).toBe(EMP);
  await expect.poll(() => ambiente.innerText(), T).toBe(AMB);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/ambiente.png` });
  // Only this ambiente's companies: one, so the company picker is not a choice.
  expect(await empresa.getAttribute('aria-disabled')).toBe('true');
  const sessao = (await apiCall(s.ctx, baseUrl, '/api/adm/ambiente/corrente')).payload;
  expect(sessao).toMatchObject({ id: ambId, descricao: AMB });
  // Back: the first company of the first ambiente again.
  await ambiente.click();
  await page.getByRole('option', { name: 'Principal' }).click();
  await expect.poll(() => empresa.innerText(), T).toBe(first);
  expect(s.errors).toEqual([]);
});

it('is hidden for a user of one ambiente', async () => {
  const leitor = await openSession(baseUrl, 'leitor', leitorPassword);
  try {
    const { page } = leitor;
    // Once the page has its list (one ambiente) and the company picker is drawn, no ambiente picker.
    const lista = page.waitForResponse((r) => r.url().endsWith('/api/adm/ambiente/lista'), T);
    await page.reload();
    expect((await (await lista).json()).payload).toHaveLength(1);
    await page.getByRole('combobox', { name: 'Empresa' }).waitFor(T);
    expect(await page.getByRole('combobox', { name: 'Ambiente' }).count()).toBe(0);
  } finally {
    await leitor.close();
  }
});
