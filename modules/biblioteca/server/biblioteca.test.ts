// Library calls over real HTTP (modules/biblioteca/server/biblioteca.ts): ra-data-simple-rest lists of the catalogues of
// metadata/catalogos (counts and keys checked against the YAML files themselves), q/type/undescribed filters,
// sort, range, 401 without a session, 403 without the screen key, 404 in pt-BR for unknown names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

interface Entry { event: string; code?: number | string; message?: string; description: string; subtitle: string; type: string; unit: { short: string; full: string }; undescribed?: boolean }
const yaml = (name: string): Entry[] => parse(readFileSync(join(import.meta.dirname, '../../../metadata/catalogos', `${name}.yaml`), 'utf8')).entries;
const Q = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`).join('&');

let ts: TestServer;
let admin: Api;
let leitor: Api;
let semPermissao: Api;
let soTelemetria: Api;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  const base = { ambienteId: admin.user.ambienteId ?? 1, empresas: [admin.empresaAtiva] };
  await ts.createUser({ ...base, login: 'sem_biblioteca', senha: 'senha-teste-123', permissoes: ['tlm.fro.ativo.lista'] });
  await ts.createUser({ ...base, login: 'so_telemetria', senha: 'senha-teste-123', permissoes: ['tlm.cfg.biblioteca.lista'] });
  semPermissao = await ts.login('sem_biblioteca', 'senha-teste-123');
  soTelemetria = await ts.login('so_telemetria', 'senha-teste-123');
});
afterAll(async () => { await ts?.stop(); });

const total = (res: Response) => Number(res.headers.get('content-range')!.split('/').pop());

describe('GET /api/biblioteca/tecnologias', () => {
  it('lists queclink (its @Track models), legacy and the camera family with their list summaries', async () => {
    const res = await admin.get('/api/biblioteca/tecnologias');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('biblioteca.tecnologias 0-2/3');
    const rows = await res.json();
    expect(rows.map((r: any) => r.id)).toEqual(['queclink', 'legacy', 'vdo']);
    expect(rows[0].modelos.map((m: any) => m.id)).toEqual(['gv50cg', 'gv58cg', 'gv350ceu', 'gv300', 'gv310lau', 'gv350m', 'gv55', 'gv55w', 'gv56', 'gv600m', 'gl300', 'gl300m', 'cv100lg']);
    expect(rows[1].modelos.map((m: any) => m.id)).toEqual(['legacy']);
    expect(rows[0].listas.eventos.total).toBe(yaml('queclink-eventos').length);
    expect(rows[0].listas.parametros.total).toBe(yaml('queclink-parametros').length);
    expect(rows[1].listas.eventos.semDescricao).toBe(yaml('legacy-eventos').filter((e) => e.undescribed).length);
    expect(rows[1].listas.eventos.semDescricao).toBeGreaterThan(100);
    expect(rows[1].listas.eventos.colunas).toContain('codigo');
    expect(rows[2].listas.eventos.colunas).toEqual(expect.arrayContaining(['codigo', 'risco']));
    expect(rows[0].listas.parametros.tipos).toEqual(expect.arrayContaining(['percentage', 'voltage', 'boolean']));
  });
});

describe('GET /api/biblioteca/{tecnologia}/{modelo}/eventos|parametros', () => {
  it('answers the queclink events of gv58cg in catalogue order, GTIGN = ignitionOn "Ignição ligada"', async () => {
    const expected = yaml('queclink-eventos');
    const res = await admin.get(`/api/biblioteca/queclink/gv58cg/eventos?${Q({ range: [0, 999] })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe(`biblioteca.queclink.gv58cg.eventos 0-${expected.length - 1}/${expected.length}`);
    expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
    const rows = await res.json();
    expect(rows.map((r: any) => r.event)).toEqual(expected.map((e) => e.event));
    const ign = rows.find((r: any) => r.message === 'GTIGN');
    expect(ign).toMatchObject({ id: 'queclink-eventos:ignitionOn', event: 'ignitionOn', description: 'Ignição ligada', subtitle: 'Ignição', type: 'primary', undescribed: false });
    // the one undescribed @Track key keeps an empty description (no invented text)
    expect(rows.find((r: any) => r.event === 'deviceRemoved')).toMatchObject({ description: '', undescribed: true });
  });

  it('pages with range (default 25) and answers the parameters with their units', async () => {
    const expected = yaml('queclink-parametros');
    const first = await admin.get('/api/biblioteca/queclink/gv350ceu/parametros');
    expect(first.headers.get('content-range')).toBe(`biblioteca.queclink.gv350ceu.parametros 0-24/${expected.length}`);
    expect(await first.json()).toHaveLength(25);
    const second = await admin.get(`/api/biblioteca/queclink/gv350ceu/parametros?${Q({ range: [25, 49] })}`);
    const rows = await second.json();
    expect(expected.length).toBeGreaterThan(50); // a third page exists
    expect(second.headers.get('content-range')).toBe(`biblioteca.queclink.gv350ceu.parametros 25-49/${expected.length}`);
    expect(rows.map((r: any) => r.event)).toEqual(expected.slice(25, 50).map((e) => e.event));
    const all = await (await admin.get(`/api/biblioteca/queclink/gv50cg/parametros?${Q({ range: [0, 99] })}`)).json();
    expect(all.find((r: any) => r.event === 'externalPowerSupplyVoltage').unit).toEqual({ value: 'volts', full: 'Volts', short: 'V' });
  });

  it('q searches key, description, subtitle and @Track message, case and accent insensitive', async () => {
    const byQ = async (q: string) => (await (await admin.get(`/api/biblioteca/queclink/gv58cg/eventos?${Q({ filter: { q }, range: [0, 999] })}`)).json()).map((r: any) => r.event);
    expect(await byQ('GTIGN')).toEqual(['ignitionOn']);
    expect(await byQ('ignicao ligada')).toEqual(['ignitionOn']);
    const viaSubtitle = yaml('queclink-eventos').filter((e) => e.subtitle === 'Condução').map((e) => e.event);
    expect(viaSubtitle.length).toBeGreaterThan(3);
    expect(await byQ('CONDUÇÃO')).toEqual(viaSubtitle);
    expect(await byQ('harshbr')).toEqual(['harshBraking', 'harshBrakingTurn']);
    const none = await admin.get(`/api/biblioteca/queclink/gv58cg/eventos?${Q({ filter: { q: 'nada-disso' } })}`);
    expect(await none.json()).toEqual([]);
    expect(none.headers.get('content-range')).toBe('biblioteca.queclink.gv58cg.eventos 0-0/0');
  });

  it('filters by type and by undescribed', async () => {
    const legacy = yaml('legacy-eventos');
    const sem = await admin.get(`/api/biblioteca/legacy/legacy/eventos?${Q({ filter: { undescribed: true }, range: [0, 999] })}`);
    expect(total(sem)).toBe(legacy.filter((e) => e.undescribed).length);
    expect((await sem.json()).every((r: any) => r.description === '' && r.undescribed)).toBe(true);
    const com = await (await admin.get(`/api/biblioteca/legacy/legacy/eventos?${Q({ filter: { undescribed: false }, range: [0, 999] })}`)).json();
    expect(com.map((r: any) => r.code)).toEqual(legacy.filter((e) => !e.undescribed).map((e) => e.code));
    expect(com.find((r: any) => r.code === 205)).toMatchObject({ event: 'primary_205', description: 'Tacógrafo: transferência de arquivo' });
    const params = yaml('legacy-parametros');
    const volts = await (await admin.get(`/api/biblioteca/legacy/legacy/parametros?${Q({ filter: { type: ['voltage', 'temperature'] }, range: [0, 999] })}`)).json();
    expect(volts.map((r: any) => r.event)).toEqual(params.filter((e) => e.type === 'voltage' || e.type === 'temperature').map((e) => e.event));
    expect(volts.length).toBeGreaterThan(0);
  });

  it('sorts by key, description (undescribed last), code (numeric) and unit; id = catalogue order', async () => {
    const get = async (sort: [string, string], path = 'legacy/legacy/eventos') =>
      (await (await admin.get(`/api/biblioteca/${path}?${Q({ sort, range: [0, 999] })}`)).json()) as any[];
    const codeDesc = await get(['code', 'DESC']);
    expect(codeDesc.slice(0, 4).map((r) => r.code)).toEqual([207, 206, 205, 199]);
    const keyAsc = await get(['event', 'ASC']);
    expect(keyAsc.slice(0, 3).map((r) => r.event)).toEqual(['primary_1', 'primary_2', 'primary_3']); // numeric collation
    expect(keyAsc.at(-1).event).toBe('primary_207');
    const descAsc = await get(['description', 'ASC']);
    const firstEmpty = descAsc.findIndex((r) => r.description === '');
    expect(descAsc.slice(firstEmpty).every((r) => r.description === '')).toBe(true);
    expect(descAsc.slice(0, firstEmpty).map((r) => r.description)).toEqual([...descAsc.slice(0, firstEmpty).map((r) => r.description)].sort((a, b) => a.localeCompare(b, 'pt-BR')));
    const byId = await get(['id', 'DESC'], 'queclink/gv58cg/eventos');
    expect(byId.map((r) => r.event)).toEqual(yaml('queclink-eventos').map((e) => e.event).reverse());
    const byUnit = await get(['unit', 'ASC'], 'queclink/gv58cg/parametros');
    const units = byUnit.map((r) => r.unit.short).filter(Boolean);
    expect(units).toEqual([...units].sort((a, b) => a.localeCompare(b, 'pt-BR', { sensitivity: 'base', numeric: true })));
    expect(byUnit.at(-1).unit.short).toBe('');
  });

  it('answers 400 in pt-BR for a bad sort, filter or range', async () => {
    const bad = async (qs: string, msg: string) => {
      const res = await admin.get(`/api/biblioteca/queclink/gv58cg/eventos?${qs}`);
      expect(res.status).toBe(400);
      expect((await json(res)).msg).toBe(msg);
    };
    await bad(Q({ sort: ['senha', 'ASC'] }), 'Campo de ordenação desconhecido: senha');
    await bad(Q({ sort: ['event', 'LADO'] }), 'Direção de ordenação inválida: use ASC ou DESC');
    await bad(Q({ filter: { cor: 'azul' } }), 'Filtro desconhecido: cor');
    await bad(Q({ range: [10, 2] }), 'Parâmetro range inválido');
    await bad('filter=%7Bq', 'Parâmetro filter inválido: JSON malformado');
  });

  it('answers 404 in pt-BR for an unknown technology or model', async () => {
    const tec = await admin.get('/api/biblioteca/nokia/gv58cg/eventos');
    expect(tec.status).toBe(404);
    expect((await json(tec)).msg).toBe('Tecnologia desconhecida: nokia. Use queclink, legacy, vdo.');
    const mod = await admin.get('/api/biblioteca/queclink/gv999/parametros');
    expect(mod.status).toBe(404);
    expect((await json(mod)).msg).toBe('Modelo desconhecido para a tecnologia Queclink @Track: gv999. Use gv50cg, gv58cg, gv350ceu, gv300, gv310lau, gv350m, gv55, gv55w, gv56, gv600m, gl300, gl300m, cv100lg.');
  });
});

