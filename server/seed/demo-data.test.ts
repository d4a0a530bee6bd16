// The demo data makes sense without the simulation (the harness seeds with demo: true and runs no gateway, as
// DEMO_SIMULATION=off): models of their manufacturers and categories, valid plates, drivers with valid CPF/CNH and the
// CNH category their vehicle needs, and every vehicle with exactly one tracker and a driver — in the registers and in
// the vehicle list over HTTP, for both demo companies.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTelemetria } from '../ingest/migrate.ts';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

/** Known-good fleet: "fabricante modelo" → [categoria, CNH category needed]. */
const KNOWN: Record<string, [string, string]> = {
  'Volvo FH 540': ['Caminhão', 'E'], 'Scania R 450': ['Caminhão', 'E'], 'Mercedes-Benz Actros 2651': ['Caminhão', 'E'],
  'Volkswagen Constellation 24.280': ['Caminhão', 'C'], 'Volkswagen Delivery 11.180': ['Caminhão', 'C'], 'Ford Cargo 816': ['Caminhão', 'C'],
  'Mercedes-Benz Accelo 1016': ['Caminhão', 'C'], 'Mercedes-Benz Sprinter 416': ['Van', 'B'], 'Fiat Ducato Cargo': ['Van', 'B'],
  'Fiat Strada': ['Utilitário', 'B'], 'Volkswagen Saveiro': ['Utilitário', 'B'], 'Toyota Hilux': ['Utilitário', 'B'],
  'Volkswagen Gol': ['Carro', 'B'], 'Chevrolet Onix': ['Carro', 'B'], 'Honda CG 160': ['Moto', 'A'], 'Yamaha Factor 150': ['Moto', 'A'],
  'Mercedes-Benz OF 1721': ['Ônibus', 'D'],
};
/** What a CNH category lets one drive (C, D and E include B; composite AB..AE add motorcycles). */
const allows = (held: string, need: string) => {
  const parts = held.length === 2 ? ['A', held[1]!] : [held];
  return parts.some((p) => p === need || (need !== 'A' && 'BCDE'.indexOf(p) >= 'BCDE'.indexOf(need) && p !== 'A'));
};
const cpfOk = (doc: string) => {
  const d = doc.replace(/\D/g, '').split('').map(Number);
  if (d.length !== 11 || new Set(d).size === 1) return false;
  const dv = (n: number) => { const s = d.slice(0, n).reduce((a, x, i) => a + x * (n + 1 - i), 0); return ((s * 10) % 11) % 10; };
  return dv(9) === d[9] && dv(10) === d[10];
};
const cnhOk = (cnh: string) => {
  if (!/^\d{11}$/.test(cnh) || /^(\d)\1+$/.test(cnh)) return false;
  const n = cnh.split('').map(Number);
  let d1 = n.slice(0, 9).reduce((s, x, i) => s + x * (9 - i), 0) % 11, dsc = 0;
  if (d1 >= 10) { d1 = 0; dsc = 2; }
  const x = n.slice(0, 9).reduce((s, y, i) => s + y * (i + 1), 0) % 11;
  return `${d1}${x >= 10 ? 0 : x - dsc}` === cnh.slice(9);
};
const imeiOk = (s: string) => /^\d{15}$/.test(s) && s.split('').reduce((a, c, k) => { let x = Number(c); if (k % 2 === 1) { x *= 2; if (x > 9) x -= 9; } return a + x; }, 0) % 10 === 0;
const PLATE = /^[A-Z]{3}[0-9][A-Z][0-9]{2}$|^[A-Z]{3}-[0-9]{4}$/;

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
let empresas: number[];
type Veiculo = { id: number; empresa: number; descricao: string; placa: string; categoria: string; fabricante: string; modelo: string; garagem: string | null };
let veiculos: Veiculo[];

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  await migrateTelemetria(pool);
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  empresas = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  veiculos = (await pool.query(`SELECT a.id, a.empresa_id AS empresa, a.descricao, a.placa, c.descricao AS categoria, f.descricao AS fabricante, m.descricao AS modelo, g.nome AS garagem
    FROM ativo a LEFT JOIN categoria_de_ativo c ON c.id = a.categoria LEFT JOIN fabricante_de_ativo f ON f.id = a.fabricante
    LEFT JOIN modelo_de_ativo m ON m.id = a.modelo LEFT JOIN garagem g ON g.id = a.id_garagem ORDER BY a.id`)).rows;
});
afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

