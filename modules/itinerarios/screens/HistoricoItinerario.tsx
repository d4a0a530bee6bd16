// Histórico de itinerário: /tlm/ras/historico_itinerario lists the itineraries; /{id} compares an asset's trips in a
// period with the itinerary: the line's corridor, the track, the deviations (red, with the farthest point) on the map
// and listed (where, how long, how far), and the planned vs actual arrival at each stop point.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Autocomplete, Box, Button, Card, CardContent, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { CircleMarker, MapContainer, Polyline, Tooltip } from 'react-leaflet';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { call } from '../../../runtime/src/api/http';
import { formatDateTime } from '../../../runtime/src/crud/lib/format';
import { DateRangeFilter, isoDay, type DateRange } from '../../../runtime/src/crud/widgets/DateRangeFilter';
import { formatDuration } from '../../../runtime/src/crud/widgets/ColumnFormat';
import { Corredor, Fit, Tiles } from './mapa';
import { Title } from 'react-admin';

type LL = [number, number];
interface ItRow { id: number; descricao: string; linhaDescricao: string | null; largura: number | null; pontos: number; inicioIda: string | null; inicioVolta: string | null }
interface Ativo { id: number; descricao: string; placa: string }
interface Desvio { inicio: string; fim: string; duracao: number; distanciaMaxima: number; posicaoMaxima: LL; trecho: LL[] }
interface Chegada { ordem: number; descricao: string; posicao: LL; previsto: string; chegada: string | null; atraso: number | null; distanciaMinima: number | null }
interface Viagem { id: string; inicio: string; fim: string; distancia: number | null; direcao: string; dentroDoCorredor: number; tempoFora: number; distanciaMaxima: number; desvios: Desvio[]; pontos: Chegada[]; trilha: LL[] }
interface Resposta {
  itinerario: { id: number; descricao: string; linha: string | null; largura: number; trajeto: { coordinates: LL[] } | null };
  ativo: Ativo; viagens: Viagem[];
}

const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const ll = (p: LL): LL => [p[1], p[0]];
const metros = (m: number) => `${Math.round(m).toLocaleString('pt-BR')} m`;
const coord = (p: LL) => `${p[1].toFixed(5)}, ${p[0].toFixed(5)}`;
function atrasoTexto(s: number | null): { label: string; color: 'default' | 'success' | 'warning' | 'error' } {
  if (s === null) return { label: 'Não passou', color: 'error' };
  if (Math.abs(s) < 60) return { label: 'No horário', color: 'success' };
  return s > 0 ? { label: `Atraso de ${formatDuration(s)}`, color: s > 300 ? 'error' : 'warning' } : { label: `Adiantado ${formatDuration(-s)}`, color: 'default' };
}

function Lista() {
  const navigate = useNavigate();
  const [rows, setRows] = useState<ItRow[]>();
  const [erro, setErro] = useState<string>();
  useEffect(() => { call<ItRow[]>(`/api/historico_itinerario/itinerarios?range=${q([0, 499])}`).then(setRows, (e: Error) => setErro(e.message)); }, []);
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Title title="Histórico de itinerário" />
      <Typography variant="h5" component="h1">Histórico de itinerário</Typography>
      <Typography variant="body2" color="text.secondary">Escolha um itinerário para comparar as viagens de um ativo com a linha e os horários dos pontos de parada.</Typography>
      {erro && <Alert severity="error">{erro}</Alert>}
      {rows && !rows.length && <Alert severity="info">Nenhum itinerário cadastrado. Cadastre em Cercas e itinerários › Itinerários.</Alert>}
      {!!rows?.length && (
        <Card variant="outlined"><Table size="small" data-testid="itinerarios">
          <TableHead><TableRow><TableCell>Itinerário</TableCell><TableCell>Linha</TableCell><TableCell align="right">Corredor</TableCell><TableCell align="right">Pontos de parada</TableCell><TableCell>Início da ida</TableCell><TableCell>Início da volta</TableCell></TableRow></TableHead>
          <TableBody>{rows.map((r) => (
            <TableRow key={r.id} hover sx={{ cursor: 'pointer' }} onClick={() => navigate(`/tlm/ras/historico_itinerario/${r.id}`)}>
              <TableCell>{r.descricao}</TableCell><TableCell>{r.linhaDescricao ?? 'Sem linha'}</TableCell>
              <TableCell align="right">{r.largura ? metros(r.largura) : '—'}</TableCell><TableCell align="right">{r.pontos}</TableCell>
              <TableCell>{r.inicioIda ?? '—'}</TableCell><TableCell>{r.inicioVolta ?? '—'}</TableCell>
            </TableRow>
          ))}</TableBody>
        </Table></Card>
      )}
    </Stack>
  );
}

