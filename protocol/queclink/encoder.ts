// Commands to Queclink devices: AT+GT{CMD}={password},...,{serial}$ .
import { CommandValidationError, type CommandParamValue, type DeviceCommand } from '../types.ts';
import { specFor } from './models.ts';

/** AT+GTRTO sub-commands (@Track): 1 RTL (position now), 2 READ (configuration), 3 REBOOT, 4 RESET (factory). */
export const RTO = { RTL: '1', READ: '2', REBOOT: '3', RESET: '4' } as const;

/** What a command field may not hold (the field and command delimiters, line breaks), and may (printable ASCII). */
export const FORBIDDEN = /[,$\r\n]/;
export const PRINTABLE = /^[\x20-\x7e]*$/;

function param(field: string, value: CommandParamValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CommandValidationError('INVALID', field, `O campo ${field} deve ser um número finito`);
    return String(value);
  }
  if (typeof value !== 'string') throw new CommandValidationError('INVALID', field, `O campo ${field} tem tipo inválido`);
  if (FORBIDDEN.test(value)) {
    throw new CommandValidationError('DELIMITER', field, `O campo ${field} não pode conter ',', '$' ou quebras de linha`);
  }
  if (!PRINTABLE.test(value)) throw new CommandValidationError('INVALID', field, `O campo ${field} contém caracteres inválidos`);
  return value;
}

function serialHex(serial: number | undefined): string {
  if (serial === undefined) return 'FFFF';
  if (!Number.isInteger(serial) || serial < 0 || serial > 0xffff) {
    throw new CommandValidationError('RANGE', 'serial', 'O número de série deve estar entre 0 e 65535');
  }
  return serial.toString(16).toUpperCase().padStart(4, '0');
}

function password(cmd: DeviceCommand): string {
  const spec = specFor(cmd.model);
  const pwd = cmd.password ?? spec.password;
  param('password', pwd);
  if (!/^[0-9A-Za-z]{4,20}$/.test(pwd)) {
    throw new CommandValidationError('INVALID', 'password', 'A senha deve ter de 4 a 20 letras ou dígitos');
  }
  return pwd;
}

function at(name: string, pwd: string, fields: string[], serial: string): Buffer {
  return Buffer.from(`AT+${name}=${[pwd, ...fields, serial].join(',')}$`, 'ascii');
}

function outputState(v: CommandParamValue | CommandParamValue[] | undefined, field: string): string {
  if (v === undefined) return '0';
  if (v === true || v === 1 || v === '1') return '1';
  if (v === false || v === 0 || v === '0') return '0';
  throw new CommandValidationError('INVALID', field, `O campo ${field} deve ser 0 ou 1`);
}

/**
 * Build a command frame.
 * - reboot: AT+GTRTO sub 3 (params.reset=true → sub 4, factory reset)
 * - sync: AT+GTRTO sub 1 (current position), params.sub may pick another RTO sub-command
 * - readConfig: AT+GTRTO sub 2 (device answers with its configuration)
 * - writeConfig: AT+GT{params.group}=pwd,{params.values...},serial
 * - engineBlock / engineUnblock: AT+GTOUT output 1 on/off; output: params.output (1..3), params.active
 */
export function encode(cmd: DeviceCommand): Buffer {
  if (!cmd || typeof cmd !== 'object') throw new CommandValidationError('REQUIRED', 'command', 'Comando obrigatório');
  const serial = serialHex(cmd.serial);
  const pwd = password(cmd);
  const p = cmd.params ?? {};
  const rto = (sub: string) => at('GTRTO', pwd, [sub, '', '', '', '', ''], serial);
  switch (cmd.type) {
    case 'reboot':
      return rto(p.reset === true ? RTO.RESET : RTO.REBOOT);
    case 'sync': {
      const sub = p.sub === undefined ? RTO.RTL : param('sub', p.sub as CommandParamValue);
      if (!/^[0-9A-Fa-f]$/.test(sub)) throw new CommandValidationError('INVALID', 'sub', 'Subcomando RTO inválido');
      return rto(sub.toUpperCase());
    }
    case 'readConfig':
      return rto(RTO.READ);
    case 'writeConfig': {
      const group = param('group', p.group as CommandParamValue);
      if (!/^(GT)?[A-Z]{3}$/.test(group)) throw new CommandValidationError('INVALID', 'group', 'Grupo de configuração inválido (ex.: GTFRI)');
      const values = p.values;
      if (!Array.isArray(values)) throw new CommandValidationError('REQUIRED', 'values', 'O campo values é obrigatório');
      const name = group.startsWith('GT') ? group : `GT${group}`;
      return at(name, pwd, values.map((x, i) => param(`values[${i}]`, x)), serial);
    }
    case 'engineBlock':
    case 'engineUnblock':
    case 'output': {
      const states: Record<string, string> = { o1: '0', o2: '0', o3: '0' };
      if (cmd.type === 'output') {
        const n = p.output;
        if (n !== 1 && n !== 2 && n !== 3) throw new CommandValidationError('RANGE', 'output', 'A saída deve ser 1, 2 ou 3');
        states[`o${n}`] = outputState(p.active, 'active');
      } else states.o1 = cmd.type === 'engineBlock' ? '1' : '0';
      const spec = specFor(cmd.model);
      const fields = spec.outTemplate.map((f) => f.replace(/\{(o[123])\}/g, (_, k: string) => states[k]!));
      return at('GTOUT', pwd, fields, serial);
    }
    default:
      throw new CommandValidationError('UNSUPPORTED', 'type', `Comando não suportado: ${String((cmd as DeviceCommand).type)}`);
  }
}
