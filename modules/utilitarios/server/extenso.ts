// An amount of money in Portuguese words, for invoices (GET /api/util/extenso/{valor}):
// 1234.50 → 'mil duzentos e trinta e quatro reais e cinquenta centavos'. Pure; valid up to 999 trilhões.
// Rules: 'cem' alone, 'cento e …' otherwise; 'mil' without 'um'; groups joined by ' e ' when the last one is below a
// hundred or a round hundred (mil e cem, mil e um), by a space otherwise (mil duzentos e trinta e quatro);
// 'de reais' after an exact milhão/bilhão/trilhão; 'um real', 'um centavo'; zero is 'zero reais'.

const UNIDADES = ['zero', 'um', 'dois', 'três', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove', 'dez', 'onze', 'doze', 'treze',
  'quatorze', 'quinze', 'dezesseis', 'dezessete', 'dezoito', 'dezenove'];
const DEZENAS = ['', '', 'vinte', 'trinta', 'quarenta', 'cinquenta', 'sessenta', 'setenta', 'oitenta', 'noventa'];
const CENTENAS = ['', 'cento', 'duzentos', 'trezentos', 'quatrocentos', 'quinhentos', 'seiscentos', 'setecentos', 'oitocentos', 'novecentos'];
/** Scale words by group index (1 = thousands): singular, plural. */
const ESCALAS: [string, string][] = [['', ''], ['mil', 'mil'], ['milhão', 'milhões'], ['bilhão', 'bilhões'], ['trilhão', 'trilhões']];

/** Largest amount written (in centavos): 999 trilhões … 999,99. */
export const MAX_CENTAVOS = 999_999_999_999_999_99n;

/** 1..999 in words. */
export function centena(n: number): string {
  if (n === 100) return 'cem';
  const c = Math.floor(n / 100), d = n % 100;
  const parts: string[] = [];
  if (c) parts.push(CENTENAS[c]);
  if (d) {
    if (d < 20) parts.push(UNIDADES[d]);
    else parts.push(d % 10 ? `${DEZENAS[Math.floor(d / 10)]} e ${UNIDADES[d % 10]}` : DEZENAS[Math.floor(d / 10)]);
  }
  return parts.join(' e ');
}

/** A non-negative integer (below 10^15) in words ('zero' for 0). */
export function inteiro(n: bigint): string {
  if (n === 0n) return 'zero';
  const groups: number[] = [];
  for (let v = n; v > 0n; v /= 1000n) groups.push(Number(v % 1000n));
  if (groups.length > ESCALAS.length) throw new RangeError('valor grande demais');
  const words: { text: string; value: number }[] = [];
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i];
    if (!g) continue;
    const text = i === 0 ? centena(g) : i === 1 ? (g === 1 ? 'mil' : `${centena(g)} mil`) : `${centena(g)} ${ESCALAS[i][g === 1 ? 0 : 1]}`;
    words.push({ text, value: g });
  }
  let out = words[0].text;
  for (let k = 1; k < words.length; k++) {
    const last = k === words.length - 1;
    const w = words[k];
    out += last && (w.value < 100 || w.value % 100 === 0) ? ` e ${w.text}` : ` ${w.text}`;
  }
  return out;
}

/** The amount in words (centavos as an integer, ≥ 0). */
export function extensoCentavos(total: bigint): string {
  if (total < 0n || total > MAX_CENTAVOS) throw new RangeError('valor fora do intervalo');
  const reais = total / 100n, centavos = Number(total % 100n);
  const parts: string[] = [];
  if (reais > 0n || centavos === 0) {
    const lowGroup = (() => { let i = 0; for (let v = reais; v > 0n && v % 1000n === 0n; v /= 1000n) i++; return i; })();
    const moeda = reais === 1n ? 'real' : 'reais';
    parts.push(`${inteiro(reais)}${reais > 0n && lowGroup >= 2 ? ' de' : ''} ${moeda}`);
  }
  if (centavos) parts.push(`${centena(centavos)} ${centavos === 1 ? 'centavo' : 'centavos'}`);
  return parts.join(' e ');
}

/** pt-BR message of an amount the call cannot write. */
export const VALOR_INVALIDO = 'Valor inválido: informe um número não negativo com até duas casas decimais (ex.: 1234.50), até 999 trilhões';

/** Parses '1234.50', '1234,5' or '1234' into centavos; null when it is not a non-negative amount with ≤ 2 decimals. */
export function parseValor(raw: string): bigint | null {
  const m = /^(\d{1,15})(?:[.,](\d{1,2}))?$/.exec(raw.trim());
  if (!m) return null;
  const total = BigInt(m[1]) * 100n + BigInt((m[2] ?? '').padEnd(2, '0') || '0');
  return total <= MAX_CENTAVOS ? total : null;
}

/** '1234.50' → words, or null (invalid). */
export function extenso(raw: string): string | null {
  const c = parseValor(raw);
  return c === null ? null : extensoCentavos(c);
}
