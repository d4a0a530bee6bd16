// Análise de risco (/tlm/evt/analise_de_risco): the company's risk events (provider risco_evento: per day, asset,
// driver and level of the event library's risk) over the chosen period — a @nivo line chart of events per day, one
// series per level (pt-BR, not stacked, smooth, markers 5, dd/MM/yy tooltips), and the sums per driver, asset or day
// (alto, médio, baixo, the camera alarms among them, total and the weighted index alto×3 + médio×2 + baixo — the
// provider's pontos). Camera alarms (modules/video, catalogues 3.8) count with their library risk; the origin toggle
// shows them alone or the trackers' events alone.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Box, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { ResponsiveLine } from '@nivo/line';
import { call } from '../../../runtime/src/api/http';
import { DateRangeFilter, isoDay, type DateRange } from '../../../runtime/src/crud/widgets/DateRangeFilter';

interface Linha { dia: string; ativoId: number | null; ativo: string | null; placa: string | null; motoristaId: number | null; motorista: string | null; nivel: string; origem?: string; eventos: number; pontos?: number }
type Por = 'motorista' | 'ativo' | 'dia';
type Origem = 'todos' | 'camera' | 'rastreador';

export const NIVEIS = [
  { key: 'alto', label: 'Alto', cor: '#d32f2f', peso: 3 },
  { key: 'médio', label: 'Médio', cor: '#f9a825', peso: 2 },
  { key: 'baixo', label: 'Baixo', cor: '#1976d2', peso: 1 },
] as const;
const LIMITE = 5000;
const pad = (n: number) => String(n).padStart(2, '0');
const curto = (d: Date) => `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${String(d.getFullYear()).slice(2)}`;
const q = (v: unknown) => encodeURIComponent(JSON.stringify(v));

interface Soma { chave: string; nome: string; alto: number; médio: number; baixo: number; camera: number; total: number; indice: number }

/** The rows summed per driver, asset or day, highest weighted index first. */
export function somar(linhas: Linha[], por: Por): Soma[] {
  const m = new Map<string, Soma>();
  for (const l of linhas) {
    const chave = por === 'dia' ? l.dia : por === 'ativo' ? String(l.ativoId ?? 0) : String(l.motoristaId ?? 0);
    const nome = por === 'dia' ? l.dia.split('-').reverse().join('/') : por === 'ativo' ? (l.ativo ? `${l.ativo}${l.placa ? ` (${l.placa})` : ''}` : 'Sem ativo') : (l.motorista ?? 'Sem motorista identificado');
    const s = m.get(chave) ?? { chave, nome, alto: 0, médio: 0, baixo: 0, camera: 0, total: 0, indice: 0 };
    const n = NIVEIS.find((x) => x.key === l.nivel);
    if (n) s[n.key] += l.eventos;
    s.total += l.eventos;
    s.indice += l.pontos ?? l.eventos * (n?.peso ?? 1);
    if (l.origem === 'camera') s.camera += l.eventos;
    m.set(chave, s);
  }
  const xs = [...m.values()];
  return por === 'dia' ? xs.sort((a, b) => a.chave.localeCompare(b.chave)) : xs.sort((a, b) => b.indice - a.indice || a.nome.localeCompare(b.nome));
}

