// Configuration command templates (@Track): how a configuration model's parameters become AT commands for one device
// model. The field layout of AT+GTFRI, AT+GTCFG … differs per model and firmware, so it is data written from the
// model's manual, one command per line, never code:
//
//   AT+GTFRI={senha},1,0,,,0000,0000,{intervaloIgnicaoLigada},{intervaloIgnicaoLigada},,,,,{anguloMudancaDirecao},,{serial}$
//
// {senha} (first field) and {serial} (last) are filled by the encoder (device password, queue sequence); {campo} is a
// parameter of the configuration model, {campo*60} / {campo/60} scales it (minutes → seconds …; division rounds).
// Booleans are 1/0, an empty parameter an empty field. Lines starting with # are comments.
import { CommandValidationError, type CommandParamValue, type ConfigTemplate } from '../types.ts';
import { FORBIDDEN, PRINTABLE } from './encoder.ts';

export const MAX_TEMPLATE_LINES = 30;

type Part = { literal: string } | { field: string; mul: number; div: number };

const LINE = /^AT\+(GT[A-Z]{3})=(.*)\$$/;
const PLACEHOLDER = /^\{([A-Za-z][A-Za-z0-9_]*)(?:([*/])([1-9][0-9]{0,6}))?\}$/;

const problem = (line: number, message: string) => new CommandValidationError('INVALID', `linha ${line}`, `Linha ${line}: ${message}`);

function parseLine(text: string, n: number): { group: string; parts: Part[] } {
  const m = LINE.exec(text);
  if (!m) throw problem(n, 'o comando deve ter a forma AT+GTXXX={senha},…,{serial}$');
  const fields = m[2]!.split(',');
  if (fields[0] !== '{senha}') throw problem(n, 'o primeiro campo deve ser {senha}');
  if (fields.length < 2 || fields[fields.length - 1] !== '{serial}') throw problem(n, 'o último campo deve ser {serial}');
  const parts = fields.slice(1, -1).map((f): Part => {
    if (f.includes('{') || f.includes('}')) {
      const p = PLACEHOLDER.exec(f);
      if (!p) throw problem(n, `campo inválido '${f}': use {campo}, {campo*N} ou {campo/N}`);
      const [, field, op, k] = p;
      if (field === 'senha' || field === 'serial') throw problem(n, `{${field}} só pode ser o ${field === 'senha' ? 'primeiro' : 'último'} campo`);
      return { field: field!, mul: op === '*' ? Number(k) : 1, div: op === '/' ? Number(k) : 1 };
    }
    if (!PRINTABLE.test(f) || f.includes('$')) throw problem(n, `campo inválido '${f}': só caracteres ASCII visíveis, sem '$'`);
    return { literal: f };
  });
  return { group: m[1]!, parts };
}

function valueOf(part: Extract<Part, { field: string }>, raw: unknown, label: string): CommandParamValue {
  if (raw === undefined || raw === null || raw === '') return '';
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) throw new CommandValidationError('INVALID', part.field, `O campo ${label} deve ser um número finito`);
    return part.mul === 1 && part.div === 1 ? raw : Math.round((raw * part.mul) / part.div);
  }
  if (typeof raw !== 'string') throw new CommandValidationError('INVALID', part.field, `O campo ${label} tem tipo inválido para um comando`);
  if (part.mul !== 1 || part.div !== 1) throw new CommandValidationError('INVALID', part.field, `O campo ${label} não é numérico: não pode ser escalado`);
  if (FORBIDDEN.test(raw)) throw new CommandValidationError('DELIMITER', part.field, `O campo ${label} não pode conter ',', '$' ou quebras de linha num comando de configuração`);
  return raw;
}

/** Compiles the template text of a model (throws CommandValidationError naming the line). Empty text: no commands. */
export function compileConfigTemplate(text: string): ConfigTemplate {
  const lines = String(text ?? '').split(/\r?\n/).map((l, i) => ({ n: i + 1, text: l.trim() })).filter((l) => l.text && !l.text.startsWith('#'));
  if (lines.length > MAX_TEMPLATE_LINES) throw new CommandValidationError('RANGE', 'linhas', `São no máximo ${MAX_TEMPLATE_LINES} comandos de configuração por modelo`);
  const commands = lines.map((l) => parseLine(l.text, l.n));
  const fields = [...new Set(commands.flatMap((c) => c.parts.flatMap((p) => ('field' in p ? [p.field] : []))))];
  return {
    fields,
    render(values, labels = {}) {
      return commands.map((c) => ({
        group: c.group,
        values: c.parts.map((p) => ('literal' in p ? p.literal : valueOf(p, values[p.field], labels[p.field] ?? p.field))),
      }));
    },
  };
}
