// Demo data per register, never part of the production seed: a second empresa with its roles (the admin gets both
// companies), the read-only 'leitor' (first company), lookups, a garage tree, 50 ativos with their trackers
// (equipamento + link), two of them also with a VDO tachograph unit, and 50 motoristas, each assigned to its vehicle
// (motorista_temporario).
// Added by the first start in demo mode (./index.ts) and by `npm run seed:demo` (./demo.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Model } from '../../shared/model.ts';
import { ormName } from '../core/registry.ts';
import { Seeder, companyRoles } from './index.ts';

type Row = Record<string, any>;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/**
 * Valid plate, deterministic per index: old format AAA-1234 (even) or Mercosul AAA1A23 (odd). `first`: the letters a
 * state's series start with (São Paulo F/G, Paraná A/B).
 */
export function plate(i: number, first = 'FG'): string {
  const l = (n: number) => LETTERS[Math.floor(n) % 26];
  const a = `${first[Math.floor(i / 676) % first.length]}${l(i / 26)}${l(i)}`;
  return i % 2 === 0 ? `${a}-${String(1000 + (i % 9000)).padStart(4, '0')}` : `${a}${i % 10}${l(i * 7)}${String(i % 100).padStart(2, '0')}`;
}

/** Valid CPF (check digits) from a 9-digit base. */
export function cpf(base: number): string {
  const d = String(base).padStart(9, '0').split('').map(Number);
  const dv = (arr: number[]) => { const s = arr.reduce((acc, n, i) => acc + n * (arr.length + 1 - i), 0); const r = (s * 10) % 11; return r === 10 ? 0 : r; };
  d.push(dv(d)); d.push(dv(d));
  const s = d.join('');
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

/** CNH check digits of a 9-digit base (DENATRAN rule), or null when the base needs the rule's "minus 2" case. */
export function cnhDigits(base: string): string | null {
  const n = base.split('').map(Number);
  const d1 = n.reduce((s, x, i) => s + x * (9 - i), 0) % 11;
  const d2 = n.reduce((s, x, i) => s + x * (1 + i), 0) % 11;
  return d1 >= 10 || d2 >= 10 ? null : `${d1}${d2}`;
}

/** A valid 11-digit CNH number, deterministic per index (bases needing the special case are skipped). */
export function cnh(i: number): string {
  for (let b = 213_480_000 + i * 7_919; ; b++) {
    const dv = cnhDigits(String(b));
    if (dv) return `${b}${dv}`;
  }
}

/** The demo trackers' IMEIs: type allocation code 86400150, serial, Luhn check digit (the simulator drives these). */
export const DEMO_TAC = '86400150';
export function imei(i: number): string {
  const body = `${DEMO_TAC}${String(i + 1).padStart(6, '0')}`;
  const sum = body.split('').reduce((s, c, k) => { let x = Number(c); if (k % 2 === 1) { x *= 2; if (x > 9) x -= 9; } return s + x; }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * What the simulated trackers of some demo vehicles carry (by the vehicle's index over both companies, as imei(i)):
 * the GV350CEU trucks and buses read the CAN bus (fuel level and fuel used, server/ingest/simulator.ts); these
 * Constellation trucks have a refrigerated body with a BLE temperature/humidity sensor (one of them goes out of the
 * limits now and then: door opened), and these trucks lose some fuel at their first stop (a drain).
 */
export const DEMO_REFRIGERADOS: { ativo: number; foraDosLimites?: boolean }[] = [{ ativo: 1 }, { ativo: 21, foraDosLimites: true }, { ativo: 41 }];
export const DEMO_PERDA_COMBUSTIVEL = [0, 40];

/**
 * First-company vehicles (index among its 40) that also carry a video-telemetry unit reading the tachograph (equipamento
 * tecnologia vdo, model vdo_telemetria, serial vdoSerial(i)): heavy trucks, Veículo 004 (Scania R 450) and Veículo 008
 * (Mercedes-Benz Actros 2651). The demo's VDO bridge (server/ingest/tacografo-demo.ts) transfers their files; the
 * Queclink simulation never drives them (it takes tecnologia queclink only).
 */
export const DEMO_TACOGRAFOS = [3, 7];
export const vdoSerial = (i: number) => `VDO${100_001 + i}`;

type Cnh = 'A' | 'B' | 'C' | 'D' | 'E';
/** Demo fleet: manufacturer, model, category, the CNH category it needs, km per year, the tracker model it carries. */
export const FROTA: { fabricante: string; modelo: string; categoria: string; cnh: Cnh; kmAno: number; rastreador: string }[] = [
  { fabricante: 'Volvo', modelo: 'FH 540', categoria: 'Caminhão', cnh: 'E', kmAno: 110_000, rastreador: 'gv350ceu' },
  { fabricante: 'Scania', modelo: 'R 450', categoria: 'Caminhão', cnh: 'E', kmAno: 110_000, rastreador: 'gv350ceu' },
  { fabricante: 'Mercedes-Benz', modelo: 'Actros 2651', categoria: 'Caminhão', cnh: 'E', kmAno: 110_000, rastreador: 'gv350ceu' },
  { fabricante: 'Volkswagen', modelo: 'Constellation 24.280', categoria: 'Caminhão', cnh: 'C', kmAno: 80_000, rastreador: 'gv350ceu' },
  { fabricante: 'Volkswagen', modelo: 'Delivery 11.180', categoria: 'Caminhão', cnh: 'C', kmAno: 60_000, rastreador: 'gv58cg' },
  { fabricante: 'Ford', modelo: 'Cargo 816', categoria: 'Caminhão', cnh: 'C', kmAno: 60_000, rastreador: 'gv58cg' },
  { fabricante: 'Mercedes-Benz', modelo: 'Accelo 1016', categoria: 'Caminhão', cnh: 'C', kmAno: 60_000, rastreador: 'gv58cg' },
  { fabricante: 'Mercedes-Benz', modelo: 'Sprinter 416', categoria: 'Van', cnh: 'B', kmAno: 50_000, rastreador: 'gv58cg' },
  { fabricante: 'Fiat', modelo: 'Ducato Cargo', categoria: 'Van', cnh: 'B', kmAno: 45_000, rastreador: 'gv58cg' },
  { fabricante: 'Fiat', modelo: 'Strada', categoria: 'Utilitário', cnh: 'B', kmAno: 30_000, rastreador: 'gv58cg' },
  { fabricante: 'Volkswagen', modelo: 'Saveiro', categoria: 'Utilitário', cnh: 'B', kmAno: 30_000, rastreador: 'gv58cg' },
  { fabricante: 'Toyota', modelo: 'Hilux', categoria: 'Utilitário', cnh: 'B', kmAno: 35_000, rastreador: 'gv58cg' },
  { fabricante: 'Volkswagen', modelo: 'Gol', categoria: 'Carro', cnh: 'B', kmAno: 20_000, rastreador: 'gv50cg' },
  { fabricante: 'Chevrolet', modelo: 'Onix', categoria: 'Carro', cnh: 'B', kmAno: 20_000, rastreador: 'gv50cg' },
  { fabricante: 'Honda', modelo: 'CG 160', categoria: 'Moto', cnh: 'A', kmAno: 25_000, rastreador: 'gv50cg' },
  { fabricante: 'Yamaha', modelo: 'Factor 150', categoria: 'Moto', cnh: 'A', kmAno: 25_000, rastreador: 'gv50cg' },
  { fabricante: 'Mercedes-Benz', modelo: 'OF 1721', categoria: 'Ônibus', cnh: 'D', kmAno: 70_000, rastreador: 'gv350ceu' },
];
/** The order vehicles are drawn from FROTA (a transport company's mix: trucks first, then vans, pickups, cars, motos). */
const MIX = [0, 3, 9, 1, 7, 4, 14, 2, 5, 12, 6, 0, 10, 1, 8, 2, 11, 15, 13, 16];
/** The driver's CNH category for a vehicle needing `need` (motorcycle couriers hold AB; others the category or above). */
const driverCnh = (need: Cnh, i: number): string => need === 'A' ? 'AB' : need === 'B' ? (['B', 'AB', 'C'] as const)[i % 3] : need === 'C' ? (['C', 'D', 'E'] as const)[i % 3] : need === 'D' ? (['D', 'E'] as const)[i % 2] : 'E';
const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Eduarda', 'Fábio', 'Gabriela', 'Henrique', 'Isabela', 'João', 'Karina', 'Lucas', 'Mariana',
  'Nelson', 'Olívia', 'Paulo', 'Quésia', 'Rafael', 'Sabrina', 'Tiago', 'Ulisses', 'Vanessa', 'Wagner', 'Yasmin', 'Zeca'];
const LAST = ['Souza', 'Lima', 'Mendes', 'Rocha', 'Alves', 'Costa', 'Dias', 'Melo', 'Ramos', 'Pereira', 'Barros', 'Martins', 'Teixeira',
  'Cardoso', 'Castro', 'Nunes', 'Moura', 'Gomes', 'Freitas', 'Ribeiro', 'Oliveira', 'Santos', 'Araújo', 'Carvalho', 'Ferreira', 'Lopes', 'Vieira'];

export const DEMO_LOGIN = 'leitor';
/** Demo passengers (first company) and the card of passenger n (8 hex digits, as an RFID reader sends it). */
export const DEMO_PASSAGEIROS = 12;
export const demoTag = (n: number) => `DE5A${(0x1000 + n * 37).toString(16).toUpperCase()}`;
const ALFA = { fantasia: 'Transportes Alfa', razaoSocial: 'Transportes Alfa Ltda', cnpj: '12.345.678/0001-95', email: 'contato@alfa.com.br' };
const BETA = { fantasia: 'Logística Beta', razaoSocial: 'Logística Beta S.A.', cnpj: '98.765.432/0001-98', email: 'contato@beta.com.br', status: 'ativa' };

const find = async (em: EntityManager, model: Model, key: string, where: Row) =>
  (await em.findOne(ormName(em, model.entities.find((e) => e.key === key)!), where as never)) as Row | null;

/** Whether the demo data is there (its read-only user). */
export async function hasDemo(em: EntityManager, model: Model): Promise<boolean> {
  return !!(await find(em, model, 'usuario', { login: DEMO_LOGIN }));
}

/**
 * Adds the demo data inside the caller's transaction, next to the first-start seed (`base`: its ambiente, empresa,
 * cargo and usuario ids). The first company takes the demo identity only while it still has the seed's default
 * name. `leitorHash`: the leitor's password hash.
 */
export async function seedDemo(em: EntityManager, model: Model, base: Record<string, number[]>, leitorHash: string): Promise<Record<string, number[]>> {
  const s = new Seeder(em, model);
  const ids = base;
  const A = { ambienteId: ids.ambiente[0] };
  const first = await find(em, model, 'empresa', { id: ids.empresa[0] });
  if (first && first.fantasia === 'Empresa principal') Object.assign(first, ALFA);
  const [beta] = await s.many('empresa', [{ ...A, ...BETA }]);
  const empresas = [ids.empresa[0], beta];
  const betaCargos = await s.many('cargo', companyRoles(model, { ...A, empresaId: beta }));
  const admin = await find(em, model, 'usuario', { id: ids.usuario[0] });
  if (admin) {
    admin.empresas = [...new Set([...(admin.empresas ?? []), beta])];
    admin.cargos = [...new Set([...(admin.cargos ?? []), betaCargos[0]])];
  }
  const leitura = ids.cargo[1];
  await s.many('usuario', [
    { ...A, nome: 'Leitor', login: DEMO_LOGIN, email: 'leitor@rastro.local', senha: leitorHash, ativo: true,
      empresas: [empresas[0]], empresaAtiva: empresas[0], cargos: [leitura], roles: [], permissoesExtras: [], ui: {} },
  ]);
  const cores = ['Branco', 'Prata', 'Preto', 'Vermelho', 'Azul'];
  // Devices and drivers are in place since a month ago (links in force, assignments until next year).
  const desde = new Date(Date.now() - 30 * 86_400_000);
  const ate = new Date(Date.now() + 365 * 86_400_000);
  const distinct = (xs: string[]) => [...new Set(xs)];
  let ativoN = 0;
  const firstDrivers: { id: number; nome: string }[] = []; // the first company's first drivers (the demo checklist)
  for (const [ei, empresaId] of empresas.entries()) {
    const E = { empresaId };
    const lk = async (key: string, names: string[]) => {
      const made = await s.many(key, names.map((descricao) => ({ ...E, descricao })));
      ids[key] = made;
      return new Map(names.map((n, i) => [n, made[i]!]));
    };
    const categorias = await lk('categoria_de_ativo', ['Caminhão', 'Carro', 'Utilitário', 'Moto', 'Ônibus', 'Van']);
    const fabricantes = await lk('fabricante_de_ativo', distinct(FROTA.map((f) => f.fabricante)));
    const modelos = await lk('modelo_de_ativo', FROTA.map((f) => f.modelo));
    await lk('situacao_do_ativo', ['Ativo', 'Em manutenção', 'Inativo', 'Vendido']);
    await s.many('acessorio', [{ ...E, descricao: 'Rastreador com bloqueio', fabricanteAtivo: fabricantes.get('Volvo'), tipoAtivo: categorias.get('Caminhão') },
      { ...E, descricao: 'Sensor BLE de temperatura e umidade (baú refrigerado)', fabricanteAtivo: fabricantes.get('Volkswagen'), tipoAtivo: categorias.get('Caminhão') }]);
    await s.many('modelo_configuracao_teclado', [{ ...E, descricao: 'Teclado padrão', tempoTelaSegundos: 30 }]);
    // Garages in real cities (the simulator drives each vehicle around its garage's city, server/ingest/simulator.ts).
    const [matriz] = await s.many('garagem', [{ ...E, nome: ei === 0 ? 'Matriz São Paulo' : 'Matriz Curitiba', descricao: 'Matriz' }]);
    const filiais = await s.many('garagem', [
      { ...E, nome: ei === 0 ? 'Filial Campinas' : 'Filial Londrina', descricao: 'Filial', grupoSuperior: matriz },
      { ...E, nome: ei === 0 ? 'Filial Santos' : 'Filial Maringá', descricao: 'Filial', grupoSuperior: matriz },
    ]);
    const [patio] = await s.many('garagem', [{ ...E, nome: ei === 0 ? 'Pátio Campinas Norte' : 'Pátio Londrina Sul', descricao: 'Pátio', grupoSuperior: filiais[0] }]);
    const garagens = [matriz, ...filiais, patio];
    const nAtivos = ei === 0 ? 40 : 10;
    const ativos: Row[] = [], veiculos: (typeof FROTA)[number][] = [];
    for (let i = 0; i < nAtivos; i++, ativoN++) {
      const v = FROTA[MIX[i % MIX.length]!]!;
      const ano = 2012 + ((ativoN * 5) % 13);
      veiculos.push(v);
      ativos.push({
        ...E, descricao: `Veículo ${String(ativoN + 1).padStart(3, '0')}`, placa: plate(ativoN * 37 + 11, ei === 0 ? 'FG' : 'AB'), idGaragem: garagens[i % garagens.length],
        numeroFrota: String(100 + ativoN), ano, cor: v.categoria === 'Caminhão' || v.categoria === 'Ônibus' ? 'Branco' : cores[ativoN % cores.length],
        categoria: categorias.get(v.categoria), fabricante: fabricantes.get(v.fabricante), modelo: modelos.get(v.modelo),
        situacao: ids.situacao_do_ativo?.[0], firmware: `v${1 + (ativoN % 3)}.${ativoN % 10}`,
        odometro: Math.round((2026 - ano + 0.5) * v.kmAno * (0.8 + ((ativoN * 13) % 40) / 100)),
      });
    }
    const ativoIds = await s.many('ativo', ativos);
    (ids.ativo ??= []).push(...ativoIds);
    // One tracker per vehicle, linked to it (the simulation, when on, reports for exactly these serials).
    const base = ativoN - nAtivos;
    const serials = ativoIds.map((_, i) => imei(base + i));
    (ids.equipamento ??= []).push(...(await s.many('equipamento', serials.map((serial, i) => ({
      ...E, serial, tecnologia: 'queclink', modelo: veiculos[i]!.rastreador, firmware: 'v1.2.6', simcard: `8955031${String(9_000_000_000_000 + base + i)}`, ativado: true,
    })))));
    (ids.equipamento_ativo ??= []).push(...(await s.many('equipamento_ativo', serials.map((serial, i) => ({ ...E, serial, ativoId: ativoIds[i], dataInicio: desde })))));
    // The first company's tachograph trucks: a VDO unit each besides the tracker (a second device on the vehicle).
    if (ei === 0) {
      const vdo = DEMO_TACOGRAFOS.filter((i) => i < nAtivos).map((i) => ({ serial: vdoSerial(i), ativoId: ativoIds[i] }));
      (ids.equipamento ??= []).push(...(await s.many('equipamento', vdo.map(({ serial }) => ({
        ...E, serial, tecnologia: 'vdo', modelo: 'vdo_telemetria', firmware: '3.2.1', ativado: true })))));
      (ids.equipamento_ativo ??= []).push(...(await s.many('equipamento_ativo', vdo.map(({ serial, ativoId }) => ({ ...E, serial, ativoId, dataInicio: desde })))));
    }
    // One driver per vehicle, holding the CNH category the vehicle needs, assigned to it (motorista_temporario).
    const mots: Row[] = ativoIds.map((_, i) => {
      const n = base + i;
      return { ...E, nome: `${FIRST[n % FIRST.length]} ${LAST[(n * 7 + Math.floor(n / FIRST.length)) % LAST.length]}`, documento: cpf(123456000 + n * 7919),
        matricula: String(5000 + n), cnh: cnh(n), categoriaCnh: driverCnh(veiculos[i]!.cnh, n), validadeCnh: `20${27 + (n % 4)}-0${1 + (n % 9)}-15`,
        telefone: `(${ei === 0 ? 11 : 41}) 9${String(8100 + n * 37).slice(0, 4)}-${String(1000 + n * 53).slice(-4)}`, idGaragem: ativos[i]!.idGaragem };
    });
    const motIds = await s.many('motorista', mots);
    if (ei === 0) firstDrivers.push(...motIds.slice(0, 4).map((id, i) => ({ id, nome: String(mots[i]!.nome) })));
    (ids.motorista ??= []).push(...motIds);
    (ids.motorista_temporario ??= []).push(...(await s.many('motorista_temporario', motIds.map((motoristaId, i) => ({
      ...E, ativoId: ativoIds[i], motoristaId, dataInicio: desde, dataFim: ate, observacao: 'Motorista titular do veículo',
    })))));
    // Passengers by RFID (modules/passageiros): the first company's buses run one line all day (ida until 13:00,
    // volta after); 12 passengers with a card each, 10 of them registered on the itinerary (the simulation reads
    // their cards at the stops, server/ingest/simulator.ts).
    const onibus = ativoIds.filter((_, i) => veiculos[i]!.categoria === 'Ônibus');
    if (ei === 0 && onibus.length) {
      const pas = await s.many('passageiro', Array.from({ length: DEMO_PASSAGEIROS }, (_, n) => ({
        ...E, nome: `${FIRST[(n * 3 + 5) % FIRST.length]} ${LAST[(n * 5 + 2) % LAST.length]}`, matricula: `P-${String(101 + n)}`,
        telefone: `(11) 9${String(7200 + n * 41).slice(0, 4)}-${String(2000 + n * 67).slice(-4)}`, tags: [demoTag(n)],
      })));
      const [linha] = await s.many('linha', [{ ...E, descricao: 'Linha 101 — Centro', codigo: 'L101', ativo: true, largura: 200, distancia: 18 }]);
      const [it] = await s.many('itinerario', [{
        ...E, descricao: 'Linha 101 — dia todo', linha, diasSemana: ['dom', 'seg', 'ter', 'qua', 'qui', 'sex', 'sab'],
        inicioIda: '00:00', fimIda: '12:59', inicioVolta: '13:00', fimVolta: '23:59', ativos: onibus,
      }]);
      await s.many('itinerario_passageiro', pas.slice(0, DEMO_PASSAGEIROS - 2).map((passageiro, n) => ({
        ...E, itinerario: it, passageiro, horario: `${String(6 + (n % 3)).padStart(2, '0')}:${String((n * 10) % 60).padStart(2, '0')}`, direcao: 'ida', pontoEmbarque: `Ponto ${1 + (n % 5)}`,
      })));
    }
  }
  // A driver checklist (forms of /rel/for/formularios, the form report): the first 4 drivers answer it each day; in
  // the last 7 days some did and some did not (the 'sem resposta' kind lists the missing days).
  if (model.entities.some((e) => e.key === 'formulario')) {
    const E = { empresaId: empresas[0] };
    const motRows = firstDrivers;
    const hoje = new Date();
    const dia = (n: number) => new Date(hoje.getTime() - n * 86_400_000);
    const questoes = [
      { id: 'pneus', tipo: 'YES_OR_NO', pergunta: 'Os pneus estão em bom estado?', obrigatoria: true },
      { id: 'combustivel', tipo: 'MULTIPLE_CHOICE', pergunta: 'Nível de combustível na saída', opcoes: ['Reserva', '1/4', '1/2', '3/4', 'Cheio'], obrigatoria: true },
      { id: 'limpeza', tipo: 'OPINION_SCALE', pergunta: 'Limpeza da cabine', escalaMin: 1, escalaMax: 5, rotuloMin: 'Ruim', rotuloMax: 'Ótima' },
      { id: 'avarias', tipo: 'TEXT', pergunta: 'Avarias encontradas', maxCaracteres: 500 },
    ];
    const [form] = await s.many('formulario', [{
      ...E, titulo: 'Checklist de saída do veículo', descricao: 'Inspeção feita pelo motorista antes da primeira viagem do dia.',
      dataInicio: dia(30).toISOString().slice(0, 10), questoes, criadoPor: ids.usuario[0] ?? null, frequencia: 1, unidadeDeFreq: 'dia',
      usuarios: [], motoristas: motRows.map((m) => m.id),
      nomes: { criadoPor: ids.usuario[0] ? 'Administrador' : null, usuarios: [], motoristas: motRows.map((m) => ({ id: m.id, nome: m.nome })) },
    }]);
    const nivel = ['Cheio', '3/4', '1/2', '3/4', 'Cheio', '1/4', 'Cheio'];
    const respostas: Row[] = [];
    for (let d = 1; d <= 7; d++) {
      motRows.forEach((m, i) => {
        if ((d + i) % 4 === 0) return; // a missed day now and then
        const quando = dia(d);
        quando.setUTCHours(9 + i, 15, 0, 0);
        respostas.push({
          ...E, formulario: form, motorista: m.id, usuario: ids.usuario[0] ?? null, dataResposta: quando, quemRespondeu: m.nome,
          respostas: [
            { questao: 'pneus', valor: (d + i) % 5 !== 0 },
            { questao: 'combustivel', valor: nivel[(d + i) % nivel.length] },
            { questao: 'limpeza', valor: 3 + ((d * (i + 1)) % 3) },
            ...((d + i) % 5 === 0 ? [{ questao: 'avarias', valor: 'Pneu dianteiro direito gasto' }] : []),
          ],
        });
      });
    }
    ids.resposta_formulario = await s.many('resposta_formulario', respostas);
    ids.formulario = [form];
  }
  // A report favourite of the administrator (register of modules/relatorios): the last 7 days' trips, default columns.
  if (model.entities.some((e) => e.key === 'relatorio_favorito')) {
    const periodo = { inicio: new Date(Date.now() - 7 * 86_400_000).toISOString(), fim: new Date().toISOString() };
    ids.relatorio_favorito = await s.many('relatorio_favorito', [{
      empresaId: empresas[0], usuario: ids.usuario[0], nome: 'Viagens da semana', familia: 'viagem', tipo: 'detalhado',
      parametros: { periodo }, colunas: ['dataInicial', 'horaInicial', 'ativo', 'placa', 'motorista', 'duracao', 'distancia'],
    }]);
  }
  await em.flush();
  ids.empresa = empresas;
  ids.cargo = [ids.cargo[0], ids.cargo[1], ...betaCargos];
  return ids;
}
