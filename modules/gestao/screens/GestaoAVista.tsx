// Gestão à vista (/rel/ges/gestao_a_vista): the active company's fleet at a glance — the situation now (live rows,
// pushed), today and this month (km, hours, idle, events), then the chosen period's charts and rankings.
import { useMemo } from 'react';
import { Alert, Box, Chip, Grid, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { PERIODOS, type Periodo } from '../widgets';
import { useAgora, useFrotaAoVivo } from './dados';
import { AmbienteResumo, DistanciaDiaria, EventosRisco, HorasDiarias, Indicadores, Quadro, Ranking, Situacao, type Contexto } from './widgets';
import { SeletorPeriodo } from './Periodo';

const hhmm = (d: Date) => d.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' });

export function CabecalhoAoVivo({ aoVivo, atualizado }: { aoVivo: boolean; atualizado: Date | null }) {
  return (
    <Chip size="small" data-testid="ao-vivo" color={aoVivo ? 'success' : 'default'} variant={aoVivo ? 'filled' : 'outlined'}
      label={aoVivo ? `Ao vivo${atualizado ? ` · ${hhmm(atualizado)}` : ''}` : atualizado ? `Atualizado às ${hhmm(atualizado)}` : 'Carregando…'} />
  );
}

export default function GestaoAVista() {
  const user = useSession();
  const empresa = user?.empresaAtiva ?? null;
  const { can } = useCan();
  const [params, setParams] = useSearchParams();
  const periodo: Periodo = (params.get('periodo') as Periodo) in PERIODOS ? (params.get('periodo') as Periodo) : 'ultimos_7_dias';
  const { rows, erro, aoVivo, atualizado } = useFrotaAoVivo(empresa);
  const agora = useAgora();
  const ctx: Contexto = useMemo(() => ({ empresa, frota: rows, agora, podeMonitorar: can('rel.ges.gestao_a_vista.monitoramento'), podeAmbiente: can('rel.ges.gestao_a_vista.ambiente') }), [empresa, rows, agora, can]);
  const nome = user?.empresas.find((e) => e.id === empresa)?.fantasia;
  const rotulo = PERIODOS[periodo];

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid="gestao-a-vista">
      <Title title="Gestão à vista" />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>Gestão à vista</Typography>
        {nome && <Typography color="text.secondary">{nome}</Typography>}
        <CabecalhoAoVivo aoVivo={aoVivo} atualizado={atualizado} />
        <Box sx={{ flex: 1 }} />
        {can('rel.ges.paineis') && <Typography variant="body2"><Link to="/rel/ges/paineis">Meus painéis</Link></Typography>}
      </Box>
      {erro && <Alert severity="error" sx={{ mb: 2 }}>{erro}</Alert>}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Quadro titulo="Situação da frota" periodo="Agora" testid="quadro-situacao"><Situacao ctx={ctx} /></Quadro>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Quadro titulo="Hoje" testid="quadro-hoje"><Indicadores periodo="hoje" ctx={ctx} testid="hoje" /></Quadro>
          <Quadro titulo="Este mês" testid="quadro-mes"><Indicadores periodo="mes_atual" ctx={ctx} testid="mes" /></Quadro>
        </Grid>
      </Grid>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, my: 2, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" color="text.secondary" sx={{ textTransform: 'uppercase', letterSpacing: 0.6 }}>Período</Typography>
        <SeletorPeriodo valor={periodo} onChange={(p) => setParams((x) => { x.set('periodo', p); return x; }, { replace: true })} />
      </Box>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 6 }}><Quadro titulo="Distância por dia" periodo={rotulo} testid="quadro-distancia"><DistanciaDiaria periodo={periodo} ctx={ctx} /></Quadro></Grid>
        <Grid size={{ xs: 12, lg: 6 }}><Quadro titulo="Horas de condução e marcha lenta" periodo={rotulo} testid="quadro-horas"><HorasDiarias periodo={periodo} ctx={ctx} /></Quadro></Grid>
        <Grid size={{ xs: 12, md: 6, lg: 4 }}><Quadro titulo="Eventos por risco" periodo={rotulo} testid="quadro-eventos"><EventosRisco periodo={periodo} ctx={ctx} /></Quadro></Grid>
        <Grid size={{ xs: 12, md: 6, lg: 4 }}><Quadro titulo="Maiores velocidades" periodo={rotulo} testid="quadro-velocidades"><Ranking tipo="maiores_velocidades" periodo={periodo} ctx={ctx} /></Quadro></Grid>
        <Grid size={{ xs: 12, md: 6, lg: 4 }}><Quadro titulo="Marcha lenta por veículo" periodo={rotulo} testid="quadro-marcha-lenta"><Ranking tipo="marcha_lenta" periodo={periodo} ctx={ctx} /></Quadro></Grid>
        <Grid size={{ xs: 12, md: 6, lg: ctx.podeAmbiente ? 6 : 12 }}><Quadro titulo="Veículos que mais rodaram" periodo={rotulo} testid="quadro-mais-rodaram"><Ranking tipo="mais_rodaram" periodo={periodo} ctx={ctx} /></Quadro></Grid>
        {ctx.podeAmbiente && <Grid size={{ xs: 12, md: 6 }}><Quadro titulo="Sensores de ambiente" periodo="Agora" testid="quadro-ambiente"><AmbienteResumo ctx={ctx} /></Quadro></Grid>}
      </Grid>
    </Box>
  );
}