export default function AnaliseDeRisco() {
  const hoje = isoDay(new Date());
  const [periodo, setPeriodo] = useState<DateRange>(() => ({ from: isoDay(new Date(Date.now() - 29 * 86_400_000)), to: hoje }));
  const [por, setPor] = useState<Por>('motorista');
  const [origem, setOrigem] = useState<Origem>('todos');
  const [linhas, setLinhas] = useState<Linha[] | null>(null);
  const [erro, setErro] = useState<string | null>(null);

  useEffect(() => {
    let vivo = true;
    setLinhas(null);
    const filter = { data_gte: periodo.from, data_lte: periodo.to, ...(origem === 'todos' ? {} : { origem }) };
    call<Linha[]>(`/api/analise_de_risco/eventos?filter=${q(filter)}&range=${q([0, LIMITE - 1])}&sort=${q(['dia', 'ASC'])}`)
      .then((r) => { if (vivo) { setLinhas(r); setErro(null); } }, (e: Error) => { if (vivo) { setErro(e.message); setLinhas([]); } });
    return () => { vivo = false; };
  }, [periodo, origem]);

  const dias = useMemo(() => {
    const out: string[] = [];
    for (let d = new Date(`${periodo.from}T12:00:00`); isoDay(d) <= periodo.to; d = new Date(d.getTime() + 86_400_000)) out.push(isoDay(d));
    return out;
  }, [periodo]);
  const series = useMemo(() => NIVEIS.map((n) => ({
    id: n.label,
    data: dias.map((dia) => ({ x: new Date(`${dia}T12:00:00`), y: (linhas ?? []).filter((l) => l.dia === dia && l.nivel === n.key).reduce((s, l) => s + l.eventos, 0) })),
  })), [linhas, dias]);
  const somas = useMemo(() => somar(linhas ?? [], por), [linhas, por]);
  const total = somas.reduce((s, x) => s + x.total, 0);
  const coluna = por === 'motorista' ? 'Motorista' : por === 'ativo' ? 'Ativo' : 'Dia';

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Análise de risco" />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>Análise de risco</Typography>
      <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <DateRangeFilter value={periodo} onChange={(r) => setPeriodo(r ?? { from: hoje, to: hoje })} />
        <ToggleButtonGroup size="small" exclusive value={por} onChange={(_, v: Por | null) => v && setPor(v)} aria-label="Somar por">
          <ToggleButton value="motorista">Por motorista</ToggleButton>
          <ToggleButton value="ativo">Por ativo</ToggleButton>
          <ToggleButton value="dia">Por dia</ToggleButton>
        </ToggleButtonGroup>
        <ToggleButtonGroup size="small" exclusive value={origem} onChange={(_, v: Origem | null) => v && setOrigem(v)} aria-label="Origem dos eventos">
          <ToggleButton value="todos">Todos os eventos</ToggleButton>
          <ToggleButton value="camera">Alarmes de câmera</ToggleButton>
          <ToggleButton value="rastreador">Rastreadores</ToggleButton>
        </ToggleButtonGroup>
        {linhas && <Typography variant="body2" color="text.secondary" data-testid="risco-total">{total.toLocaleString('pt-BR')} eventos de risco no período</Typography>}
      </Stack>
      {erro && <Alert severity="error" sx={{ mb: 2 }}>{erro}</Alert>}
      {linhas && linhas.length >= LIMITE && <Alert severity="warning" sx={{ mb: 2 }}>Período com muitos eventos: mostrando os primeiros {LIMITE.toLocaleString('pt-BR')} agrupamentos. Escolha um período menor.</Alert>}
      <Paper variant="outlined" sx={{ height: 300, mb: 2, p: 1 }} role="img" aria-label="Eventos de risco por dia e nível" data-testid="grafico-risco">
        <ResponsiveLine
          data={series}
          margin={{ top: 16, right: 110, bottom: 36, left: 48 }}
          xScale={{ type: 'time', precision: 'day' }}
          yScale={{ type: 'linear', min: 0, max: 'auto', stacked: false }}
          curve="monotoneX"
          colors={NIVEIS.map((n) => n.cor)}
          enableArea
          areaOpacity={0.12}
          pointSize={5}
          axisBottom={{ format: (d: Date) => curto(d).slice(0, 5), tickValues: Math.min(dias.length, 8) }}
          axisLeft={{ legend: 'Eventos', legendOffset: -40, legendPosition: 'middle', format: (v: number) => (Number.isInteger(v) ? v.toLocaleString('pt-BR') : '') }}
          enableSlices="x"
          animate={false}
          legends={[{ anchor: 'right', direction: 'column', translateX: 100, itemWidth: 90, itemHeight: 20, symbolSize: 10 }]}
          sliceTooltip={({ slice }) => (
            <Box sx={{ bgcolor: 'background.paper', boxShadow: 2, borderRadius: 1, px: 1, py: 0.5, fontSize: 12 }}>
              <b>{curto(slice.points[0]!.data.x as Date)}</b>
              {slice.points.map((p) => <div key={p.id} style={{ color: p.seriesColor }}>{p.seriesId}: {(p.data.y as number).toLocaleString('pt-BR')}</div>)}
            </Box>
          )}
        />
      </Paper>
      <Paper variant="outlined">
        <Table size="small" aria-label={`Eventos de risco por ${coluna.toLowerCase()}`}>
          <TableHead>
            <TableRow>
              <TableCell>{coluna}</TableCell>
              {NIVEIS.map((n) => <TableCell key={n.key} align="right" sx={{ color: n.cor, fontWeight: 600 }}>{n.label}</TableCell>)}
              <TableCell align="right">Alarmes de câmera</TableCell>
              <TableCell align="right">Total</TableCell>
              <TableCell align="right">Índice de risco</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {somas.map((s) => (
              <TableRow key={s.chave} data-testid="risco-linha">
                <TableCell>{s.nome}</TableCell>
                {NIVEIS.map((n) => <TableCell key={n.key} align="right">{s[n.key].toLocaleString('pt-BR')}</TableCell>)}
                <TableCell align="right">{s.camera.toLocaleString('pt-BR')}</TableCell>
                <TableCell align="right">{s.total.toLocaleString('pt-BR')}</TableCell>
                <TableCell align="right">{s.indice.toLocaleString('pt-BR')}</TableCell>
              </TableRow>
            ))}
            {linhas && !somas.length && (
              <TableRow><TableCell colSpan={7}><Typography variant="body2" color="text.secondary">Nenhum evento de risco no período.</Typography></TableCell></TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
    </Box>
  );
}
