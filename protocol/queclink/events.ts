// Queclink report → catalogue event (key + pt-BR description), as data.
// Descriptions follow the meaning given by the @Track documents for each report;
// a report whose sub-type meaning is not documented gets description ''.
import type { NormalizedEvent } from '../types.ts';

interface EventDef { key: string; description: string }

/** Fixed event per report code. */
const BY_CODE: Record<string, EventDef> = {
  GTFRI: { key: 'fixedReport', description: 'Relatório periódico de posição' },
  GTERI: { key: 'fixedReport', description: 'Relatório periódico de posição (estendido)' },
  GTIGN: { key: 'ignitionOn', description: 'Ignição ligada' },
  GTIGF: { key: 'ignitionOff', description: 'Ignição desligada' },
  GTVGN: { key: 'virtualIgnitionOn', description: 'Ignição virtual ligada' },
  GTVGF: { key: 'virtualIgnitionOff', description: 'Ignição virtual desligada' },
  GTSOS: { key: 'panic', description: 'Botão de pânico (SOS) acionado' },
  GTTOW: { key: 'towing', description: 'Veículo rebocado' },
  GTPNA: { key: 'powerOn', description: 'Equipamento ligado' },
  GTPFA: { key: 'powerOff', description: 'Equipamento desligado' },
  GTMPN: { key: 'externalPowerConnected', description: 'Alimentação externa conectada' },
  GTMPF: { key: 'externalPowerDisconnected', description: 'Alimentação externa desconectada' },
  GTSTT: { key: 'motionStateChange', description: 'Mudança de estado de movimento' },
  GTINF: { key: 'deviceInformation', description: 'Informações do equipamento' },
  GTCAN: { key: 'canReport', description: 'Relatório de dados CAN do veículo' },
  GTCRA: { key: 'collision', description: 'Colisão detectada' },
  GTHBD: { key: 'heartbeat', description: 'Sinal de vida (heartbeat)' },
  GTRTL: { key: 'positionRequest', description: 'Posição solicitada em tempo real' },
  GTDIS: { key: 'digitalInputChange', description: 'Mudança de estado de entrada digital' },
  GTDOS: { key: 'digitalOutputChange', description: 'Mudança de estado de saída digital' },
  GTIDA: { key: 'rfidRead', description: 'Leitura de cartão RFID' },
  // Older and personal-tracker models (GV55, GV300, GL300...).
  GTIDL: { key: 'idle', description: 'Veículo parado com o motor ligado (marcha lenta)' },
  GTEPN: { key: 'externalPowerOn', description: 'Alimentação externa conectada' },
  GTEPF: { key: 'externalPowerOff', description: 'Alimentação externa desconectada' },
  GTBPL: { key: 'lowBattery', description: 'Bateria interna baixa' },
  GTJDR: { key: 'jamming', description: 'Bloqueio de sinal celular (jammer) detectado' },
  GTJDS: { key: 'jammingState', description: 'Mudança do estado de bloqueio de sinal celular' },
  // Answers to AT+GTRTO READ (sub-command 2): the whole configuration (GTALL, GTALC) or one command's (GTALS).
  GTALL: { key: 'configurationReport', description: 'Configuração lida do equipamento' },
  GTALC: { key: 'configurationReport', description: 'Configuração lida do equipamento' },
  GTALS: { key: 'configurationReport', description: 'Configuração lida do equipamento' },
};

/** Events chosen by the report type digit (second char of Report ID/Type). */
const BY_REPORT_TYPE: Record<string, Record<string, EventDef>> = {
  GTGEO: {
    '0': { key: 'geofenceExit', description: 'Saída de cerca eletrônica' },
    '1': { key: 'geofenceEnter', description: 'Entrada em cerca eletrônica' },
  },
  GTSPD: {
    '0': { key: 'overspeed', description: 'Excesso de velocidade' },
    '1': { key: 'overspeedEnd', description: 'Velocidade normalizada' },
  },
  // Harsh behaviour: Y digit = behaviour type.
  GTHBM: {
    '0': { key: 'harshBraking', description: 'Frenagem brusca' },
    '1': { key: 'harshAcceleration', description: 'Aceleração brusca' },
    '2': { key: 'harshTurn', description: 'Curva brusca' },
    '3': { key: 'harshBrakingTurn', description: 'Frenagem brusca em curva' },
    '4': { key: 'harshAccelerationTurn', description: 'Aceleração brusca em curva' },
  },
};

const GENERIC_HBM: EventDef = { key: 'harshBehavior', description: 'Comportamento brusco' };

export function eventsFor(code: string, reportType?: string): NormalizedEvent[] {
  const table = BY_REPORT_TYPE[code];
  if (table) {
    const def = (reportType !== undefined ? table[reportType] : undefined) ?? (code === 'GTHBM' ? GENERIC_HBM : undefined);
    if (def) return [{ code, ...def }];
    return [{ code, key: code.slice(2).toLowerCase(), description: '' }];
  }
  const def = BY_CODE[code];
  return def ? [{ code, ...def }] : [{ code, key: code.slice(2).toLowerCase(), description: '' }];
}

/** Every (code, key, description) this decoder can emit, for the event library metadata. */
export function eventCatalogue(): NormalizedEvent[] {
  const out: NormalizedEvent[] = [];
  for (const [code, def] of Object.entries(BY_CODE)) out.push({ code, ...def });
  for (const [code, t] of Object.entries(BY_REPORT_TYPE)) for (const def of Object.values(t)) out.push({ code, ...def });
  out.push({ code: 'GTHBM', ...GENERIC_HBM });
  return out;
}
