// Background jobs of this user (server/jobs): their progress arrives pushed on the socket (`tarefa`, never polled) and
// shows in a small panel at the bottom right of every screen until closed; the full list is /adm/sis/tarefa.
import { useEffect, useState } from 'react';
import { Box, IconButton, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { onPush } from './Realtime';

export interface TarefaPush {
  id: number; descricao: string; estado: 'na_fila' | 'executando' | 'concluido' | 'falhou' | 'cancelado'; progresso: number;
  mensagem: string | null; resultado: string | null; erro: string | null;
  /** The row's update time in µs (digits): pushes may reach the screen out of order. */
  versao?: string;
}
const ESTADO: Record<TarefaPush['estado'], string> = {
  na_fila: 'Na fila', executando: 'Executando', concluido: 'Concluída', falhou: 'Falhou', cancelado: 'Cancelada',
};

const FINAL = new Set<TarefaPush['estado']>(['concluido', 'falhou', 'cancelado']);
const older = (t: TarefaPush, held: TarefaPush) =>
  (FINAL.has(held.estado) && !FINAL.has(t.estado)) || (!!t.versao && !!held.versao && BigInt(t.versao) < BigInt(held.versao));

/** The panel's jobs after push `t`: a job's state is replaced only by a newer one (a late push of an earlier
 *  progress, or of a running state after the end, is dropped). */
export function withPush(list: TarefaPush[], t: TarefaPush): TarefaPush[] {
  const held = list.find((x) => x.id === t.id);
  if (!held) return [...list, t];
  return older(t, held) ? list : list.map((x) => (x.id === t.id ? t : x));
}

export function TarefasEmAndamento() {
  const [tarefas, setTarefas] = useState<TarefaPush[]>([]);
  useEffect(() => onPush('tarefa', (p) => {
    const t = p as TarefaPush;
    if (!t || typeof t.id !== 'number') return;
    setTarefas((l) => withPush(l, t));
  }), []);
  if (!tarefas.length) return null;
  return (
    <Paper elevation={6} data-testid="tarefas" sx={{ position: 'fixed', right: 16, bottom: 16, width: 380, zIndex: 1400, p: 1.5 }}>
      <Typography variant="subtitle2" gutterBottom>Tarefas em segundo plano</Typography>
      <Stack spacing={1.5}>
        {tarefas.map((t) => (
          <Box key={t.id} data-testid={`tarefa-${t.id}`}>
            <Stack direction="row" alignItems="flex-start" spacing={1}>
              <Typography variant="body2" sx={{ flex: 1 }}>{t.descricao}</Typography>
              <IconButton size="small" aria-label="Fechar" onClick={() => setTarefas((l) => l.filter((x) => x.id !== t.id))}><CloseIcon fontSize="small" /></IconButton>
            </Stack>
            <Stack direction="row" alignItems="center" spacing={1}>
              <LinearProgress variant="determinate" value={t.progresso} sx={{ flex: 1, height: 8, borderRadius: 4 }}
                color={t.estado === 'falhou' ? 'error' : t.estado === 'concluido' ? 'success' : t.estado === 'cancelado' ? 'inherit' : 'primary'} />
              <Typography variant="body2" sx={{ minWidth: 44, textAlign: 'right' }}>{t.progresso} %</Typography>
            </Stack>
            <Typography variant="caption" color={t.estado === 'falhou' ? 'error' : 'text.secondary'} component="div">
              {ESTADO[t.estado]}{t.estado === 'concluido' && t.resultado ? `: ${t.resultado}` : t.estado === 'falhou' && t.erro ? `: ${t.erro}` : t.mensagem && t.estado === 'executando' ? ` — ${t.mensagem}` : ''}
            </Typography>
          </Box>
        ))}
      </Stack>
    </Paper>
  );
}
