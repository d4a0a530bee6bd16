// Address of a Brazilian postal code (GET /api/util/cep/{cep}) through a ViaCEP-compatible provider
// (CEP_URL, default https://viacep.com.br/ws/{cep}/json/; 'off' = offline only) with a timeout (CEP_TIMEOUT_MS,
// default 3000) and a cache (CEP_CACHE_TTL_MS, default 24 h). When the provider is off, slow, failing or does not know
// the code, the offline table answers the UF of the code's range (Correios' ranges) and the capital when the code is
// in the capital's range: fonte 'tabela'. A code outside every range is 404.
import { TtlCache, fillUrl } from './cache.ts';

export interface Cep {
  cep: string; logradouro: string; complemento: string; bairro: string; localidade: string; uf: string; estado: string;
  ibge: string; ddd: string; fonte: 'provedor' | 'tabela';
}

/** Correios' CEP ranges by UF (5-digit prefixes, inclusive). */
export const UF_FAIXAS: { uf: string; estado: string; faixas: [number, number][] }[] = [
  { uf: 'SP', estado: 'São Paulo', faixas: [[1000, 19999]] },
  { uf: 'RJ', estado: 'Rio de Janeiro', faixas: [[20000, 28999]] },
  { uf: 'ES', estado: 'Espírito Santo', faixas: [[29000, 29999]] },
  { uf: 'MG', estado: 'Minas Gerais', faixas: [[30000, 39999]] },
  { uf: 'BA', estado: 'Bahia', faixas: [[40000, 48999]] },
  { uf: 'SE', estado: 'Sergipe', faixas: [[49000, 49999]] },
  { uf: 'PE', estado: 'Pernambuco', faixas: [[50000, 56999]] },
  { uf: 'AL', estado: 'Alagoas', faixas: [[57000, 57999]] },
  { uf: 'PB', estado: 'Paraíba', faixas: [[58000, 58999]] },
  { uf: 'RN', estado: 'Rio Grande do Norte', faixas: [[59000, 59999]] },
  { uf: 'CE', estado: 'Ceará', faixas: [[60000, 63999]] },
  { uf: 'PI', estado: 'Piauí', faixas: [[64000, 64999]] },
  { uf: 'MA', estado: 'Maranhão', faixas: [[65000, 65999]] },
  { uf: 'PA', estado: 'Pará', faixas: [[66000, 68899]] },
  { uf: 'AP', estado: 'Amapá', faixas: [[68900, 68999]] },
  { uf: 'AM', estado: 'Amazonas', faixas: [[69000, 69299], [69400, 69899]] },
  { uf: 'RR', estado: 'Roraima', faixas: [[69300, 69399]] },
  { uf: 'AC', estado: 'Acre', faixas: [[69900, 69999]] },
  { uf: 'DF', estado: 'Distrito Federal', faixas: [[70000, 72799], [73000, 73699]] },
  { uf: 'GO', estado: 'Goiás', faixas: [[72800, 72999], [73700, 76799]] },
  { uf: 'RO', estado: 'Rondônia', faixas: [[76800, 76999]] },
  { uf: 'TO', estado: 'Tocantins', faixas: [[77000, 77999]] },
  { uf: 'MT', estado: 'Mato Grosso', faixas: [[78000, 78899]] },
  { uf: 'MS', estado: 'Mato Grosso do Sul', faixas: [[79000, 79999]] },
  { uf: 'PR', estado: 'Paraná', faixas: [[80000, 87999]] },
  { uf: 'SC', estado: 'Santa Catarina', faixas: [[88000, 89999]] },
  { uf: 'RS', estado: 'Rio Grande do Sul', faixas: [[90000, 99999]] },
];

/** The capitals' CEP ranges (5-digit prefixes) with their IBGE code and DDD: the city of the offline answer. */
export const CAPITAIS: { localidade: string; uf: string; ibge: string; ddd: string; faixas: [number, number][] }[] = [
  { localidade: 'São Paulo', uf: 'SP', ibge: '3550308', ddd: '11', faixas: [[1000, 5999], [8000, 8499]] },
  { localidade: 'Rio de Janeiro', uf: 'RJ', ibge: '3304557', ddd: '21', faixas: [[20000, 23799]] },
  { localidade: 'Vitória', uf: 'ES', ibge: '3205309', ddd: '27', faixas: [[29000, 29099]] },
  { localidade: 'Belo Horizonte', uf: 'MG', ibge: '3106200', ddd: '31', faixas: [[30000, 31999]] },
  { localidade: 'Salvador', uf: 'BA', ibge: '2927408', ddd: '71', faixas: [[40000, 42599]] },
  { localidade: 'Aracaju', uf: 'SE', ibge: '2800308', ddd: '79', faixas: [[49000, 49098]] },
  { localidade: 'Recife', uf: 'PE', ibge: '2611606', ddd: '81', faixas: [[50000, 52999]] },
  { localidade: 'Maceió', uf: 'AL', ibge: '2704302', ddd: '82', faixas: [[57000, 57099]] },
  { localidade: 'João Pessoa', uf: 'PB', ibge: '2507507', ddd: '83', faixas: [[58000, 58099]] },
  { localidade: 'Natal', uf: 'RN', ibge: '2408102', ddd: '84', faixas: [[59000, 59139]] },
  { localidade: 'Fortaleza', uf: 'CE', ibge: '2304400', ddd: '85', faixas: [[60000, 61599]] },
  { localidade: 'Teresina', uf: 'PI', ibge: '2211001', ddd: '86', faixas: [[64000, 64099]] },
  { localidade: 'São Luís', uf: 'MA', ibge: '2111300', ddd: '98', faixas: [[65000, 65099]] },
  { localidade: 'Belém', uf: 'PA', ibge: '1501402', ddd: '91', faixas: [[66000, 66999]] },
  { localidade: 'Macapá', uf: 'AP', ibge: '1600303', ddd: '96', faixas: [[68900, 68914]] },
  { localidade: 'Manaus', uf: 'AM', ibge: '1302603', ddd: '92', faixas: [[69000, 69099]] },
  { localidade: 'Boa Vista', uf: 'RR', ibge: '1400100', ddd: '95', faixas: [[69300, 69339]] },
  { localidade: 'Rio Branco', uf: 'AC', ibge: '1200401', ddd: '68', faixas: [[69900, 69924]] },
  { localidade: 'Brasília', uf: 'DF', ibge: '5300108', ddd: '61', faixas: [[70000, 72799], [73000, 73699]] },
  { localidade: 'Goiânia', uf: 'GO', ibge: '5208707', ddd: '62', faixas: [[74000, 74899]] },
  { localidade: 'Porto Velho', uf: 'RO', ibge: '1100205', ddd: '69', faixas: [[76800, 76834]] },
  { localidade: 'Palmas', uf: 'TO', ibge: '1721000', ddd: '63', faixas: [[77000, 77249]] },
  { localidade: 'Cuiabá', uf: 'MT', ibge: '5103403', ddd: '65', faixas: [[78000, 78109]] },
  { localidade: 'Campo Grande', uf: 'MS', ibge: '5002704', ddd: '67', faixas: [[79000, 79124]] },
  { localidade: 'Curitiba', uf: 'PR', ibge: '4106902', ddd: '41', faixas: [[80000, 82999]] },
  { localidade: 'Florianópolis', uf: 'SC', ibge: '4205407', ddd: '48', faixas: [[88000, 88099]] },
  { localidade: 'Porto Alegre', uf: 'RS', ibge: '4314902', ddd: '51', faixas: [[90000, 91999]] },
];

