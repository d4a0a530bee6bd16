// The dashboard widgets (kinds of ../widgets.ts), shared by Gestão à vista and Painéis. Charts follow the spec's rules
// (core.md 9): pt-BR, area not stacked, local-time date axis, marker size 5, smooth curves, bars with radius 5 at half
// the row's height, tooltips dd/MM/yy.
import { type ReactNode } from 'react';
import { Alert, Box, Card, CardContent, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { ResponsiveLine } from '@nivo/line';
import { Link } from 'react-router-dom';
import { ESTADOS_VEICULO, estadoVeiculo, type EstadoVeiculo } from '../../../shared/estado-veiculo';
import { intervalo, PERIODOS, TIPOS, type Periodo, type Widget } from '../widgets';
import { contar, diaCurto, horas, num, useProvider, type EstadoAtivo } from './dados';

export interface Contexto { empresa: number | null; frota: EstadoAtivo[] | null; agora: number; podeMonitorar?: boolean; podeAmbiente?: boolean }

/** A widget's card: title, the period as a caption, actions (Painéis: move/remove) on the right. */
export function Quadro({ titulo, periodo, acoes, children, testid, altura }: { titulo: string; periodo?: string; acoes?: ReactNode; children: ReactNode; testid?: string; altura?: number }) {
  return (
    <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column' }} data-testid={testid} component="section" aria-label={titulo}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, pt: 1.5, gap: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} noWrap>{titulo}</Typography>
        {periodo && <Typography variant="caption" color="text.secondary" noWrap>{periodo}</Typography>}
        {acoes}
      </Box>
      <CardContent sx={{ flex: 1, pt: 1, minHeight: altura }}>{children}</CardContent>
    </Card>
  );
}

const Carregando = () => <LinearProgress sx={{ my: 2 }} aria-label="Carregando" />;
const Vazio = ({ texto }: { texto: string }) => <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>{texto}</Typography>;

// ---- Situação da frota (live) ---------------------------------------------------------------------------------------

const MONITORAMENTO: Record<EstadoVeiculo, string> = {
  em_movimento: 'em_movimento', parado: 'parados', desligado: 'desligados', sem_comunicacao: 'sem_comunicacao',
};

export function Situacao({ ctx }: { ctx: Contexto }) {
  if (!ctx.frota) return <Carregando />;
  const c = contar(ctx.frota, ctx.agora);
  if (!c.total) return <Vazio texto="Nenhum veículo cadastrado na empresa." />;
  const ordem: EstadoVeiculo[] = ['em_movimento', 'parado', 'desligado', 'sem_comunicacao'];
  return (
    <Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(120px, 1fr))', gap: 1.5 }}>
        {ordem.map((e) => {
          const corpo = (
            <Box sx={{ borderLeft: 6, borderColor: ESTADOS_VEICULO[e].color, pl: 1.5, py: 0.5 }}>
              <Typography variant="h4" sx={{ fontWeight: 700, lineHeight: 1.1 }} data-testid={`situacao-${e}`}>{num(c[e])}</Typography>
              <Typography variant="body2">{ESTADOS_VEICULO[e].label}</Typography>
            </Box>
          );
          return ctx.podeMonitorar
            ? <Box key={e} component={Link} to={`/rel/ges/gestao_a_vista/monitoramento/${MONITORAMENTO[e]}`} sx={{ color: 'inherit', textDecoration: 'none', '&:hover': { bgcolor: 'action.hover' }, borderRadius: 1 }}>{corpo}</Box>
            : <Box key={e}>{corpo}</Box>;
        })}
      </Box>
      <Box sx={{ display: 'flex', height: 10, borderRadius: 5, overflow: 'hidden', mt: 2 }} aria-hidden>
        {ordem.map((e) => <Box key={e} sx={{ width: `${(100 * c[e]) / c.total}%`, bgcolor: ESTADOS_VEICULO[e].color }} />)}
      </Box>
      <Typography variant="caption" color="text.secondary" data-testid="situacao-total">{num(c.total)} veículos na frota</Typography>
      <Atencao ctx={ctx} />
    </Box>
  );
}

const desde = (iso: string | null, agora: number) => {
  if (!iso) return 'nunca comunicou';
  const min = Math.max(0, Math.round((agora - Date.parse(iso)) / 60_000));
  return min < 1 ? 'agora' : min < 60 ? `há ${min} min` : min < 2880 ? `há ${Math.round(min / 60)} h` : `há ${Math.round(min / 1440)} dias`;
};

