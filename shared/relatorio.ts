// Report families (metadata `kind: relatorio`, generator/kinds/relatorio.ts): what the generator, the server
// (modules/relatorios) and the screen share — the parameter catalogue, the report column keys of catalogues.md 3.9
// and the normalised shapes written to model.json (`relatorios`).
import type { ReportColumnMeta, ReportColumnType, ReportFamilyMeta, ReportKindMeta, ReportParamMeta, ReportParamName } from './model.ts';

export type { ReportColumnMeta, ReportColumnType, ReportFamilyMeta, ReportKindMeta, ReportParamMeta, ReportParamName };

/** The date picker's shortcuts (core.md 'Date picker'; runtime/src/crud/widgets/DateRangeFilter.tsx). */
export const PERIOD_SHORTCUTS = ['Hoje', 'Ontem', 'Ontem e hoje', 'Últimos 7 dias', 'Últimos 30 dias', 'Último trimestre', 'Último semestre'] as const;

/** Grouping of date reports (year/month/week/day/shift). */
export const GROUPINGS = [
  { value: 'ano', label: 'Ano' }, { value: 'mes', label: 'Mês' }, { value: 'semana', label: 'Semana' },
  { value: 'dia', label: 'Dia' }, { value: 'turno', label: 'Turno' },
] as const;

/** Parameters a report kind may declare: the period (SQL {param:inicio} and {param:fim}), the register pickers (SQL
 *  {param:<name>}: an int[] or NULL when nothing is chosen), the grouping ({param:agrupamento}) and the refuel
 *  detection's settings (numbers and a yes/no with their defaults: Wialon's fuel filling/theft parameters). */
export const REPORT_PARAMS: Record<ReportParamName, { label: string; type: ReportParamMeta['type']; reference?: string; default?: number | boolean; minimum?: number; maximum?: number }> = {
  periodo: { label: 'Período', type: 'periodo' },
  ativos: { label: 'Ativos', type: 'registros', reference: 'ativo' },
  motoristas: { label: 'Motoristas', type: 'registros', reference: 'motorista' },
  garagens: { label: 'Garagens', type: 'registros', reference: 'garagem' },
  grupos: { label: 'Grupos genéricos', type: 'registros', reference: 'grupo_generico_ativo' },
  passageiros: { label: 'Passageiros', type: 'registros', reference: 'passageiro' },
  itinerarios: { label: 'Itinerários', type: 'registros', reference: 'itinerario' },
  formularios: { label: 'Formulários', type: 'registros', reference: 'formulario' },
  agrupamento: { label: 'Agrupamento', type: 'agrupamento' },
  janelaMediana: { label: 'Filtro de mediana (leituras)', type: 'numero', default: 5, minimum: 1, maximum: 31 },
  volumeMinimo: { label: 'Volume mínimo (L)', type: 'numero', default: 10, minimum: 0.1, maximum: 10000 },
  intervaloUniao: { label: 'Unir eventos a menos de (min)', type: 'numero', default: 10, minimum: 0, maximum: 1440 },
  somenteParado: { label: 'Abastecimento só com o veículo parado', type: 'booleano', default: true },
};

/** Every report reads the caller's time zone ({param:fuso}, IANA name) for its dates and hours. */
export const IMPLICIT_PARAMS = ['fuso'] as const;

/** Column keys of the report catalogues (catalogues.md 3.9). The departure/arrival address, city, postal code and
 *  position the catalogue names without keys are enderecoPartida … posicaoChegada. */
export const REPORT_COLUMN_KEYS: readonly string[] = [
  // common
  'data', 'dataInicial', 'dataFinal', 'horaInicial', 'horaFinal', 'ativo', 'placa', 'frota', 'garagemAtivo', 'motorista',
  'tagMotorista', 'garagemMotorista', 'duracao', 'distancia', 'velocidadeMedia', 'velocidadeMaxima', 'hodometroInicial',
  'hodometroFinal', 'horimetroInicial', 'horimetroFinal', 'totalDias', 'diasComViagem', 'utilizacaoAtivo', 'qtdAtivosFrota',
  'qtdAtivosComViagem', 'serial', 'qtdViagens', 'peso1oEixo', 'peso2oEixo', 'carga',
  'enderecoPartida', 'cidadePartida', 'cepPartida', 'posicaoPartida', 'enderecoChegada', 'cidadeChegada', 'cepChegada', 'posicaoChegada',
  // times, as hours and percent
  ...['tempoConducao', 'tempoParado', 'tempoMarchaLenta', 'tempoEstacionado', 'tempoEmViagem'].flatMap((t) => [`${t}Horas`, `${t}Porcentagem`]),
  // fuel and refuel
  'horaInicio', 'dataInicio', 'horaFim', 'dataFim', 'combustivelUtilizado', 'consumoProjetado', 'mediaConsumoUtilizado',
  'mediaConsumoProjetado', 'diferencaConsumo', 'posicao', 'duracaoHoraMotor', 'consumoCombustivelLtHora', 'eventos',
  'primeiroAbastecimento', 'ultimoAbastecimento', 'variacaoCombustivel', 'variacaoDistancia', 'entradaDistancia',
  'entradaHodometro', 'entradaCombustivel', 'entradaConsumo', 'entradaValor', 'tipoAbastecimento', 'local',
  'diferencaPercentual', 'tipoDiferenca',
  // analysis and audit
  'operacao', 'tabela', 'log', 'usuario', 'role', 'parametro', 'valor', 'equipamentoId', 'modeloConfiguracao', 'ativos', 'tipo',
  'vlrRetorno', 'vlrRetornoOperacao', 'atraso', 'condicao', 'risco', 'eventoNome', 'horasAntes', 'horasDepois', 'horasFora',
  // movement
  'garagemNome', 'cercaNome', 'qtdeEntradas', 'qtdeSaidas', 'tempoLocal', 'dataSaida', 'horaSaida', 'dataChegada', 'horaChegada',
  'localSaida', 'localChegada', 'cercaSaida', 'cercaChegada',
  // driver scoring, risk
  'pontuacao', 'totalHoras', 'ranking',
  // forms
  'titulo', 'descricao', 'frequencia', 'unidadeDeFreq', 'perguntas', 'tipoPerguntas', 'idsUsuario', 'idsMotorista', 'criadoPor',
  'dataResposta', 'quemRespondeu', 'respostas', 'quantidade', 'representacao',
  // passengers
  'inicioViagem', 'fimViagem', 'consumo', 'qtdPassageiros', 'lotacao', 'percLotacao', 'ativoId', 'nome', 'matricula', 'entrada',
  'saida', 'razao', 'tempo', 'itinerario', 'inicioItinerario', 'fimItinerario', 'idItinerario', 'inicio', 'fim',
  'quantidadePassageiros', 'idPrestadora', 'horario', 'tag', 'direcao', 'criadoAuto',
];

/** Value types of report columns: date 'YYYY-MM-DD', time 'HH:MM:SS', duration in seconds. */
export const REPORT_COLUMN_TYPES: readonly ReportColumnType[] = ['string', 'integer', 'number', 'date', 'time', 'datetime', 'duration'];
export const REPORT_UNITS: readonly NonNullable<ReportColumnMeta['unit']>[] = ['km', 'km/h', 'h', '%', 'L', 'km/L', 'L/h', 'kg'];

export const REPORTS_ROUTE = '/rel/rel/relatorios';
export const REPORTS_KEY = 'rel.rel.relatorios';
