// Questionnaires (metadata `widget: questionnaire` on a json field, e.g. formulario.questoes; `widget: answers` on the
// json field holding a respondent's answers, e.g. resposta_formulario.respostas): the nine question types of the spec
// (core.md §3), each with its settings, and the server's checks of a question list and of answers to it, with pt-BR
// messages. Pure: shared by the server (server/crud/write.ts, the resposta_formulario hook) and the runtime editor.

export const QUESTION_TYPES = [
  { value: 'YES_OR_NO', label: 'Sim ou não' },
  { value: 'MULTIPLE_CHOICE', label: 'Múltipla escolha' },
  { value: 'OPINION_SCALE', label: 'Escala de opinião' },
  { value: 'TEXT', label: 'Texto' },
  { value: 'DATE_TIME', label: 'Data e hora' },
  { value: 'LOCATION', label: 'Localização' },
  { value: 'NUMBER', label: 'Número' },
  { value: 'PICTURE', label: 'Foto' },
  { value: 'SIGNATURE', label: 'Assinatura' },
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number]['value'];

export interface Question {
  id: string;                // stable key of the question (answers refer to it)
  tipo: QuestionType;
  pergunta: string;          // question text
  obrigatoria?: boolean;
  descricao?: string;
  opcoes?: string[];         // MULTIPLE_CHOICE
  multipla?: boolean;        // MULTIPLE_CHOICE: more than one option may be picked
  escalaMin?: number;        // OPINION_SCALE (integers, default 1..5)
  escalaMax?: number;
  rotuloMin?: string;
  rotuloMax?: string;
  min?: number;              // NUMBER
  max?: number;
  decimais?: boolean;        // NUMBER: decimals allowed
  maxCaracteres?: number;    // TEXT
}

export interface Answer { questao: string; valor: unknown }
export interface QuestionnaireError { field: string; message: string }

const TYPES = new Set<string>(QUESTION_TYPES.map((t) => t.value));
export const typeLabel = (t: string) => QUESTION_TYPES.find((x) => x.value === t)?.label ?? t;
export const MAX_QUESTIONS = 200;
const KEYS = new Set(['id', 'tipo', 'pergunta', 'obrigatoria', 'descricao', 'opcoes', 'multipla', 'escalaMin', 'escalaMax', 'rotuloMin', 'rotuloMax', 'min', 'max', 'decimais', 'maxCaracteres']);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The scale bounds of an OPINION_SCALE question (default 1 to 5). */
export const scaleOf = (q: Question) => ({ min: q.escalaMin ?? 1, max: q.escalaMax ?? 5 });

