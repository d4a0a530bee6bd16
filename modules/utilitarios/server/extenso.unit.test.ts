// The amount in words: fixed examples of the invoice wording and properties over random amounts (fast-check): the words
// read back to the same amount, only the vocabulary is used, and real/reais, centavo/centavos agree with the number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CENTAVOS, extenso, extensoCentavos, parseValor } from './extenso.ts';

describe('extenso', () => {
  it.each([
    ['1234.50', 'mil duzentos e trinta e quatro reais e cinquenta centavos'],
    ['1', 'um real'],
    ['2', 'dois reais'],
    ['0', 'zero reais'],
    ['100', 'cem reais'],
    ['101', 'cento e um reais'],
    ['110', 'cento e dez reais'],
    ['1000', 'mil reais'],
    ['1001', 'mil e um reais'],
    ['1100', 'mil e cem reais'],
    ['1200.00', 'mil e duzentos reais'],
    ['2000', 'dois mil reais'],
    ['21000', 'vinte e um mil reais'],
    ['100000', 'cem mil reais'],
    ['1000000', 'um milhão de reais'],
    ['2000000', 'dois milhões de reais'],
    ['1000000.01', 'um milhão de reais e um centavo'],
    ['1001000', 'um milhão e mil reais'],
    ['2500000', 'dois milhões e quinhentos mil reais'],
    ['1234567', 'um milhão duzentos e trinta e quatro mil quinhentos e sessenta e sete reais'],
    ['1000000000', 'um bilhão de reais'],
    ['3000000000000', 'três trilhões de reais'],
    ['0.50', 'cinquenta centavos'],
    ['0,01', 'um centavo'],
    ['0.5', 'cinquenta centavos'],
    ['0.99', 'noventa e nove centavos'],
    ['1.01', 'um real e um centavo'],
    ['15.16', 'quinze reais e dezesseis centavos'],
    ['999999999999999.99', 'novecentos e noventa e nove trilhões novecentos e noventa e nove bilhões novecentos e noventa e nove milhões novecentos e noventa e nove mil novecentos e noventa e nove reais e noventa e nove centavos'],
  ])('%s → %s', (valor, texto) => {
    expect(extenso(valor)).toBe(texto);
  });

  it.each(['-1', '-0.01', 'abc', '1.234', '1,2,3', '', ' ', '1e3', '0x10', '1000000000000000', '12.', '.5', 'NaN', 'Infinity'])('refuses %j', (valor) => {
    expect(extenso(valor)).toBeNull();
  });

  it('parses decimal points and commas into centavos', () => {
    expect(parseValor('1234.5')).toBe(123450n);
    expect(parseValor('1234,05')).toBe(123405n);
    expect(parseValor('007')).toBe(700n);
  });

  const VOCAB: Record<string, number> = {
    zero: 0, um: 1, dois: 2, 'três': 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9, dez: 10, onze: 11, doze: 12, treze: 13,
    quatorze: 14, quinze: 15, dezesseis: 16, dezessete: 17, dezoito: 18, dezenove: 19, vinte: 20, trinta: 30, quarenta: 40, cinquenta: 50,
    sessenta: 60, setenta: 70, oitenta: 80, noventa: 90, cem: 100, cento: 100, duzentos: 200, trezentos: 300, quatrocentos: 400,
    quinhentos: 500, seiscentos: 600, setecentos: 700, oitocentos: 800, novecentos: 900,
  };
  const SCALE: Record<string, bigint> = { mil: 1000n, 'milhão': 10n ** 6n, 'milhões': 10n ** 6n, 'bilhão': 10n ** 9n, 'bilhões': 10n ** 9n, 'trilhão': 10n ** 12n, 'trilhões': 10n ** 12n };

  /** Words → integer (the inverse used by the properties). */
  function readBack(words: string[]): bigint {
    let total = 0n, group = 0n;
    for (const w of words) {
      if (w === 'e' || w === 'de') continue;
      if (w in VOCAB) { group += BigInt(VOCAB[w]); continue; }
      if (w in SCALE) { total += (group || 1n) * SCALE[w]; group = 0n; continue; }
      throw new Error(`palavra fora do vocabulário: ${w}`);
    }
    return total + group;
  }
  function readAmount(text: string): bigint {
    const m = /^(?:(.+?) (?:real|reais))?(?: e )?(?:(.+) (?:centavo|centavos))?$/.exec(text)!;
    return readBack((m[1] ?? '').split(' ').filter(Boolean)) * 100n + readBack((m[2] ?? '').split(' ').filter(Boolean));
  }

  it('reads back to the same amount, with the right singular/plural (fast-check)', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: MAX_CENTAVOS }), (c) => {
      const t = extensoCentavos(c);
      expect(readAmount(t)).toBe(c);
      const reais = c / 100n, centavos = c % 100n;
      expect(/\b(real|reais)\b/.test(t)).toBe(reais > 0n || centavos === 0n);
      expect(/\breal\b/.test(t)).toBe(reais === 1n);
      expect(/\bcentavo\b/.test(t)).toBe(centavos === 1n);
      expect(/\bcentavos\b/.test(t)).toBe(centavos > 1n);
      expect(t).not.toMatch(/ {2}|^ | $|(?<!e )\bum mil\b|\bcento\b(?! e)/);
    }), { numRuns: 3000 });
  });

  it('small amounts read back too (every value up to 2 000,00 in steps of 7 centavos)', () => {
    for (let c = 0n; c <= 200_000n; c += 7n) expect(readAmount(extensoCentavos(c))).toBe(c);
  });

  it('a string written with a comma answers like one with a point (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 0, max: 99 }), (r, c) => {
      const cc = String(c).padStart(2, '0');
      expect(extenso(`${r},${cc}`)).toBe(extenso(`${r}.${cc}`));
    }));
  });
});
