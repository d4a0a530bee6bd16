// Gestão à vista — Ambiente (/rel/ges/gestao_a_vista/ambiente): each vehicle's ambient sensors from its latest state,
// live (gestao_estado pushes), against the spec's limits — temperature 28 to 35, humidity 70 to 100, CO2 800 to 1099;
// door Aberta/Fechada. Out-of-range values in red, vehicles out of range first.
import { useMemo, useState } from 'react';
import { Alert, Box, Chip, FormControlLabel, Paper, Switch, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { ESTADOS_VEICULO, estadoVeiculo } from '../../../shared/estado-veiculo';
import { dataHora, num, useAgora, useFrotaAoVivo, type EstadoAtivo } from './dados';
import { comSensor, foraDoLimite, LIMITES } from './widgets';
import { CabecalhoAoVivo } from './GestaoAVista';

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const alerta = (r: EstadoAtivo) => foraDoLimite('temperatura', r.temperatura) || foraDoLimite('umidade', r.umidade) || foraDoLimite('co2', r.co2);

function Valor({ v, k, casas, unidade }: { v: number | null; k: keyof typeof LIMITES; casas: number; unidade: string }) {
  if (v == null) return <Typography variant="body2" color="text.disabled">–</Typography>;
  const fora = foraDoLimite(k, v);
  return <Typography variant="body2" sx={{ fontWeight: fora ? 700 : 400, color: fora ? 'error.main' : 'inherit' }} data-fora={fora ? 'sim' : 'nao'}>{num(v, casas)} {unidade}</Typography>;
}

export default function Ambiente() {
  const user = useSession();
  const empresa = user?.empresaAtiva ?? null;
  const { rows, erro, aoVivo, atualizado } = useFrotaAoVivo(empresa);
  const agora = useAgora();
  const [busca, setBusca] = useState('');
  const [todos, setTodos] = useState(false);
  const lista = useMemo(() => {
    const q = fold(busca.trim());
    return (rows ?? [])
      .filter((r) => todos || comSensor(r))
      .filter((r) => !q || [r.ativo, r.placa, r.serial].some((x) => x && fold(x).includes(q)))
      .sort((a, b) => Number(alerta(b)) - Number(alerta(a)) || a.ativo.localeCompare(b.ativo, 'pt-BR'));
  }, [rows, busca, todos]);
  const fora = (rows ?? []).filter(alerta).length;

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid="gestao-ambiente">
      <Title title="Ambiente" />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>Monitoramento de ambiente</Typography>
        <CabecalhoAoVivo aoVivo={aoVivo} atualizado={atualizado} />
        {rows && <Chip size="small" color={fora ? 'error' : 'success'} label={fora ? `${fora} fora dos limites` : 'Todos dentro dos limites'} data-testid="ambiente-alertas" />}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Limites: temperatura {LIMITES.temperatura[0]} a {LIMITES.temperatura[1]} ºC · umidade {LIMITES.umidade[0]} a {LIMITES.umidade[1]} % · CO2 {LIMITES.co2[0]} a {LIMITES.co2[1]} ppm
      </Typography>
      {erro && <Alert severity="error" sx={{ mb: 2 }}>{erro}</Alert>}
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 1.5, flexWrap: 'wrap' }}>
        <TextField size="small" label="Buscar veículo" value={busca} onChange={(e) => setBusca(e.target.value)} />
        <FormControlLabel control={<Switch checked={todos} onChange={(e) => setTodos(e.target.checked)} />} label="Mostrar veículos sem sensores" />
      </Box>
      <TableContainer component={Paper}>
        <Table size="small" aria-label="Sensores de ambiente">
          <TableHead>
            <TableRow>
              <TableCell>Ativo</TableCell><TableCell>Placa</TableCell><TableCell>Situação</TableCell>
              <TableCell>Temperatura</TableCell><TableCell>Umidade</TableCell><TableCell>CO2</TableCell><TableCell>Porta</TableCell><TableCell>Data</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows && !lista.length && <TableRow><TableCell colSpan={8}>Nenhum item foi encontrado</TableCell></TableRow>}
            {lista.map((r) => {
              const e = estadoVeiculo(r, agora);
              return (
                <TableRow key={r.id} data-ativo={r.ativoId} sx={alerta(r) ? { bgcolor: 'rgba(198,40,40,0.06)' } : undefined}>
                  <TableCell>{r.ativo}</TableCell>
                  <TableCell>{r.placa ?? '–'}</TableCell>
                  <TableCell><Box component="span" sx={{ display: 'inline-block', width: 10, height: 10, borderRadius: '50%', bgcolor: ESTADOS_VEICULO[e].color, mr: 1 }} />{ESTADOS_VEICULO[e].label}</TableCell>
                  <TableCell><Valor v={r.temperatura} k="temperatura" casas={1} unidade="ºC" /></TableCell>
                  <TableCell><Valor v={r.umidade} k="umidade" casas={0} unidade="%" /></TableCell>
                  <TableCell><Valor v={r.co2} k="co2" casas={0} unidade="ppm" /></TableCell>
                  <TableCell>{r.porta == null ? '–' : <Chip size="small" label={`Porta ${r.porta ? 'Aberta' : 'Fechada'}`} color={r.porta ? 'warning' : 'default'} />}</TableCell>
                  <TableCell>{r.ultimaComunicacao ? dataHora(Date.parse(r.ultimaComunicacao)) : '–'}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
