// Passageiros ao vivo (/esp/pas/passageiros_ao_vivo): per vehicle, its passenger trip of the last 24 hours and who is
// on board now — loaded once from the provider passageiros_a_bordo, then kept by its live rows (`passageiros_a_bordo`
// pushes keyed by serial, written as the RFID card reads arrive at ingest); loaded again when the socket re-joins.
import { useMemo, useState } from 'react';
import { Alert, Box, Card, CardContent, Chip, Stack, TextField, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { formatDateTime } from '../../../runtime/src/crud/lib/format';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { useLiveRows } from '../../../runtime/src/layout/useLiveRows';

const EVENT = 'passageiros_a_bordo';
const URL = `/api/passageiros/a_bordo?range=${encodeURIComponent('[0,999]')}&sort=${encodeURIComponent('["ativo","ASC"]')}`;

interface ABordo { tag: string; nome: string | null; matricula: string | null; entrada: string }
export interface Veiculo {
  serial: string; ativo: string | null; placa: string | null; motorista: string | null; itinerario: string | null; direcao: string | null;
  inicio: string; fim: string | null; aBordo: number; qtdPassageiros: number; lotacao: number; passageiros: ABordo[];
}

const hora = (s: string) => formatDateTime(s).slice(-8, -3);

function CartaoVeiculo({ v }: { v: Veiculo }) {
  return (
    <Card variant="outlined" data-serial={v.serial} data-testid="veiculo-passageiros" sx={{ minWidth: 300, flex: '1 1 300px', maxWidth: 460 }}>
      <CardContent>
        <Stack direction="row" justifyContent="space-between" alignItems="baseline" spacing={1}>
          <Typography variant="h6" component="h2">{v.ativo ?? v.serial}</Typography>
          <Typography variant="body2" color="text.secondary">{v.placa}</Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {v.itinerario ? `${v.itinerario}${v.direcao ? ` — ${v.direcao}` : ''}` : 'Sem itinerário'}{v.motorista ? ` · ${v.motorista}` : ''}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {v.fim ? `Viagem de ${formatDateTime(v.inicio)} a ${hora(v.fim)} (encerrada)` : `Em viagem desde ${formatDateTime(v.inicio)}`}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ my: 1 }}>
          <Chip color={v.aBordo ? 'primary' : 'default'} label={`A bordo: ${v.aBordo}`} data-testid="a-bordo" />
          <Chip variant="outlined" label={`Embarques: ${v.qtdPassageiros}`} />
          <Chip variant="outlined" label={`Lotação máxima: ${v.lotacao}`} />
        </Stack>
        {v.passageiros.length ? (
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {v.passageiros.map((p) => (
              <li key={p.tag}>
                <Typography variant="body2" component="span">{p.nome ?? `Cartão ${p.tag} (não cadastrado)`}</Typography>
                <Typography variant="caption" color="text.secondary">{p.matricula ? ` · ${p.matricula}` : ''} · embarcou às {hora(p.entrada)}</Typography>
              </li>
            ))}
          </Box>
        ) : <Typography variant="body2" color="text.secondary">Ninguém a bordo.</Typography>}
      </CardContent>
    </Card>
  );
}

export default function PassageirosAoVivo() {
  const empresa = useSession()?.empresaAtiva ?? null;
  const { rows, erro } = useLiveRows<Veiculo, Map<string, Veiculo>>({
    url: URL, event: EVENT, empresa, erro: 'Erro ao carregar os passageiros',
    read: (list) => new Map(list.map((v) => [v.serial, v])),
    apply: (cur, push) => {
      const next = push.completo ? new Map<string, Veiculo>() : new Map(cur);
      for (const r of push.rows) next.set(r.serial, r);
      return next;
    },
  });
  const [busca, setBusca] = useState('');

  const lista = useMemo(() => {
    const q = busca.trim().toLowerCase();
    return [...(rows?.values() ?? [])]
      .filter((v) => !q || [v.ativo, v.placa, v.itinerario, ...v.passageiros.map((p) => p.nome)].some((s) => s?.toLowerCase().includes(q)))
      .sort((a, b) => Number(!!a.fim) - Number(!!b.fim) || (a.ativo ?? '').localeCompare(b.ativo ?? '', 'pt-BR'));
  }, [rows, busca]);
  const total = lista.reduce((n, v) => n + v.aBordo, 0);
  const emViagem = lista.filter((v) => !v.fim).length;

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Passageiros ao vivo" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} sx={{ mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>Passageiros ao vivo</Typography>
        <Chip color="primary" label={`Passageiros a bordo: ${total}`} data-testid="total-a-bordo" />
        <Chip variant="outlined" label={`Veículos em viagem: ${emViagem}`} />
        <TextField size="small" label="Buscar veículo, itinerário ou passageiro" value={busca} onChange={(e) => setBusca(e.target.value)} />
      </Stack>
      {erro && <Alert severity="error" sx={{ mb: 2 }}>{erro}</Alert>}
      {rows === null && !erro && <Typography color="text.secondary">Carregando…</Typography>}
      {rows !== null && !lista.length && (
        <Alert severity="info">Nenhum veículo com passageiros nas últimas 24 horas. Os embarques aparecem aqui quando o leitor RFID do rastreador lê um cartão.</Alert>
      )}
      <Stack direction="row" flexWrap="wrap" gap={2}>
        {lista.map((v) => <CartaoVeiculo key={v.serial} v={v} />)}
      </Stack>
    </Box>
  );
}