function Mapa({ r, v, foco }: { r: Resposta; v: Viagem | undefined; foco: Desvio | undefined }) {
  const linha = (r.itinerario.trajeto?.coordinates ?? []).map(ll);
  const trilha = (v?.trilha ?? []).map(ll);
  const fit = foco ? foco.trecho.map(ll) : trilha.length ? [...trilha, ...linha] : linha;
  return (
    <Box sx={{ height: 460, borderRadius: 1, overflow: 'hidden' }} data-testid="mapa-itinerario">
      <MapContainer center={fit[0] ?? [-15.78, -47.93]} zoom={fit.length ? 13 : 4} style={{ height: '100%', width: '100%' }}>
        <Tiles />
        <Fit points={fit} />
        <Corredor linha={linha} largura={r.itinerario.largura} />
        {trilha.length > 1 && <Polyline positions={trilha} pathOptions={{ color: '#2e7d32', weight: 3 }}><Tooltip sticky>Trajeto do ativo</Tooltip></Polyline>}
        {v?.desvios.map((d, i) => (
          <Polyline key={`d${i}`} positions={d.trecho.length > 1 ? d.trecho.map(ll) : [ll(d.trecho[0]!), ll(d.trecho[0]!)]} pathOptions={{ color: '#d32f2f', weight: d === foco ? 7 : 5 }}>
            <Tooltip sticky>Desvio {i + 1}: {formatDuration(d.duracao)}, até {metros(d.distanciaMaxima)} da linha</Tooltip>
          </Polyline>
        ))}
        {v?.desvios.map((d, i) => (
          <CircleMarker key={`m${i}`} center={ll(d.posicaoMaxima)} radius={6} pathOptions={{ color: '#fff', fillColor: '#d32f2f', fillOpacity: 1 }}>
            <Tooltip>Desvio {i + 1}: ponto mais distante ({metros(d.distanciaMaxima)})</Tooltip>
          </CircleMarker>
        ))}
        {v?.pontos.map((p) => {
          const a = atrasoTexto(p.atraso);
          const fill = a.color === 'success' ? '#2e7d32' : a.color === 'warning' ? '#ef6c00' : a.color === 'error' ? '#c62828' : '#546e7a';
          return (
            <CircleMarker key={`p${p.ordem}`} center={ll(p.posicao)} radius={8} pathOptions={{ color: '#263238', weight: 2, fillColor: fill, fillOpacity: 0.9 }}>
              <Tooltip>{p.ordem}. {p.descricao}: previsto {formatDateTime(p.previsto)}, {a.label.toLowerCase()}</Tooltip>
            </CircleMarker>
          );
        })}
      </MapContainer>
    </Box>
  );
}