/** What needs a look now: vehicles silent the longest, stopped with the engine on. */
function Atencao({ ctx }: { ctx: Contexto }) {
  const rows = ctx.frota ?? [];
  const silenciosos = rows.filter((r) => estadoVeiculo(r, ctx.agora) === 'sem_comunicacao')
    .sort((a, b) => (a.ultimaComunicacao ? Date.parse(a.ultimaComunicacao) : 0) - (b.ultimaComunicacao ? Date.parse(b.ultimaComunicacao) : 0));
  const ligados = rows.filter((r) => estadoVeiculo(r, ctx.agora) === 'parado');
  if (!silenciosos.length && !ligados.length) return null;
  const linha = (titulo: string, cor: string, itens: EstadoAtivo[], texto: (r: EstadoAtivo) => string, id: string) => itens.length > 0 && (
    <Box sx={{ mt: 1.5 }} data-testid={`atencao-${id}`}>
      <Typography variant="body2" sx={{ fontWeight: 600, color: cor }}>{titulo} ({num(itens.length)})</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, mt: 0.5 }}>
        {itens.slice(0, 6).map((r) => <Chip key={r.id} size="small" variant="outlined" label={`${r.ativo}${r.placa ? ` · ${r.placa}` : ''} — ${texto(r)}`} />)}
        {itens.length > 6 && <Chip size="small" label={`+${num(itens.length - 6)}`} />}
      </Box>
    </Box>
  );
  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', mt: 1.5 }}>
      {linha('Sem comunicação', ESTADOS_VEICULO.sem_comunicacao.color, silenciosos, (r) => desde(r.ultimaComunicacao, ctx.agora), 'sem-comunicacao')}
      {linha('Parados com o motor ligado', ESTADOS_VEICULO.parado.color, ligados, (r) => { const t = desde(r.ultimaComunicacao, ctx.agora); return t === 'agora' ? 'informou agora' : `informou ${t}`; }, 'parados')}
    </Box>
  );
}

// ---- Indicadores do período -----------------------------------------------------------------------------------------

interface Dia { data: string; veiculos: number; veiculosEmViagem: number; distancia: number; tempoConducao: number; tempoMarchaLenta: number; tempoParado: number; horimetro: number; qtdViagens: number; qtdEventos: number; velocidadeMaxima: number | null }

const urlPeriodo = (provider: string, p: Periodo, extra = '') => { const { de, ate } = intervalo(p); return `/api/gestao/${provider}/${de}/${ate}${extra}`; };
const TODOS_OS_DIAS = `?range=[0,999]&sort=${encodeURIComponent('["data","ASC"]')}`;

export function useDias(p: Periodo, empresa: number | null) {
  return useProvider<Dia[]>(urlPeriodo('diario', p, TODOS_OS_DIAS), empresa);
}

export function Indicadores({ periodo, ctx, testid }: { periodo: Periodo; ctx: Contexto; testid?: string }) {
  const { data, erro } = useDias(periodo, ctx.empresa);
  if (erro) return <Alert severity="error">{erro}</Alert>;
  if (!data) return <Carregando />;
  const soma = (k: keyof Dia) => data.reduce((s, d) => s + Number(d[k] ?? 0), 0);
  const itens: [string, string, string][] = [
    ['distancia', 'Distância', `${num(soma('distancia'), 1)} km`],
    ['conducao', 'Em condução', horas(soma('tempoConducao'))],
    ['marcha_lenta', 'Marcha lenta', horas(soma('tempoMarchaLenta'))],
    ['horimetro', 'Horas de motor', horas(soma('horimetro'))],
    ['viagens', 'Viagens', num(soma('qtdViagens'))],
    ['eventos', 'Eventos', num(soma('qtdEventos'))],
  ];
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(110px, 1fr))', gap: 1.5 }} data-testid={testid}>
      {itens.map(([k, label, v]) => (
        <Box key={k}>
          <Typography variant="h6" sx={{ fontWeight: 700, lineHeight: 1.2 }} data-testid={testid ? `${testid}-${k}` : undefined}>{v}</Typography>
          <Typography variant="caption" color="text.secondary">{label}</Typography>
        </Box>
      ))}
    </Box>
  );
}

