// The state block of a guarded action's 'ATENÇÃO' dialog (metadata actions[].guard, e.g. ativo.bloqueia_motor):
// names the record (representation + plate), reads its latest state from the guard's provider (GET /api{path} with
// the `by` filter = the record's id) and shows speed, moving/stopped, last communication (pt-BR), ignition and
// driver; when it moves above guard.speedAbove, a warning and the typed confirmation the server requires too.
import { useEffect, useState } from 'react';
import { Alert, Box, CircularProgress, TextField, Typography } from '@mui/material';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';
import { authHeaders } from '../../api/http';
import { model } from '../../model';
import { guardState, recordName, typedForm, type GuardRow } from '../lib/actions';
import { formatTimestamp } from '../lib/format';

export interface GuardValue { ready: boolean; confirmacao?: string }

type State = ReturnType<typeof guardState>;

/** Rows of the guard's provider for the record (null: could not be read). */
async function readState(action: ActionMeta, id: unknown): Promise<GuardRow[] | null> {
  const g = action.guard!;
  const p = model.providers.find((x) => x.key === g.provider);
  if (!p?.path) return null;
  const q = new URLSearchParams({ filter: JSON.stringify({ [g.by]: id }), range: '[0,19]', sort: JSON.stringify(['ultimaComunicacao', 'DESC']) });
  const r = await fetch(`/api${p.path}?${q}`, { headers: authHeaders() });
  if (!r.ok) return null;
  const rows = await r.json();
  return Array.isArray(rows) ? rows : null;
}

const line = (label: string, value: string, testId?: string) => (
  <Box component="tr" data-testid={testId}>
    <Box component="th" sx={{ textAlign: 'left', pr: 2, py: 0.25, fontWeight: 500, color: 'text.secondary', whiteSpace: 'nowrap', verticalAlign: 'top' }}>{label}</Box>
    <Box component="td" sx={{ py: 0.25 }}>{value}</Box>
  </Box>
);

export function GuardPanel({ entity, action, record, onChange }: {
  entity: EntityMeta; action: ActionMeta; record: Record<string, unknown>; onChange: (v: GuardValue) => void;
}) {
  const g = action.guard!;
  const [state, setState] = useState<State | 'erro' | null>(null);
  const [typed, setTyped] = useState('');
  useEffect(() => {
    let live = true;
    readState(action, record.id).then((rows) => { if (live) setState(rows ? guardState(rows, g) : 'erro'); }, () => { if (live) setState('erro'); });
    return () => { live = false; };
  }, [action, record.id, g]);

  const plate = g.typed ? String(record[g.typed] ?? '') : '';
  // unknown state: ask for the plate all the same (the server decides on the real state)
  const mustType = !!g.typed && g.speedAbove != null && (state === 'erro' || (state != null && state.mustType));
  const ok = !mustType || (typedForm(typed) !== '' && typedForm(typed) === typedForm(plate));
  useEffect(() => {
    onChange({ ready: state != null && ok, ...(mustType ? { confirmacao: typed } : {}) });
  }, [state, ok, mustType, typed, onChange]);

  const s = state && state !== 'erro' ? state : null;
  const speed = s?.speed != null ? `${Math.round(s.speed)} km/h` : 'Sem informação';
  return (
    <Box sx={{ mb: 1.5 }} data-testid="estado-do-registro">
      <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>{recordName(entity, action, record)}</Typography>
      {state == null ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 1 }}><CircularProgress size={16} /><Typography variant="body2">Lendo o estado do veículo...</Typography></Box>
      ) : state === 'erro' ? (
        <Alert severity="warning" sx={{ my: 1 }}>Não foi possível ler o estado atual do veículo.</Alert>
      ) : (
        <Box component="table" sx={{ borderCollapse: 'collapse', fontSize: 14, my: 1 }}>
          <tbody>
            {g.typed && line('Placa', plate || 'Sem informação')}
            {line('Situação', s!.speed == null ? 'Sem informação' : s!.moving ? 'Em movimento' : 'Parado', 'situacao')}
            {line('Última velocidade', speed, 'velocidade')}
            {line('Última comunicação', formatTimestamp(s!.ultimaComunicacao), 'ultima-comunicacao')}
            {line('Ignição', s!.ignicao == null ? 'Sem informação' : s!.ignicao ? 'Ligada' : 'Desligada')}
            {s!.motorista && line('Motorista', s!.motorista)}
          </tbody>
        </Box>
      )}
      {s?.mustType && (
        <Alert severity="error" sx={{ my: 1 }}>
          {`O veículo está em movimento (${speed}). ${action.label} com o veículo em movimento pode causar um acidente: o motor será cortado assim que o equipamento receber o comando.`}
        </Alert>
      )}
      {mustType && (
        <TextField fullWidth size="small" autoFocus value={typed} onChange={(e) => setTyped(e.target.value)} sx={{ mt: 1 }}
          label={`Digite a placa ${plate} para confirmar`} error={typed !== '' && !ok}
          helperText={typed !== '' && !ok ? 'A placa digitada não confere' : ' '} slotProps={{ htmlInput: { autoComplete: 'off' } }} />
      )}
    </Box>
  );
}
