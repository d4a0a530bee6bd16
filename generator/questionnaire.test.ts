// widget: questionnaire / answers (shared/questionnaire.ts): the field schema, the question checks per type and
// the answer checks against the questions, with their pt-BR messages.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { fieldSchema } from './emit/schemas.ts';
import { schemaKeywords } from './keywords.ts';
import type { FieldMeta, Model } from '../shared/model.ts';
import { QUESTION_TYPES, checkAnswers, checkQuestions, type Question } from '../shared/questionnaire.ts';

const field = (extra: Partial<FieldMeta> = {}) => ({
  name: 'questoes', column: 'questoes', type: 'json', label: 'Questões', required: true, unique: false, upperCase: false, readOnly: false, hidden: false, writeOnly: false, system: false, widget: 'questionnaire', ...extra,
}) as FieldMeta;
const model = { entities: [] } as unknown as Model;

describe('questionnaire field', () => {
  it('is a required list of objects carrying x-widget', () => {
    const s = fieldSchema(field(), model);
    expect(s).toMatchObject({ type: 'array', minItems: 1, maxItems: 200, 'x-widget': 'questionnaire', 'x-type': 'json' });
    const ok = new Ajv({ keywords: [...schemaKeywords] }).compile(s);
    expect([[{}], [], 'x', null].map((v) => ok(v))).toEqual([true, false, false, false]);
  });
  it('offers the nine types of the spec', () => {
    expect(QUESTION_TYPES.map((t) => t.value)).toEqual(['YES_OR_NO', 'MULTIPLE_CHOICE', 'OPINION_SCALE', 'TEXT', 'DATE_TIME', 'LOCATION', 'NUMBER', 'PICTURE', 'SIGNATURE']);
  });
  it('checks each question for its type', () => {
    const every: Question[] = QUESTION_TYPES.map((t, i) => ({ id: `q${i}`, tipo: t.value, pergunta: t.label, ...(t.value === 'MULTIPLE_CHOICE' ? { opcoes: ['A', 'B'] } : {}) }));
    expect(checkQuestions(every)).toEqual([]);
    expect(checkQuestions([{ id: 'a', tipo: 'OPINION_SCALE', pergunta: 'x', escalaMin: 2 }])).toEqual(['Questão 1: a escala deve começar em 0 ou 1']);
    expect(checkQuestions([{ id: 'a', tipo: 'TEXT', pergunta: 'x', maxCaracteres: 0 }])).toEqual(['Questão 1: o limite de caracteres deve ser de 1 a 5000']);
    expect(checkQuestions([{ id: 'a', tipo: 'TEXT', pergunta: 'x', cor: 'azul' }])).toEqual(['Questão 1: campo desconhecido: cor']);
    expect(checkQuestions({})).toEqual(['O campo Questões deve ser uma lista de questões']);
  });
  it('checks answers against their questions', () => {
    const qs: Question[] = [
      { id: 'n', tipo: 'NUMBER', pergunta: 'Litros', min: 0, max: 100, decimais: true },
      { id: 'm', tipo: 'MULTIPLE_CHOICE', pergunta: 'Cor', opcoes: ['Azul', 'Verde'], multipla: true, obrigatoria: true },
      { id: 's', tipo: 'SIGNATURE', pergunta: 'Assinatura' },
    ];
    expect(checkAnswers(qs, [{ questao: 'n', valor: 12.5 }, { questao: 'm', valor: ['Verde'] }, { questao: 's', valor: `/api/upload/file/${'a'.repeat(32)}.png` }])).toEqual([]);
    expect(checkAnswers(qs, [{ questao: 'n', valor: 101 }, { questao: 'm', valor: ['Verde', 'Verde'] }, { questao: 's', valor: 'x.png' }]).map((e) => e.message)).toEqual([
      'Questão 1 (Litros): o valor deve ser no máximo 100',
      'Questão 2 (Cor): opção repetida',
      'Questão 3 (Assinatura): assine no quadro e confirme',
    ]);
    expect(checkAnswers(qs, []).map((e) => e.message)).toEqual(['Questão 2 (Cor): resposta obrigatória']);
    expect(checkAnswers(qs, [{ questao: 'n', valor: 1 }, { questao: 'n', valor: 2 }, { questao: 'm', valor: ['Azul'] }]).map((e) => e.message)).toEqual(['Questão respondida mais de uma vez: Litros']);
  });
});