export const CEP_INVALIDO = 'CEP inválido: informe 8 dígitos (ex.: 01001-000)';
export const CEP_NAO_ENCONTRADO = 'CEP não encontrado';

/** '01001-000' / '01001000' → '01001000'; null when it is not 8 digits. */
export function normalizeCep(raw: string): string | null {
  const m = /^(\d{5})-?(\d{3})$/.exec(raw.trim());
  return m ? m[1] + m[2] : null;
}
const formatted = (cep: string) => `${cep.slice(0, 5)}-${cep.slice(5)}`;
const inRanges = (p: number, f: [number, number][]) => f.some(([a, b]) => p >= a && p <= b);

/** The offline answer: the UF (and the capital when the code is in its range); null outside every range. */
export function offlineCep(cep: string): Cep | null {
  const prefix = Number(cep.slice(0, 5));
  const uf = UF_FAIXAS.find((u) => inRanges(prefix, u.faixas));
  if (!uf) return null;
  const cap = CAPITAIS.find((c) => c.uf === uf.uf && inRanges(prefix, c.faixas));
  return {
    cep: formatted(cep), logradouro: '', complemento: '', bairro: '', localidade: cap?.localidade ?? '', uf: uf.uf, estado: uf.estado,
    ibge: cap?.ibge ?? '', ddd: cap?.ddd ?? '', fonte: 'tabela',
  };
}

export interface CepOptions { url?: string; timeoutMs?: number; ttlMs?: number; fetch?: typeof fetch }
export const cepOptionsFromEnv = (env = process.env): CepOptions => ({
  url: env.CEP_URL === 'off' ? undefined : env.CEP_URL || 'https://viacep.com.br/ws/{cep}/json/',
  timeoutMs: Number(env.CEP_TIMEOUT_MS ?? 3000),
  ttlMs: Number(env.CEP_CACHE_TTL_MS ?? 24 * 3600_000),
});

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export interface CepAdapter { consulta(cep: string): Promise<Cep | null>; readonly sent: number }

/** `cep` already normalized (8 digits). The provider's answer (cached), else the offline table (not cached: the
 *  provider is asked again next time). */
export function createCepAdapter(o: CepOptions): CepAdapter {
  const cache = new TtlCache<Cep | null>(o.ttlMs ?? 24 * 3600_000);
  const doFetch = o.fetch ?? fetch;
  let sent = 0;
  async function ask(cep: string): Promise<Cep | null | undefined> {
    if (!o.url) return undefined;
    sent++;
    try {
      const r = await doFetch(fillUrl(o.url, 'cep', cep), { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(o.timeoutMs ?? 3000) });
      if (r.status === 400 || r.status === 404) return null;
      if (!r.ok) return undefined;
      const j = (await r.json()) as Record<string, unknown>;
      if (j.erro === true || j.erro === 'true') return null; // ViaCEP: a well-formed code nobody has
      if (!str(j.uf)) return undefined;
      const uf = UF_FAIXAS.find((u) => u.uf === str(j.uf).toUpperCase());
      return {
        cep: formatted(cep), logradouro: str(j.logradouro), complemento: str(j.complemento), bairro: str(j.bairro),
        localidade: str(j.localidade), uf: str(j.uf).toUpperCase(), estado: str(j.estado) || uf?.estado || '',
        ibge: str(j.ibge), ddd: str(j.ddd), fonte: 'provedor',
      };
    } catch {
      return undefined; // timeout, refused, bad JSON
    }
  }
  return {
    get sent() { return sent; },
    async consulta(cep) {
      const hit = cache.get(cep);
      if (hit !== undefined) return hit;
      const a = await ask(cep);
      if (a !== undefined) { cache.set(cep, a); return a; }
      return offlineCep(cep);
    },
  };
}