// ---- daily charts ---------------------------------------------------------------------------------------------------

const localDate = (d: string) => new Date(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
const CORES = ['#1976d2', '#ef6c00', '#2e7d32'];

function Linhas({ series, unidade, casas = 0 }: { series: { id: string; data: { x: Date; y: number }[] }[]; unidade: string; casas?: number }) {
  const n = series[0]?.data.length ?? 0;
  return (
    <Box sx={{ height: 220 }} role="img" aria-label={series.map((s) => s.id).join(', ')}>
      <ResponsiveLine
        data={series}
        margin={{ top: 10, right: 16, bottom: 44, left: 52 }}
        xScale={{ type: 'time', precision: 'day' }}
        yScale={{ type: 'linear', min: 0, max: 'auto', stacked: false }}
        curve="monotoneX"
        colors={CORES}
        enableArea
        areaOpacity={0.12}
        pointSize={5}
        lineWidth={2}
        enableGridX={false}
        axisBottom={{ format: (d: Date) => diaCurto(`${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`).slice(0, 5), tickValues: Math.min(n, 7), tickRotation: n > 10 ? -35 : 0 }}
        axisLeft={{ legend: unidade, legendOffset: -44, legendPosition: 'middle', format: (v: number) => (Number.isInteger(v) ? num(v) : num(v, casas)), tickValues: 5 }}
        gridYValues={5}
        legends={series.length > 1 ? [{ anchor: 'top-right', direction: 'row', itemWidth: 110, itemHeight: 14, translateY: -8, symbolSize: 10 }] : []}
        enableSlices="x"
        animate={false}
        sliceTooltip={({ slice }) => (
          <Box sx={{ bgcolor: 'background.paper', boxShadow: 2, borderRadius: 1, px: 1, py: 0.5, fontSize: 12 }}>
            <b>{(slice.points[0]!.data.x as Date).toLocaleDateString('pt-BR', { day: '2-digit', month: '2-digit', year: '2-digit' })}</b>
            {slice.points.map((p) => <div key={p.id} style={{ color: p.seriesColor }}>{p.seriesId}: {num(p.data.y as number, casas)} {unidade}</div>)}
          </Box>
        )}
      />
    </Box>
  );
}

export function DistanciaDiaria({ periodo, ctx }: { periodo: Periodo; ctx: Contexto }) {
  const { data, erro } = useDias(periodo, ctx.empresa);
  if (erro) return <Alert severity="error">{erro}</Alert>;
  if (!data) return <Carregando />;
  if (!data.length) return <Vazio texto="Sem deslocamentos no período." />;
  return <Linhas unidade="km" casas={1} series={[{ id: 'Distância', data: data.map((d) => ({ x: localDate(d.data), y: d.distancia ?? 0 })) }]} />;
}

export function HorasDiarias({ periodo, ctx }: { periodo: Periodo; ctx: Contexto }) {
  const { data, erro } = useDias(periodo, ctx.empresa);
  if (erro) return <Alert severity="error">{erro}</Alert>;
  if (!data) return <Carregando />;
  if (!data.length) return <Vazio texto="Sem deslocamentos no período." />;
  return <Linhas unidade="h" casas={1} series={[
    { id: 'Em condução', data: data.map((d) => ({ x: localDate(d.data), y: (d.tempoConducao ?? 0) / 3600 })) },
    { id: 'Marcha lenta', data: data.map((d) => ({ x: localDate(d.data), y: (d.tempoMarchaLenta ?? 0) / 3600 })) },
  ]} />;
}

// ---- bars -----------------------------------------------------------------------------------------------------------

/** Horizontal bars (radius 5, half the row's height). */
function Barras({ itens, testid }: { itens: { id: string; label: string; sub?: string; valor: number; texto: string; cor?: string }[]; testid?: string }) {
  const max = Math.max(1, ...itens.map((i) => i.valor));
  return (
    <Stack spacing={0.75} data-testid={testid}>
      {itens.map((i) => (
        <Box key={i.id} data-item={i.id}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
            <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0 }} title={i.label}>
              {i.label}{i.sub && <Typography component="span" variant="caption" color="text.secondary"> · {i.sub}</Typography>}
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>{i.texto}</Typography>
          </Box>
          <Box sx={{ height: 16, display: 'flex', alignItems: 'center' }}>
            <Box sx={{ height: 8, width: `${Math.max(2, (100 * i.valor) / max)}%`, bgcolor: i.cor ?? 'primary.main', borderRadius: '5px' }} />
          </Box>
        </Box>
      ))}
    </Stack>
  );
}

