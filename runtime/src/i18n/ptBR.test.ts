import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import ptBR, { sameOnPurpose } from './ptBR';

type M = { [k: string]: string | M };
const flat = (o: M, p = ''): [string, string][] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? flat(v, `${p}${k}.`) : [[`${p}${k}`, v] as [string, string]]));

describe('pt-BR messages', () => {
  const pt = new Map(flat(ptBR as M));
  it('translate every key of the English set', () => {
    const untranslated = flat(englishMessages as unknown as M).filter(([k, en]) => {
      const v = pt.get(k);
      return typeof v !== 'string' || v.length === 0 || (v === en && !sameOnPurpose.has(k));
    });
    expect(untranslated).toEqual([]);
  });
  it('use the spec wording', () => {
    expect(pt.get('ra.navigation.no_results')).toBe('Nenhum item foi encontrado');
    expect(pt.get('ra.message.delete_title')).toBe('Deseja Excluir?');
    expect(pt.get('ra.message.delete_content')).toBe('Esta ação não poderá ser revertida, deseja realmente excluir?');
    expect(pt.get('ra.action.save')).toBe('Salvar');
    expect(pt.get('rastro.required')).toBe('O campo %{label} é obrigatório');
  });
});