/** A question list's first problem per question, as pt-BR messages ('Questão N: ...'). Empty when valid. */
export function checkQuestions(value: unknown, label = 'Questões'): string[] {
  if (!Array.isArray(value)) return [`O campo ${label} deve ser uma lista de questões`];
  if (value.length > MAX_QUESTIONS) return [`O campo ${label} aceita no máximo ${MAX_QUESTIONS} questões`];
  const out: string[] = [];
  const ids = new Set<string>();
  value.forEach((raw, i) => {
    const n = `Questão ${i + 1}`;
    const fail = (m: string) => out.push(`${n}: ${m}`);
    if (!isObj(raw)) return fail('deve ser um objeto');
    const q = raw as unknown as Question;
    const extra = Object.keys(raw).find((k) => !KEYS.has(k));
    if (extra) return fail(`campo desconhecido: ${extra}`);
    if (typeof q.id !== 'string' || !/^[A-Za-z0-9_-]{1,40}$/.test(q.id)) return fail('identificador inválido');
    if (ids.has(q.id)) return fail('identificador repetido');
    ids.add(q.id);
    if (typeof q.tipo !== 'string' || !TYPES.has(q.tipo)) return fail(`tipo inválido (use ${[...TYPES].join(', ')})`);
    if (typeof q.pergunta !== 'string' || !q.pergunta.trim()) return fail('o texto da pergunta é obrigatório');
    if (q.pergunta.length > 500) return fail('a pergunta deve ter no máximo 500 caracteres');
    if (q.obrigatoria !== undefined && typeof q.obrigatoria !== 'boolean') return fail('obrigatória deve ser verdadeiro ou falso');
    if (q.descricao !== undefined && q.descricao !== null && (typeof q.descricao !== 'string' || q.descricao.length > 1000)) return fail('a descrição deve ser um texto de no máximo 1000 caracteres');
    // settings of other types are refused: the question says only what its type uses
    const own: Record<QuestionType, string[]> = {
      YES_OR_NO: [], TEXT: ['maxCaracteres'], DATE_TIME: [], LOCATION: [], PICTURE: [], SIGNATURE: [],
      MULTIPLE_CHOICE: ['opcoes', 'multipla'], OPINION_SCALE: ['escalaMin', 'escalaMax', 'rotuloMin', 'rotuloMax'],
      NUMBER: ['min', 'max', 'decimais'],
    };
    const foreign = ['opcoes', 'multipla', 'escalaMin', 'escalaMax', 'rotuloMin', 'rotuloMax', 'min', 'max', 'decimais', 'maxCaracteres']
      .find((k) => (raw as Record<string, unknown>)[k] !== undefined && (raw as Record<string, unknown>)[k] !== null && !own[q.tipo].includes(k));
    if (foreign) return fail(`${foreign} não se aplica ao tipo ${typeLabel(q.tipo)}`);
    switch (q.tipo) {
      case 'MULTIPLE_CHOICE': {
        if (!Array.isArray(q.opcoes) || q.opcoes.length < 2) return fail('informe ao menos 2 opções');
        if (q.opcoes.length > 50) return fail('no máximo 50 opções');
        if (q.opcoes.some((o) => typeof o !== 'string' || !o.trim() || o.length > 200)) return fail('cada opção deve ser um texto de 1 a 200 caracteres');
        if (new Set(q.opcoes.map((o) => o.trim().toLowerCase())).size !== q.opcoes.length) return fail('opções repetidas');
        if (q.multipla !== undefined && typeof q.multipla !== 'boolean') return fail('múltipla deve ser verdadeiro ou falso');
        break;
      }
      case 'OPINION_SCALE': {
        if (q.escalaMin !== undefined && !isInt(q.escalaMin)) return fail('o início da escala deve ser um número inteiro');
        if (q.escalaMax !== undefined && !isInt(q.escalaMax)) return fail('o fim da escala deve ser um número inteiro');
        const { min, max } = scaleOf(q);
        if (min < 0 || min > 1) return fail('a escala deve começar em 0 ou 1');
        if (max < min + 2 || max > 10) return fail('a escala deve terminar entre início + 2 e 10');
        for (const k of ['rotuloMin', 'rotuloMax'] as const) {
          if (q[k] !== undefined && q[k] !== null && (typeof q[k] !== 'string' || q[k]!.length > 60)) return fail('os rótulos da escala devem ter no máximo 60 caracteres');
        }
        break;
      }
      case 'NUMBER': {
        if (q.min !== undefined && q.min !== null && !isNum(q.min)) return fail('o mínimo deve ser um número');
        if (q.max !== undefined && q.max !== null && !isNum(q.max)) return fail('o máximo deve ser um número');
        if (isNum(q.min) && isNum(q.max) && q.min > q.max) return fail('o mínimo deve ser menor ou igual ao máximo');
        if (q.decimais !== undefined && typeof q.decimais !== 'boolean') return fail('decimais deve ser verdadeiro ou falso');
        break;
      }
      case 'TEXT':
        if (q.maxCaracteres !== undefined && q.maxCaracteres !== null && (!isInt(q.maxCaracteres) || q.maxCaracteres < 1 || q.maxCaracteres > 5000)) return fail('o limite de caracteres deve ser de 1 a 5000');
        break;
      default:
    }
  });
  return out;
}

