// Speed/RPM chart of one replayed asset (@nivo/line): km/h on the left axis, rpm on the right (the rpm series is drawn
// on the km/h scale and the right axis labels it back), pt-BR, tooltips dd/MM/yy HH:mm. Hovering reports the instant
// (the map shows a marker there); the playhead is a line over the chart (an overlay: the chart itself is not redrawn
// on each frame).
import { memo, useMemo } from 'react';
import { Box, Typography } from '@mui/material';
import { ResponsiveLine } from '@nivo/line';
import { downsample, type Ponto } from './clock';

const pad = (n: number) => String(n).padStart(2, '0');
/** dd/MM/yy HH:mm (local time). */
export const curto = (ms: number) => { const d = new Date(ms); return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${String(d.getFullYear()).slice(2)} ${pad(d.getHours())}:${pad(d.getMinutes())}`; };
const hora = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const num = (v: number) => v.toLocaleString('pt-BR', { maximumFractionDigits: 0 });

const MARGIN = { top: 10, right: 56, bottom: 28, left: 48 };
const MAX_POINTS = 600;

interface Props { pontos: Ponto[]; inicio: number; fim: number; onHover: (t: number | null) => void }

const Chart = memo(function Chart({ pontos, inicio, fim, onHover }: Props) {
  const { data, kmhMax, rpmMax } = useMemo(() => {
    const pts = downsample(pontos, MAX_POINTS, (p) => p[3] ?? 0);
    const kmhMax = Math.max(40, Math.ceil(Math.max(0, ...pts.map((p) => p[3] ?? 0)) / 20) * 20);
    const rpms = pts.filter((p) => p[4] != null);
    const rpmMax = Math.max(1000, Math.ceil(Math.max(0, ...rpms.map((p) => p[4]!)) / 500) * 500);
    const series = [{ id: 'Velocidade (km/h)', data: pts.map((p) => ({ x: new Date(p[0]), y: p[3] ?? 0 })) }];
    if (rpms.length) series.push({ id: 'RPM', data: rpms.map((p) => ({ x: new Date(p[0]), y: (p[4]! * kmhMax) / rpmMax })) });
    return { data: series, kmhMax, rpmMax };
  }, [pontos]);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((k) => k * kmhMax);
  return (
    <ResponsiveLine
      data={data}
      margin={MARGIN}
      xScale={{ type: 'time', min: new Date(inicio), max: new Date(fim) }}
      yScale={{ type: 'linear', min: 0, max: kmhMax }}
      curve="monotoneX"
      colors={['#1976d2', '#8e24aa']}
      lineWidth={2}
      enablePoints={false}
      enableGridX={false}
      gridYValues={ticks}
      axisBottom={{ format: (d: Date) => hora(d), tickValues: 6 }}
      axisLeft={{ tickValues: ticks, legend: 'km/h', legendOffset: -38, legendPosition: 'middle', format: (v: number) => num(v) }}
      axisRight={{ tickValues: ticks, legend: 'rpm', legendOffset: 48, legendPosition: 'middle', format: (v: number) => num((v * rpmMax) / kmhMax) }}
      enableSlices="x"
      animate={false}
      sliceTooltip={({ slice }) => (
        <Box sx={{ bgcolor: 'background.paper', boxShadow: 2, borderRadius: 1, px: 1, py: 0.5, fontSize: 12 }} data-testid="grafico-tooltip">
          <b>{curto((slice.points[0]!.data.x as Date).getTime())}</b>
          {slice.points.map((p) => (
            <div key={p.id} style={{ color: p.seriesColor }}>
              {p.seriesId === 'RPM' ? `RPM: ${num(((p.data.y as number) * rpmMax) / kmhMax)}` : `Velocidade: ${num(p.data.y as number)} km/h`}
            </div>
          ))}
        </Box>
      )}
      onMouseMove={(d) => { const pts = 'points' in d ? d.points : [d]; const x = pts[0]?.data.x; if (x instanceof Date) onHover(x.getTime()); }}
      onMouseLeave={() => onHover(null)}
    />
  );
});

/** The chart with the playhead line; `t` moves only the overlay. */
export function Grafico({ pontos, inicio, fim, t, onHover }: Props & { t: number }) {
  const f = fim > inicio ? Math.min(1, Math.max(0, (t - inicio) / (fim - inicio))) : 0;
  if (!pontos.length) return <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>Sem posições no período.</Typography>;
  return (
    <Box sx={{ position: 'relative', height: '100%' }} data-testid="grafico" aria-label="Gráfico de velocidade e RPM" role="img">
      <Chart pontos={pontos} inicio={inicio} fim={fim} onHover={onHover} />
      <Box data-testid="grafico-cursor" data-t={t}
        sx={{ position: 'absolute', top: MARGIN.top, bottom: MARGIN.bottom, width: 0, borderLeft: '2px solid #d32f2f', pointerEvents: 'none',
          left: `calc(${MARGIN.left}px + (100% - ${MARGIN.left + MARGIN.right}px) * ${f})` }} />
    </Box>
  );
}
