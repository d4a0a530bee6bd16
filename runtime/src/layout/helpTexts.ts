// Texts of the root screen's help side panel (spec section 2 "Root screen"), keyed by screen and section.
// The device application parameters (catalogues.md section 5 gives their rules; the wording is ours).
export interface HelpItem { label: string; value: string }
export interface HelpSection { title: string; items: HelpItem[] }

export const helpTexts: Record<string, Record<string, HelpSection>> = {
  dispositivo: {
    temporizacao: {
      title: 'Temporizações',
      items: [
        { label: 'Intervalo com ignição ligada', value: 'Tempo entre duas posições enviadas com o veículo ligado (modo ativo).' },
        { label: 'Intervalo com ignição desligada', value: 'Tempo entre duas posições com o veículo desligado; valores maiores poupam bateria e dados.' },
        { label: 'Tempo de antifurto', value: 'Tempo até o antifurto atuar; não pode ser menor que 20 s. Use 0 para desativar.' },
        { label: 'Período de sono', value: 'Tempo que o rastreador fica em modo sono antes de acordar e reportar: de 30 minutos a 8 dias.' },
      ],
    },
    min_max: {
      title: 'Mínimos e máximos',
      items: [
        { label: 'Velocidade máxima', value: 'Acima deste valor (km/h) o equipamento gera o evento de excesso de velocidade.' },
        { label: 'Tensão mínima da bateria', value: 'Abaixo deste valor (V) é gerado o alarme de bateria baixa.' },
        { label: 'Temperatura', value: 'Faixa (°C) fora da qual o sensor de temperatura gera alarme.' },
      ],
    },
    operadora: {
      title: 'Operadora',
      items: [
        { label: 'APN', value: 'Nome do ponto de acesso da operadora do SIM card (ex.: zap.vivo.com.br).' },
        { label: 'Usuário e senha da APN', value: 'Credenciais da APN; deixe em branco quando a operadora não exigir.' },
        { label: 'Roaming', value: 'Permite ou não que o equipamento transmita fora da rede da operadora.' },
      ],
    },
    odometro_gps: {
      title: 'Hodômetro e GPS',
      items: [
        { label: 'Hodômetro inicial', value: 'Valor (km) do painel do veículo na instalação; o equipamento soma a distância percorrida a partir dele.' },
        { label: 'Origem do hodômetro', value: 'GPS (distância entre posições) ou sensor de velocidade do veículo.' },
        { label: 'DOP máximo', value: 'Posições com diluição de precisão acima deste nível são descartadas; nível máximo 15.' },
        { label: 'Alarme de mudança de direção', value: 'Não é enviado quando a velocidade ou o ângulo é 0; abaixo de 20 km/h o rumo do GPS não é confiável.' },
      ],
    },
    gateway: {
      title: 'Gateway',
      items: [
        { label: 'Servidor e porta', value: 'Endereço e porta para onde o equipamento envia as mensagens.' },
        { label: 'Protocolo', value: 'TCP mantém a conexão aberta (comandos imediatos); UDP consome menos dados.' },
        { label: 'Mensagem do gateway', value: 'Texto livre repassado ao equipamento; no máximo 227 bytes.' },
      ],
    },
    tabela_estados: {
      title: 'Tabela de estados',
      items: [
        { label: 'Estado', value: 'Combinação de entradas (ignição, portas, pânico) que define o modo do equipamento.' },
        { label: 'Ação', value: 'O que o equipamento faz ao entrar no estado: mudar o intervalo de envio, acionar saída, gerar evento.' },
      ],
    },
    acelerometro: {
      title: 'Acelerômetro',
      items: [
        { label: 'Aceleração e frenagem bruscas', value: 'Limiar (em g) acima do qual é gerado o evento de condução agressiva.' },
        { label: 'Curva brusca', value: 'Limiar de aceleração lateral que gera o evento de curva brusca.' },
        { label: 'Detecção de movimento', value: 'Sensibilidade usada para acordar o equipamento do modo sono.' },
      ],
    },
    captura_entradas: {
      title: 'Captura de entradas',
      items: [
        { label: 'Entrada digital', value: 'Função de cada entrada (ignição, porta, pânico, sensor auxiliar) e se é ativa em nível alto ou baixo.' },
        { label: 'Tempo de filtro', value: 'Tempo que a entrada deve ficar estável antes de gerar o evento (evita falsos acionamentos).' },
      ],
    },
    can: {
      title: 'CAN',
      items: [
        { label: 'Leitura CAN', value: 'Ativa a leitura dos dados do barramento do veículo (rotação, velocidade, consumo, temperatura).' },
        { label: 'Sincronizar CAN', value: 'Envia ao equipamento a configuração do barramento para o modelo do veículo.' },
      ],
    },
    horimetro: {
      title: 'Horímetro',
      items: [
        { label: 'Horímetro inicial', value: 'Horas de motor já registradas no veículo na instalação.' },
        { label: 'Origem', value: 'Ignição ligada ou rotação do motor (CAN) conta como hora trabalhada.' },
      ],
    },
    operacao_veiculo: {
      title: 'Operação do veículo',
      items: [
        { label: 'Marcha lenta', value: 'Tempo com ignição ligada e veículo parado após o qual é gerado o evento de marcha lenta.' },
        { label: 'Banguela', value: 'Detecta o veículo em movimento com o motor em rotação de marcha lenta.' },
        { label: 'Identificação do motorista', value: 'Exige o crachá (tag) do motorista para liberar a operação.' },
      ],
    },
    snapshot: {
      title: 'Snapshot',
      items: [
        { label: 'Intervalo de amostragem', value: 'De 1 a 250 s entre amostras; 0 desativa o envio.' },
        { label: 'Amostras por registro', value: 'Quantidade de amostras agrupadas em cada registro enviado: de 1 a 60.' },
      ],
    },
  },
};

/** The section of a screen, if the catalogue has it. */
export const helpFor = (screen: string, section: string): HelpSection | undefined => helpTexts[screen]?.[section];