/** URLs answered by POST /api/upload/* (see generator/emit/schemas.ts UPLOADED_IMAGE). */
const UPLOADED_IMAGE = /^\/api\/upload\/file\/[0-9a-f]{32}\.png$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Checks answers against the questions: one pt-BR message per failing question (field = the question's id). */
export function checkAnswers(questions: Question[], value: unknown): QuestionnaireError[] {
  if (!Array.isArray(value)) return [{ field: 'respostas', message: 'As respostas devem ser uma lista' }];
  const out: QuestionnaireError[] = [];
  const byId = new Map(questions.map((q) => [q.id, q]));
  const given = new Map<string, unknown>();
  for (const a of value) {
    if (!isObj(a) || typeof a.questao !== 'string') { out.push({ field: 'respostas', message: 'Cada resposta deve ter questao e valor' }); return out; }
    if (!byId.has(a.questao)) { out.push({ field: a.questao, message: `Questão desconhecida: ${a.questao}` }); continue; }
    if (given.has(a.questao)) { out.push({ field: a.questao, message: `Questão respondida mais de uma vez: ${byId.get(a.questao)!.pergunta}` }); continue; }
    given.set(a.questao, a.valor);
  }
  questions.forEach((q, i) => {
    const n = `Questão ${i + 1} (${q.pergunta})`;
    const v = given.get(q.id);
    const fail = (m: string) => out.push({ field: q.id, message: `${n}: ${m}` });
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) {
      if (q.obrigatoria) fail('resposta obrigatória');
      return;
    }
    switch (q.tipo) {
      case 'YES_OR_NO':
        if (typeof v !== 'boolean') fail('responda sim ou não');
        break;
      case 'MULTIPLE_CHOICE': {
        const picked = q.multipla ? v : [v];
        if (!Array.isArray(picked) || picked.some((o) => typeof o !== 'string' || !q.opcoes!.includes(o))) fail(`escolha entre: ${q.opcoes!.join(', ')}`);
        else if (new Set(picked).size !== picked.length) fail('opção repetida');
        break;
      }
      case 'OPINION_SCALE': {
        const { min, max } = scaleOf(q);
        if (!isInt(v) || v < min || v > max) fail(`escolha um valor de ${min} a ${max}`);
        break;
      }
      case 'TEXT':
        if (typeof v !== 'string') fail('a resposta deve ser um texto');
        else if (v.length > (q.maxCaracteres ?? 5000)) fail(`a resposta deve ter no máximo ${q.maxCaracteres ?? 5000} caracteres`);
        break;
      case 'DATE_TIME':
        if (typeof v !== 'string' || !DATE_TIME.test(v) || Number.isNaN(Date.parse(v))) fail('informe uma data e hora válidas');
        break;
      case 'LOCATION': {
        const p = v as Record<string, unknown>;
        if (!isObj(v) || !isNum(p.latitude) || !isNum(p.longitude) || Object.keys(v).some((k) => k !== 'latitude' && k !== 'longitude')) fail('informe latitude e longitude');
        else if (Math.abs(p.latitude as number) > 90 || Math.abs(p.longitude as number) > 180) fail('latitude deve estar entre -90 e 90 e longitude entre -180 e 180');
        break;
      }
      case 'NUMBER':
        if (!isNum(v)) fail('informe um número');
        else if (!q.decimais && !Number.isInteger(v)) fail('informe um número inteiro');
        else if (isNum(q.min) && v < q.min) fail(`o valor deve ser no mínimo ${q.min}`);
        else if (isNum(q.max) && v > q.max) fail(`o valor deve ser no máximo ${q.max}`);
        break;
      case 'PICTURE': case 'SIGNATURE':
        if (typeof v !== 'string' || !UPLOADED_IMAGE.test(v)) fail(q.tipo === 'PICTURE' ? 'envie a foto pelo botão Selecionar imagem' : 'assine no quadro e confirme');
        break;
    }
  });
  return out;
}
