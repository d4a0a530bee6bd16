// Painel de passageiros (/rel/ges/passageiros): for a period (default the last 30 days), the totals, the boardings,
// distinct passengers and irregular accesses per day (@nivo/line) and the occupancy of each line (providers
// painel_passageiros and ocupacao_linha, modules/passageiros/server/painel.ts).
import { useEffect, useMemo, useState } from 'react';
import { Alert, Box, Card, CardContent, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography, LinearProgress } from '@mui/material';
import { ResponsiveLine } from '@nivo/line';
import { Title } from 'react-admin';
import { call } from '../../../runtime/src/api/http';

interface Dia { dia: string; embarques: number; passageiros: number; inconsistencias: number }
interface Linha { id: number; itinerario: string; linha: string | null; qtdViagens: number; qtdPassageiros: number; lotacao: number; lotacaoMedia: number | null; cadastrados: number; percLotacao: number | null }

const DAY = 86_400_000;
const dataLocal = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
const br = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}`;
const num = (n: number | null | undefined, d = 0) => (n == null ? '—' : n.toLocaleString('pt-BR', { maximumFractionDigits: d }));

function Total({ label, value, testid }: { label: string; value: string; testid?: string }) {
  return (
    <Card variant="outlined" sx={{ flex: 1, minWidth: 160 }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">{label}</Typography>
        <Typography variant="h4" component="p" data-testid={testid}>{value}</Typography>
      </CardContent>
    </Card>
  );
}

export default function PainelPassageiros() {
  const [de, setDe] = useState(() => dataLocal(new Date(Date.now() - 29 * DAY)));
  const [ate, setAte] = useState(() => dataLocal(new Date()));
  const [dias, setDias] = useState<Dia[] | null>(null);
  const [linhas, setLinhas] = useState<Linha[] | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  useEffect(() => {
    const inicio = new Date(`${de}T00:00:00`), fim = new Date(`${ate}T23:59:59.999`);
    if (Number.isNaN(inicio.getTime()) || Number.isNaN(fim.getTime())) return;
    const f = encodeURIComponent(JSON.stringify({ inicio: inicio.toISOString(), fim: fim.toISOString() }));
    let vivo = true;
    setErro(null);
    Promise.all([
      call<Dia[]>(`/api/passageiros/painel?filter=${f}&range=${encodeURIComponent('[0,999]')}&sort=${encodeURIComponent('["dia","ASC"]')}`),
      call<Linha[]>(`/api/passageiros/ocupacao_linha?filter=${f}&range=${encodeURIComponent('[0,999]')}&sort=${encodeURIComponent('["percLotacao","DESC"]')}`),
    ]).then(([d, l]) => { if (vivo) { setDias(d); setLinhas(l); } }, (e: Error) => { if (vivo) setErro(e.message); });
    return () => { vivo = false; };
  }, [de, ate]);

  const serie = useMemo(() => {
    if (!dias) return [];
    // every day of the period, zero when nothing happened
    const by = new Map(dias.map((d) => [d.dia, d]));
    const out: Dia[] = [];
    for (let t = new Date(`${de}T12:00:00`).getTime(); t <= new Date(`${ate}T12:00:00`).getTime(); t += DAY) {
      const k = dataLocal(new Date(t));
      out.push(by.get(k) ?? { dia: k, embarques: 0, passageiros: 0, inconsistencias: 0 });
    }
    return [
      { id: 'Embarques', data: out.map((d) => ({ x: br(d.dia), y: d.embarques })) },
      { id: 'Passageiros', data: out.map((d) => ({ x: br(d.dia), y: d.passageiros })) },
      { id: 'Inconsistências', data: out.map((d) => ({ x: br(d.dia), y: d.inconsistencias })) },
    ];
  }, [dias, de, ate]);
  const soma = (k: keyof Dia) => (dias ?? []).reduce((n, d) => n + Number(d[k]), 0);
  const passos = Math.max(1, Math.ceil((serie[0]?.data.length ?? 0) / 10));

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Painel de passageiros" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} sx={{ mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>Painel de passageiros</Typography>
        <TextField size="small" type="date" label="De" value={de} onChange={(e) => setDe(e.target.value)} InputLabelProps={{ shrink: true }} />
        <TextField size="small" type="date" label="Até" value={ate} onChange={(e) => setAte(e.target.value)} InputLabelProps={{ shrink: true }} />
      </Stack>
      {erro && <Alert severity="error" sx={{ mb: 2 }}>{erro}</Alert>}
      {!dias && !erro && <LinearProgress />}
      {dias && (
        <>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2 }}>
            <Total label="Embarques no período" value={num(soma('embarques'))} testid="total-embarques" />
            <Total label="Viagens com passageiros" value={num((linhas ?? []).reduce((n, l) => n + l.qtdViagens, 0))} />
            <Total label="Inconsistências de acesso" value={num(soma('inconsistencias'))} />
            <Total label="Linhas atendidas" value={num(linhas?.length ?? 0)} />
          </Stack>
          <Card variant="outlined" sx={{ mb: 2 }}>
            <CardContent>
              <Typography variant="h6" component="h2">Embarques por dia</Typography>
              <Box sx={{ height: 300 }} data-testid="grafico-embarques">
                <ResponsiveLine
                  data={serie}
                  margin={{ top: 20, right: 130, bottom: 40, left: 50 }}
                  yScale={{ type: 'linear', min: 0, max: 'auto' }}
                  curve="monotoneX"
                  colors={['#1976d2', '#2e7d32', '#d32f2f']}
                  pointSize={6}
                  enableSlices="x"
                  animate={false}
                  axisBottom={{ tickValues: serie[0]?.data.filter((_, i) => i % passos === 0).map((d) => d.x) }}
                  axisLeft={{ legend: 'Quantidade', legendOffset: -40, legendPosition: 'middle', format: (v: number) => (Number.isInteger(v) ? String(v) : '') }}
                  legends={[{ anchor: 'right', direction: 'column', translateX: 120, itemWidth: 110, itemHeight: 20, symbolSize: 12 }]}
                />
              </Box>
            </CardContent>
          </Card>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2">Ocupação das linhas</Typography>
              {!linhas?.length ? <Typography color="text.secondary">Nenhuma viagem com passageiros em itinerário no período.</Typography> : (
                <Table size="small">
                  <TableHead>
                    <TableRow>
                      <TableCell>Itinerário</TableCell><TableCell>Linha</TableCell><TableCell align="right">Viagens</TableCell>
                      <TableCell align="right">Embarques</TableCell><TableCell align="right">Lotação média</TableCell>
                      <TableCell align="right">Lotação máxima</TableCell><TableCell align="right">Cadastrados</TableCell><TableCell sx={{ width: 220 }}>Ocupação</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {linhas.map((l) => (
                      <TableRow key={l.id}>
                        <TableCell>{l.itinerario}</TableCell><TableCell>{l.linha ?? '—'}</TableCell>
                        <TableCell align="right">{num(l.qtdViagens)}</TableCell><TableCell align="right">{num(l.qtdPassageiros)}</TableCell>
                        <TableCell align="right">{num(l.lotacaoMedia, 1)}</TableCell><TableCell align="right">{num(l.lotacao)}</TableCell>
                        <TableCell align="right">{num(l.cadastrados)}</TableCell>
                        <TableCell>
                          <Stack direction="row" spacing={1} alignItems="center">
                            <LinearProgress variant="determinate" value={Math.min(100, l.percLotacao ?? 0)} sx={{ flex: 1, height: 8, borderRadius: 4 }} />
                            <Typography variant="body2">{l.percLotacao == null ? '—' : `${num(l.percLotacao, 1)}%`}</Typography>
                          </Stack>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>
        </>
      )}
    </Box>
  );
}
