// Configuration models written to devices: the parameters of a modelo_de_configuracao become the commands of the
// device model's templates (modelo.comandosConfiguracao, compiled by the model's protocol: protocol/queclink/config.ts).
// Used by the modelo hook (the templates are checked when saved) and by aplicar_configuracao (rendered when queued).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldMeta } from '../../shared/model.ts';
import { CommandValidationError, type ConfigCommand, type ConfigTemplate } from '../../protocol/types.ts';
import { HttpError } from '../http/envelope.ts';
import { decoders } from '../ingest/decoders.ts';
import type { Row } from './query.ts';
import { entityByKey, ormName } from '../core/registry.ts';

/** Fields of modelo_de_configuracao that are not device parameters. */
const NOT_PARAMETERS = new Set(['descricao', 'tecnologia', 'modelo']);

/** The device parameters of a configuration model (every non-system field but its name, technology and model). */
export function configParameters(): FieldMeta[] {
  return entityByKey('modelo_de_configuracao')!.fields.filter((f) => !f.system && !NOT_PARAMETERS.has(f.name));
}

const FIELD = 'comandosConfiguracao';
const invalid = (message: string) => new HttpError(400, message, [{ field: FIELD, label: 'Comandos de configuração', message }], 'Erro de validação');

/** Compiles `text` for the protocol (its codigo); every parameter named must be one of a configuration model.
 *  Throws HttpError 400 on the field (pt-BR). */
export async function compileTemplates(protocolo: string, text: string): Promise<ConfigTemplate> {
  const decoder = (await decoders())[protocolo];
  if (!decoder?.configTemplate) throw invalid(`O protocolo ${protocolo} não recebe configuração por comandos de texto`);
  let template: ConfigTemplate;
  try {
    template = decoder.configTemplate(text);
  } catch (err) {
    if (err instanceof CommandValidationError) throw invalid(err.message);
    throw err;
  }
  const known = new Set(configParameters().map((f) => f.name));
  const unknown = template.fields.filter((f) => !known.has(f));
  if (unknown.length) {
    throw invalid(`Parâmetro desconhecido: ${unknown.map((f) => `{${f}}`).join(', ')} (os parâmetros do modelo de configuração são ${[...known].join(', ')})`);
  }
  return template;
}

/** The commands that write the configuration `config` (a modelo_de_configuracao row) to devices of its model.
 *  422 in pt-BR when the model has no templates or a value cannot travel in a command. */
export async function configCommands(tx: EntityManager, config: Row, modeloLabel: string): Promise<ConfigCommand[]> {
  const modelo = await tx.findOne(ormName(tx, entityByKey('modelo')!), { codigo: config.modelo } as never, { populate: ['protocolo'] as never }) as Row | null;
  const protocolo = String((modelo?.protocolo as Row | null | undefined)?.codigo ?? config.tecnologia);
  if (!(await decoders())[protocolo]?.configTemplate) {
    throw new HttpError(422, `O protocolo ${protocolo} não recebe configuração por comandos de texto: esta configuração não pode ser gravada nos equipamentos ${modeloLabel}`);
  }
  const text = String(modelo?.comandosConfiguracao ?? '');
  const none = () => new HttpError(422, `O modelo ${modeloLabel} não tem comandos de configuração cadastrados: cadastre-os em Hardware › Modelos`);
  if (!modelo || !text.trim()) throw none();
  let template: ConfigTemplate;
  try {
    template = await compileTemplates(protocolo, text);
  } catch (err) {
    if (err instanceof HttpError) throw new HttpError(422, `Os comandos de configuração do modelo ${modeloLabel} são inválidos: ${err.message}`);
    throw err;
  }
  const parameters = configParameters();
  const labels = Object.fromEntries(parameters.map((f) => [f.name, f.label]));
  let commands: ConfigCommand[];
  try {
    commands = template.render(config, labels);
  } catch (err) {
    if (err instanceof CommandValidationError) throw new HttpError(422, err.message);
    throw err;
  }
  if (!commands.length) throw none();
  return commands;
}