export const RISCOS = {
  alto: { label: 'Alto', cor: '#c62828' },
  medio: { label: 'Médio', cor: '#ef6c00' },
  baixo: { label: 'Baixo', cor: '#f9a825' },
  sem_pontuacao: { label: 'Sem pontuação', cor: '#9e9e9e' },
} as const;
type Risco = keyof typeof RISCOS;
interface EventoRisco { evento: string; descricao: string; qtd: number; pontos: number | null; risco: Risco }

export function EventosRisco({ periodo, ctx }: { periodo: Periodo; ctx: Contexto }) {
  const { data, erro } = useProvider<EventoRisco[]>(urlPeriodo('eventos', periodo, `?range=[0,999]&sort=${encodeURIComponent('["qtd","DESC"]')}`), ctx.empresa);
  if (erro) return <Alert severity="error">{erro}</Alert>;
  if (!data) return <Carregando />;
  if (!data.length) return <Vazio texto="Nenhum evento no período." />;
  const por = (r: Risco) => data.filter((e) => e.risco === r).reduce((s, e) => s + e.qtd, 0);
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ mb: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
        {(Object.keys(RISCOS) as Risco[]).map((r) => (
          <Chip key={r} size="small" data-testid={`risco-${r}`} label={`${RISCOS[r].label}: ${num(por(r))}`}
            sx={{ bgcolor: RISCOS[r].cor, color: r === 'baixo' ? 'rgba(0,0,0,.87)' : '#fff', fontWeight: 600 }} />
        ))}
      </Stack>
      <Barras testid="eventos-barras" itens={data.slice(0, 8).map((e) => ({
        id: e.evento, label: e.descricao, sub: `risco ${RISCOS[e.risco]?.label.toLowerCase() ?? e.risco}`, valor: e.qtd, texto: num(e.qtd), cor: RISCOS[e.risco]?.cor,
      }))} />
    </Box>
  );
}

interface PorAtivo { ativoId: number; ativo: string; placa: string | null; distancia: number; tempoConducao: number; tempoMarchaLenta: number; velocidadeMaxima: number | null; qtdEventos: number }

const RANKINGS = {
  maiores_velocidades: { campo: 'velocidadeMaxima', valor: (a: PorAtivo) => a.velocidadeMaxima ?? 0, texto: (a: PorAtivo) => `${num(a.velocidadeMaxima, 0)} km/h`, vazio: 'Sem velocidades no período.', cor: '#c62828' },
  marcha_lenta: { campo: 'tempoMarchaLenta', valor: (a: PorAtivo) => a.tempoMarchaLenta, texto: (a: PorAtivo) => horas(a.tempoMarchaLenta), vazio: 'Sem marcha lenta no período.', cor: '#ef6c00' },
  mais_rodaram: { campo: 'distancia', valor: (a: PorAtivo) => a.distancia, texto: (a: PorAtivo) => `${num(a.distancia, 1)} km`, vazio: 'Sem deslocamentos no período.', cor: '#1976d2' },
} as const;

export function Ranking({ tipo, periodo, ctx }: { tipo: keyof typeof RANKINGS; periodo: Periodo; ctx: Contexto }) {
  const r = RANKINGS[tipo];
  const { data, erro } = useProvider<PorAtivo[]>(urlPeriodo('ativos', periodo, `?range=[0,7]&sort=${encodeURIComponent(JSON.stringify([r.campo, 'DESC']))}`), ctx.empresa);
  if (erro) return <Alert severity="error">{erro}</Alert>;
  if (!data) return <Carregando />;
  const rows = data.filter((a) => r.valor(a) > 0);
  if (!rows.length) return <Vazio texto={r.vazio} />;
  return <Barras testid={`ranking-${tipo}`} itens={rows.map((a) => ({ id: String(a.ativoId), label: a.ativo, sub: a.placa ?? undefined, valor: r.valor(a), texto: r.texto(a), cor: r.cor }))} />;
}

// ---- ambient sensors ------------------------------------------------------------------------------------------------