describe('demo data', () => {
  it('two companies, 40 + 10 vehicles', () => {
    expect(empresas).toHaveLength(2);
    expect(veiculos.filter((v) => v.empresa === empresas[0]).length).toBe(40);
    expect(veiculos.filter((v) => v.empresa === empresas[1]).length).toBe(10);
  });

  it('every vehicle: a model of its manufacturer, of the right category, and a Mercosul or old-format plate', () => {
    for (const v of veiculos) {
      expect([v.descricao, `${v.fabricante} ${v.modelo}` in KNOWN]).toEqual([v.descricao, true]);
      expect([v.descricao, v.categoria]).toEqual([v.descricao, KNOWN[`${v.fabricante} ${v.modelo}`]![0]]);
      expect(v.placa).toMatch(PLATE);
      expect(v.garagem).toBeTruthy();
    }
    // a real mix, not one kind
    expect(new Set(veiculos.map((v) => v.categoria)).size).toBeGreaterThanOrEqual(5);
    // the demo's old nonsense is gone
    expect(veiculos.some((v) => v.categoria === 'Moto' && v.modelo === 'Actros 2651')).toBe(false);
  });

  it('drivers: valid CPF and CNH, a CNH category that lets them drive the vehicle they are assigned to', async () => {
    const mots = (await pool.query('SELECT id, empresa_id, nome, documento, cnh, categoria_cnh, validade_cnh FROM motorista ORDER BY id')).rows;
    expect(mots.length).toBe(50);
    for (const m of mots) {
      expect([m.nome, cpfOk(m.documento), cnhOk(m.cnh)]).toEqual([m.nome, true, true]);
      expect(new Date(m.validade_cnh).getTime()).toBeGreaterThan(Date.now());
    }
    expect(new Set(mots.map((m) => m.cnh)).size).toBe(mots.length);
    const asg = (await pool.query(`SELECT t.ativo_id, t.motorista_id, t.empresa_id, m.empresa_id AS m_empresa, m.categoria_cnh FROM motorista_temporario t
      JOIN motorista m ON m.id = t.motorista_id WHERE t.data_inicio <= now() AND t.data_fim > now()`)).rows;
    for (const v of veiculos) {
      const mine = asg.filter((a) => a.ativo_id === v.id);
      expect([v.descricao, mine.length]).toEqual([v.descricao, 1]);
      expect([mine[0].empresa_id, mine[0].m_empresa]).toEqual([v.empresa, v.empresa]);
      const need = KNOWN[`${v.fabricante} ${v.modelo}`]![1];
      expect([v.descricao, need, mine[0].categoria_cnh, allows(mine[0].categoria_cnh, need)]).toEqual([v.descricao, need, mine[0].categoria_cnh, true]);
    }
  });

  it('a driver checklist in the first company, answered by its first 4 drivers on 21 of the last 7 × 4 days', async () => {
    const forms = (await pool.query('SELECT id, empresa_id, titulo, frequencia, unidade_de_freq, motoristas, nomes FROM formulario ORDER BY id')).rows;
    expect(forms.map((f) => [f.empresa_id, f.titulo, f.frequencia, f.unidade_de_freq, f.motoristas.length])).toEqual([[empresas[0], 'Checklist de saída do veículo', 1, 'dia', 4]]);
    const drivers = (await pool.query('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 4', [empresas[0]])).rows;
    expect(forms[0].nomes.motoristas).toEqual(drivers);
    const answers = (await pool.query(`SELECT motorista, quem_respondeu, data_resposta FROM resposta_formulario WHERE formulario = $1`, [forms[0].id])).rows;
    expect(answers).toHaveLength(21);
    expect(new Set(answers.map((a) => a.motorista))).toEqual(new Set(drivers.map((d) => d.id)));
    for (const a of answers) expect(a.quem_respondeu).toBe(drivers.find((d) => d.id === a.motorista)!.nome);
    expect(answers.every((a) => a.data_resposta.getTime() < Date.now() && a.data_resposta.getTime() > Date.now() - 8 * 86_400_000)).toBe(true);
  });

  it('every vehicle has exactly one tracker linked now (a registered Queclink device of its company, valid IMEI); Veículo 004 and 008 also a VDO unit', async () => {
    const links = (await pool.query(`SELECT ea.ativo_id, ea.serial, e.empresa_id, e.tecnologia, e.modelo, e.ativado FROM equipamento_ativo ea
      JOIN equipamento e ON e.serial = ea.serial WHERE ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now())`)).rows;
    const trackers = links.filter((l) => l.tecnologia === 'queclink');
    for (const v of veiculos) {
      const mine = trackers.filter((l) => l.ativo_id === v.id);
      expect([v.descricao, mine.length]).toEqual([v.descricao, 1]);
      expect(mine[0]).toMatchObject({ empresa_id: v.empresa, tecnologia: 'queclink', ativado: true });
      expect(['gv50cg', 'gv58cg', 'gv350ceu']).toContain(mine[0].modelo);
      expect(imeiOk(mine[0].serial)).toBe(true);
    }
    expect(new Set(trackers.map((l) => l.serial)).size).toBe(veiculos.length);
    // the tachograph trucks (server/ingest/tacografo-demo.ts sends their files): a VDO unit each, nothing else
    const others = links.filter((l) => l.tecnologia !== 'queclink').map((l) => [veiculos.find((v) => v.id === l.ativo_id)?.descricao, l.serial, l.empresa_id, l.tecnologia, l.modelo, l.ativado]);
    expect(others.sort()).toEqual([['Veículo 004', 'VDO100004', empresas[0], 'vdo', 'vdo_telemetria', true], ['Veículo 008', 'VDO100008', empresas[0], 'vdo', 'vdo_telemetria', true]]);
    expect(veiculos.filter((v) => ['Veículo 004', 'Veículo 008'].includes(v.descricao)).map((v) => [v.categoria, v.fabricante, v.modelo]))
      .toEqual([['Caminhão', 'Scania', 'R 450'], ['Caminhão', 'Mercedes-Benz', 'Actros 2651']]);
  });

  it('the vehicle list over HTTP (no simulation) shows a device and a driver for each vehicle, in both companies', async () => {
    for (const empresa of empresas) {
      const u = ts.as(admin.token, empresa);
      expect((await u.post(`/api/auth/empresa/${empresa}`, {})).status).toBe(200);
      const rows = await json(await u.get(`/api/ativo?range=${encodeURIComponent('[0,99]')}`));
      const mine = veiculos.filter((v) => v.empresa === empresa);
      expect(rows.length).toBe(mine.length);
      for (const r of rows) {
        // the tracker's IMEI; the tachograph trucks' VDO unit after it
        const vdo = ['Veículo 004', 'Veículo 008'].includes(r.descricao) ? `, VDO1000${r.descricao.slice(-2)}` : '';
        expect([r.descricao, new RegExp(`^\\d{15}${vdo}$`).test(r.equipamentosList ?? '')]).toEqual([r.descricao, true]);
        expect([r.descricao, typeof r.motorista === 'string' && r.motorista.length > 3]).toEqual([r.descricao, true]);
      }
      expect(new Set(rows.map((r: any) => r.motorista)).size).toBe(rows.length);
    }
  });
});