function Comparacao({ id }: { id: string }) {
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const ativoId = Number(search.get('ativo')) || null;
  const hoje = isoDay(new Date());
  const [periodo, setPeriodo] = useState<DateRange>({ from: search.get('de') ?? hoje, to: search.get('ate') ?? hoje });
  const [ativos, setAtivos] = useState<Ativo[]>([]);
  const [it, setIt] = useState<ItRow | null>();
  const [r, setR] = useState<Resposta>();
  const [erro, setErro] = useState<string>();
  const [escolhida, setEscolhida] = useState<string>();
  const [foco, setFoco] = useState<number>();

  const valido = /^\d{1,12}$/.test(id);
  useEffect(() => {
    if (!valido) { setIt(null); return; }
    call<ItRow[]>(`/api/historico_itinerario/itinerarios?filter=${q({ id: Number(id) })}&range=${q([0, 0])}`).then((x) => setIt(x[0] ?? null), (e: Error) => setErro(e.message));
    call<Ativo[]>(`/api/historico_itinerario/ativos?range=${q([0, 999])}`).then(setAtivos, (e: Error) => setErro(e.message));
  }, [id]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    setR(undefined); setFoco(undefined);
    if (!ativoId || !valido) return;
    let off = false;
    const inicio = new Date(`${periodo.from}T00:00:00`).toISOString(), fim = new Date(`${periodo.to}T23:59:59.999`).toISOString();
    call<Resposta>(`/api/historico_itinerario/${id}/comparacao?ativo=${ativoId}&inicio=${encodeURIComponent(inicio)}&fim=${encodeURIComponent(fim)}`).then((x) => {
      if (off) return;
      setR(x); setErro(undefined);
      setEscolhida((x.viagens.find((v) => v.desvios.length) ?? x.viagens[x.viagens.length - 1])?.id);
    }, (e: Error) => { if (!off) setErro(e.message); });
    return () => { off = true; };
  }, [id, ativoId, periodo]); // eslint-disable-line react-hooks/exhaustive-deps

  const v = r?.viagens.find((x) => x.id === escolhida);
  const ativo = useMemo(() => ativos.find((a) => a.id === ativoId) ?? null, [ativos, ativoId]);
  const setQuery = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, val] of Object.entries(patch)) if (val === null) next.delete(k); else next.set(k, val);
    setSearch(next, { replace: true });
  };

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" spacing={2} alignItems="center">
        <Button variant="outlined" size="small" onClick={() => navigate('/tlm/ras/historico_itinerario')}>Voltar</Button>
        <Title title="Histórico de itinerário" />
        <Typography variant="h5" component="h1">Histórico de itinerário{it ? `: ${it.descricao}` : ''}</Typography>
        {it?.linhaDescricao && <Chip label={`Linha: ${it.linhaDescricao}`} />}
        {it?.largura && <Chip variant="outlined" label={`Corredor de ${metros(it.largura)}`} />}
      </Stack>
      {it === null && <Alert severity="error">Itinerário não encontrado</Alert>}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
        <Autocomplete sx={{ minWidth: 320 }} options={ativos} value={ativo} getOptionLabel={(a) => `${a.descricao} (${a.placa})`}
          isOptionEqualToValue={(a, b) => a.id === b.id} onChange={(_, a) => setQuery({ ativo: a ? String(a.id) : null })}
          renderInput={(p) => <TextField {...p} label="Ativo" size="small" />} />
        <DateRangeFilter value={periodo} onChange={(x) => { const p = x ?? { from: hoje, to: hoje }; setPeriodo(p); setQuery({ de: p.from, ate: p.to }); }} />
      </Stack>
      {erro && <Alert severity="error">{erro}</Alert>}
      {!ativoId && <Alert severity="info">Escolha um ativo e o período para comparar as viagens com o itinerário.</Alert>}
      {r && !r.viagens.length && <Alert severity="info">Nenhuma posição do ativo no período.</Alert>}
      {r && !!r.viagens.length && (
        <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} alignItems="flex-start">
          <Stack spacing={2} sx={{ flex: 3, width: '100%', minWidth: 0 }}>
            <Card variant="outlined"><CardContent>
              <Typography variant="subtitle1" gutterBottom>Viagens</Typography>
              <Table size="small" data-testid="viagens">
                <TableHead><TableRow><TableCell>Início</TableCell><TableCell>Fim</TableCell><TableCell>Sentido</TableCell><TableCell align="right">No corredor</TableCell><TableCell align="right">Desvios</TableCell><TableCell align="right">Tempo fora</TableCell><TableCell align="right">Maior distância</TableCell></TableRow></TableHead>
                <TableBody>{r.viagens.map((x) => (
                  <TableRow key={x.id} hover selected={x.id === escolhida} sx={{ cursor: 'pointer' }} onClick={() => { setEscolhida(x.id); setFoco(undefined); }}>
                    <TableCell>{formatDateTime(x.inicio)}{x.id === 'periodo' ? ' (período)' : ''}</TableCell><TableCell>{formatDateTime(x.fim)}</TableCell>
                    <TableCell>{x.direcao === 'volta' ? 'Volta' : 'Ida'}</TableCell>
                    <TableCell align="right">{x.dentroDoCorredor.toLocaleString('pt-BR')}%</TableCell>
                    <TableCell align="right">{x.desvios.length ? <Chip size="small" color="error" label={x.desvios.length} /> : <Chip size="small" color="success" label="Nenhum" />}</TableCell>
                    <TableCell align="right">{formatDuration(x.tempoFora)}</TableCell><TableCell align="right">{x.desvios.length ? metros(x.distanciaMaxima) : '—'}</TableCell>
                  </TableRow>
                ))}</TableBody>
              </Table>
            </CardContent></Card>
            {v && (
              <Card variant="outlined"><CardContent>
                <Typography variant="subtitle1" gutterBottom>Desvios do corredor</Typography>
                {!v.desvios.length ? <Alert severity="success">A viagem ficou dentro do corredor da linha.</Alert> : (
                  <Table size="small" data-testid="desvios">
                    <TableHead><TableRow><TableCell>#</TableCell><TableCell>Saída do corredor</TableCell><TableCell>Retorno</TableCell><TableCell align="right">Duração</TableCell><TableCell align="right">Distância máxima</TableCell><TableCell>Onde (ponto mais distante)</TableCell></TableRow></TableHead>
                    <TableBody>{v.desvios.map((d, i) => (
                      <TableRow key={i} hover selected={foco === i} sx={{ cursor: 'pointer' }} onClick={() => setFoco(foco === i ? undefined : i)}>
                        <TableCell>{i + 1}</TableCell><TableCell>{formatDateTime(d.inicio)}</TableCell><TableCell>{formatDateTime(d.fim)}</TableCell>
                        <TableCell align="right">{formatDuration(d.duracao)}</TableCell><TableCell align="right">{metros(d.distanciaMaxima)}</TableCell><TableCell>{coord(d.posicaoMaxima)}</TableCell>
                      </TableRow>
                    ))}</TableBody>
                  </Table>
                )}
              </CardContent></Card>
            )}
            {v && (
              <Card variant="outlined"><CardContent>
                <Typography variant="subtitle1" gutterBottom>Pontos de parada ({v.direcao === 'volta' ? 'volta' : 'ida'})</Typography>
                {!v.pontos.length ? <Alert severity="info">O itinerário não tem pontos de parada neste sentido.</Alert> : (
                  <Table size="small" data-testid="pontos">
                    <TableHead><TableRow><TableCell>Ordem</TableCell><TableCell>Ponto</TableCell><TableCell>Previsto</TableCell><TableCell>Chegada</TableCell><TableCell>Situação</TableCell><TableCell align="right">Menor distância</TableCell></TableRow></TableHead>
                    <TableBody>{v.pontos.map((p) => { const a = atrasoTexto(p.atraso); return (
                      <TableRow key={p.ordem}>
                        <TableCell>{p.ordem}</TableCell><TableCell>{p.descricao}</TableCell><TableCell>{formatDateTime(p.previsto)}</TableCell>
                        <TableCell>{p.chegada ? formatDateTime(p.chegada) : '—'}</TableCell><TableCell><Chip size="small" color={a.color} label={a.label} /></TableCell>
                        <TableCell align="right">{p.distanciaMinima === null ? '—' : metros(p.distanciaMinima)}</TableCell>
                      </TableRow>
                    ); })}</TableBody>
                  </Table>
                )}
              </CardContent></Card>
            )}
          </Stack>
          <Card variant="outlined" sx={{ flex: 2, width: '100%', position: { lg: 'sticky' }, top: 16 }}><CardContent>
            <Typography variant="subtitle1" gutterBottom>{v ? `Viagem de ${formatDateTime(v.inicio)}` : 'Itinerário'}</Typography>
            <Mapa r={r} v={v} foco={foco === undefined ? undefined : v?.desvios[foco]} />
            <Typography variant="caption" color="text.secondary">Azul: linha e corredor; verde: trajeto; vermelho: desvios (o ponto marca a maior distância); círculos: pontos de parada.</Typography>
          </CardContent></Card>
        </Stack>
      )}
    </Stack>
  );
}

export default function HistoricoItinerario() {
  const { id } = useParams();
  return id ? <Comparacao id={id} /> : <Lista />;
}