/** The spec's limits (core.md 9, catalogues 9). */
export const LIMITES = { temperatura: [28, 35], umidade: [70, 100], co2: [800, 1099] } as const;
export const foraDoLimite = (k: keyof typeof LIMITES, v: number | null) => v != null && (v < LIMITES[k][0] || v > LIMITES[k][1]);
export const comSensor = (r: EstadoAtivo) => r.temperatura != null || r.umidade != null || r.co2 != null || r.porta != null;

export function AmbienteResumo({ ctx }: { ctx: Contexto }) {
  if (!ctx.frota) return <Carregando />;
  const rows = ctx.frota.filter(comSensor);
  if (!rows.length) return <Vazio texto="Nenhum veículo com sensores de ambiente." />;
  const fora = rows.filter((r) => foraDoLimite('temperatura', r.temperatura) || foraDoLimite('umidade', r.umidade) || foraDoLimite('co2', r.co2));
  const abertas = rows.filter((r) => r.porta === true).length;
  return (
    <Box>
      <Stack direction="row" spacing={3}>
        <Box><Typography variant="h4" sx={{ fontWeight: 700 }}>{num(rows.length)}</Typography><Typography variant="body2">com sensores</Typography></Box>
        <Box><Typography variant="h4" sx={{ fontWeight: 700, color: fora.length ? 'error.main' : 'success.main' }} data-testid="ambiente-fora">{num(fora.length)}</Typography><Typography variant="body2">fora dos limites</Typography></Box>
        <Box><Typography variant="h4" sx={{ fontWeight: 700 }}>{num(abertas)}</Typography><Typography variant="body2">com a porta aberta</Typography></Box>
      </Stack>
      {ctx.podeAmbiente && <Typography variant="body2" sx={{ mt: 1 }}><Link to="/rel/ges/gestao_a_vista/ambiente">Ver os sensores de cada veículo</Link></Typography>}
    </Box>
  );
}

// ---- Grafana --------------------------------------------------------------------------------------------------------

const GRAFANA_DE: Record<Periodo, string> = { hoje: 'now/d', ontem: 'now-1d/d', ultimos_7_dias: 'now-7d', ultimos_30_dias: 'now-30d', mes_atual: 'now/M', ultimo_trimestre: 'now-90d' };
export function Grafana({ w }: { w: Widget }) {
  const p = w.periodo ?? 'ultimos_7_dias';
  const to = p === 'ontem' ? 'now-1d/d' : 'now';
  const src = `/api/wkd/grafana/render/${encodeURIComponent(w.painel ?? '')}/${w.panelId ?? 0}?from=${encodeURIComponent(GRAFANA_DE[p])}&to=${encodeURIComponent(to)}&width=800&height=300`;
  return <Box component="img" src={src} alt={`Painel Grafana ${w.painel} — gráfico ${w.panelId}`} sx={{ width: '100%', height: 'auto', display: 'block' }} />;
}

// ---- one widget ---------------------------------------------------------------------------------------------------

export function tituloDe(w: Widget) { return TIPOS[w.tipo]?.label ?? w.tipo; }
export function periodoDe(w: Widget): Periodo { return w.periodo ?? 'hoje'; }

export function ConteudoWidget({ w, ctx }: { w: Widget; ctx: Contexto }) {
  const p = periodoDe(w);
  switch (w.tipo) {
    case 'situacao': return <Situacao ctx={ctx} />;
    case 'indicadores': return <Indicadores periodo={p} ctx={ctx} />;
    case 'distancia_diaria': return <DistanciaDiaria periodo={p} ctx={ctx} />;
    case 'horas_diarias': return <HorasDiarias periodo={p} ctx={ctx} />;
    case 'eventos_risco': return <EventosRisco periodo={p} ctx={ctx} />;
    case 'maiores_velocidades': case 'marcha_lenta': case 'mais_rodaram': return <Ranking tipo={w.tipo} periodo={p} ctx={ctx} />;
    case 'ambiente': return <AmbienteResumo ctx={ctx} />;
    case 'grafana': return <Grafana w={w} />;
    default: return <Vazio texto="Widget desconhecido." />;
  }
}

export const rotuloPeriodo = (w: Widget) => (TIPOS[w.tipo]?.periodo ? PERIODOS[periodoDe(w)] : 'Ao vivo');