describe('GET /api/biblioteca/familia/{familia}', () => {
  it('eventos joins the tracker events and the camera alarms, with origin and code', async () => {
    const n = yaml('queclink-eventos').length + yaml('legacy-eventos').length + yaml('camera-alarmes').length;
    const res = await admin.get(`/api/biblioteca/familia/eventos?${Q({ range: [0, 999] })}`);
    expect(res.status).toBe(200);
    expect(total(res)).toBe(n);
    const rows = await res.json();
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((r: any) => r.id)).size).toBe(n);
    expect(rows.find((r: any) => r.event === 'frontal_collision_l1')).toMatchObject({ code: 600, risk: 'baixo', origem: 'camera', origemLabel: 'Câmera' });
    const camera = await admin.get(`/api/biblioteca/familia/eventos?${Q({ filter: { origem: 'camera' } })}`);
    expect(total(camera)).toBe(yaml('camera-alarmes').length);
  });

  it('perifericos (CAN and camera), parametros, viagem and alarmes', async () => {
    const count = async (f: string) => total(await admin.get(`/api/biblioteca/familia/${f}`));
    expect(await count('perifericos')).toBe(yaml('can-parametros').length + yaml('camera-parametros').length);
    expect(await count('parametros')).toBe(yaml('queclink-parametros').length + yaml('legacy-parametros').length + yaml('viagem-parametros').length);
    expect(await count('viagem')).toBe(4);
    expect(await count('alarmes')).toBe(yaml('camera-alarmes').length);
    const can = await (await admin.get(`/api/biblioteca/familia/perifericos?${Q({ filter: { q: 'pedal' }, sort: ['event', 'ASC'] })}`)).json();
    expect(can.map((r: any) => r.event)).toEqual(expect.arrayContaining(['detailedInformation-acceleratorPedalPosition', 'detailedInformation-brakePedalPosition']));
    const fams = await (await admin.get('/api/biblioteca/familias')).json();
    expect(fams.map((f: any) => f.id)).toEqual(['eventos', 'perifericos', 'parametros', 'viagem', 'alarmes']);
  });

  it('answers 404 in pt-BR for an unknown family', async () => {
    const res = await admin.get('/api/biblioteca/familia/pneus');
    expect(res.status).toBe(404);
    expect((await json(res)).msg).toBe('Família de biblioteca desconhecida: pneus. Use eventos, perifericos, parametros, viagem, alarmes.');
  });
});

