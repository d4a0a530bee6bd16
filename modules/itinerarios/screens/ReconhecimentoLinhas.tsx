// Reconhecimento de linhas (/cfg/map/reconhecimento_linhas?ativo=): the trips of an asset in a period, each with the
// line it ran (best overlap of the track with each line's corridor) and the candidates' adherence.
import { useEffect, useState } from 'react';
import { Alert, Autocomplete, Chip, Card, CardContent, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useSearchParams } from 'react-router-dom';
import { call } from '../../../runtime/src/api/http';
import { formatDateTime } from '../../../runtime/src/crud/lib/format';
import { DateRangeFilter, isoDay, type DateRange } from '../../../runtime/src/crud/widgets/DateRangeFilter';
import { Title } from 'react-admin';

interface Ativo { id: number; descricao: string; placa: string }
interface Candidata { linha: number; descricao: string | null; aderencia: number; trilhaNoCorredor: number; linhaPercorrida: number }
interface Viagem { id: string; inicio: string; fim: string; distancia: number | null; linha: number | null; linhaDescricao: string | null; aderencia: number; candidatas: Candidata[] }
interface Resposta { aderenciaMinima: number; viagens: Viagem[] }

const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const pct = (v: number) => `${(v * 100).toLocaleString('pt-BR', { maximumFractionDigits: 0 })}%`;

export default function ReconhecimentoLinhas() {
  const [search, setSearch] = useSearchParams();
  const ativoId = Number(search.get('ativo')) || null;
  const hoje = isoDay(new Date());
  const [periodo, setPeriodo] = useState<DateRange>({ from: hoje, to: hoje });
  const [ativos, setAtivos] = useState<Ativo[]>([]);
  const [r, setR] = useState<Resposta>();
  const [erro, setErro] = useState<string>();

  useEffect(() => { call<Ativo[]>(`/api/historico_itinerario/ativos?range=${q([0, 999])}`).then(setAtivos, (e: Error) => setErro(e.message)); }, []);
  useEffect(() => {
    setR(undefined);
    if (!ativoId) return;
    let off = false;
    const inicio = new Date(`${periodo.from}T00:00:00`).toISOString(), fim = new Date(`${periodo.to}T23:59:59.999`).toISOString();
    call<Resposta>(`/api/reconhecimento_linhas?ativo=${ativoId}&inicio=${encodeURIComponent(inicio)}&fim=${encodeURIComponent(fim)}`)
      .then((x) => { if (!off) { setR(x); setErro(undefined); } }, (e: Error) => { if (!off) setErro(e.message); });
    return () => { off = true; };
  }, [ativoId, periodo]);
  const ativo = ativos.find((a) => a.id === ativoId) ?? null;

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Title title="Reconhecimento de linhas" />
      <Typography variant="h5" component="h1">Reconhecimento de linhas</Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
        <Autocomplete sx={{ minWidth: 320 }} options={ativos} value={ativo} getOptionLabel={(a) => `${a.descricao} (${a.placa})`}
          isOptionEqualToValue={(a, b) => a.id === b.id} onChange={(_, a) => setSearch(a ? { ativo: String(a.id) } : {}, { replace: true })}
          renderInput={(p) => <TextField {...p} label="Ativo" size="small" />} />
        <DateRangeFilter value={periodo} onChange={(x) => setPeriodo(x ?? { from: hoje, to: hoje })} />
      </Stack>
      {erro && <Alert severity="error">{erro}</Alert>}
      {!ativoId && <Alert severity="info">Escolha um ativo e o período: cada viagem mostra a linha que o veículo percorreu.</Alert>}
      {r && !r.viagens.length && <Alert severity="info">Nenhuma posição do ativo no período.</Alert>}
      {r && !!r.viagens.length && (
        <Card variant="outlined"><CardContent>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            Aderência: média harmônica entre a parte do trajeto dentro do corredor e a parte da linha percorrida; a linha é reconhecida a partir de {pct(r.aderenciaMinima)}.
          </Typography>
          <Table size="small" data-testid="reconhecimento">
            <TableHead><TableRow><TableCell>Início</TableCell><TableCell>Fim</TableCell><TableCell>Linha reconhecida</TableCell><TableCell align="right">Aderência</TableCell><TableCell>Outras linhas</TableCell></TableRow></TableHead>
            <TableBody>{r.viagens.map((v) => (
              <TableRow key={v.id}>
                <TableCell>{formatDateTime(v.inicio)}{v.id === 'periodo' ? ' (período)' : ''}</TableCell><TableCell>{formatDateTime(v.fim)}</TableCell>
                <TableCell>{v.linhaDescricao ? <Chip color="success" size="small" label={v.linhaDescricao} /> : <Chip size="small" label="Não reconhecida" />}</TableCell>
                <TableCell align="right">{pct(v.aderencia)}</TableCell>
                <TableCell>{v.candidatas.filter((c) => c.linha !== v.linha).slice(0, 3).map((c) => `${c.descricao} (${pct(c.aderencia)})`).join(', ') || '—'}</TableCell>
              </TableRow>
            ))}</TableBody>
          </Table>
        </CardContent></Card>
      )}
    </Stack>
  );
}