describe('session and permissions', () => {
  it('401 without a session', async () => {
    for (const p of ['/api/biblioteca/tecnologias', '/api/biblioteca/queclink/gv58cg/eventos', '/api/biblioteca/familia/eventos']) {
      const res = await ts.fetch(p);
      expect(res.status).toBe(401);
      expect((await json(res)).msg).toBe('Sessão inválida ou expirada. Entre novamente.');
    }
  });

  it('403 without the screen keys; each screen key opens its own lists', async () => {
    for (const p of ['/api/biblioteca/tecnologias', '/api/biblioteca/queclink/gv58cg/eventos', '/api/biblioteca/familia/eventos', '/api/biblioteca/familias']) {
      const res = await semPermissao.get(p);
      expect(res.status).toBe(403);
      expect((await json(res)).msg).toBe('Você não tem permissão para fazer isso');
    }
    expect((await soTelemetria.get('/api/biblioteca/familia/parametros')).status).toBe(200);
    expect((await soTelemetria.get('/api/biblioteca/queclink/gv58cg/eventos')).status).toBe(403);
    // the read-only profile holds the *.lista keys of both screens
    expect((await leitor.get('/api/biblioteca/queclink/gv58cg/eventos')).status).toBe(200);
    expect((await leitor.get('/api/biblioteca/familia/eventos')).status).toBe(200);
    const perms = await (await admin.get('/api/usuario/permissoes')).json();
    expect(perms.payload).toEqual(expect.arrayContaining(['adm.bib.biblioteca_de_eventos.lista', 'tlm.cfg.biblioteca.lista']));
  });
});
