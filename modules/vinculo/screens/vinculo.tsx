// Pieces shared by the link screens: the company's devices as the picker shows them (provider equipamento_vinculo),
// an asset's open links (named call por_ativo), the confirmation dialog and the equipment actions they call.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { call, httpClient } from '../../../runtime/src/api/http';

export type Row = Record<string, unknown>;

/** A device of the company with the vehicle it is linked to now (ativoId empty: free). */
export interface Device {
  id: number; serial: string; tecnologia: string; modelo: string; modeloDescricao: string | null; simcard: string | null;
  ativoId: number | null; ativoDescricao: string | null; placa: string | null;
}

export const vehicle = (descricao: unknown, placa: unknown) => `${String(descricao ?? '')}${placa ? ` (${String(placa)})` : ''}`;
export const modelLabel = (d: Pick<Device, 'modelo' | 'modeloDescricao'>) => d.modeloDescricao ?? d.modelo;

/** Devices by search text (serial, IMEI, model, SIM card) or exact serial / id; the first 50. */
export async function devices(filter: { q?: string; serial?: string; equipamentoId?: number }): Promise<Device[]> {
  const clean = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));
  const qs = new URLSearchParams({ filter: JSON.stringify(clean), range: '[0,49]', sort: '["serial","ASC"]' });
  return (await httpClient(`/api/vinculo/equipamentos?${qs}`)).json as Device[];
}

/** The device named by a route segment: its serial, else (digits) its id. */
export async function deviceOf(key: string): Promise<Device | null> {
  const [bySerial] = await devices({ serial: key });
  if (bySerial) return bySerial;
  if (!/^\d{1,9}$/.test(key)) return null;
  const [byId] = await devices({ equipamentoId: Number(key) });
  return byId ?? null;
}

/** The asset's open links (serial, equipamentoId, modelo, dataInicio, ultimaComunicacao). */
export function useLinks(ativoId: unknown) {
  const [links, setLinks] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    if (ativoId == null) return;
    call<Row[]>(`/equipamento_ativo/por_ativo/${encodeURIComponent(String(ativoId))}`)
      .then((r) => { setLinks(r ?? []); setError(null); })
      .catch((e: Error) => { setLinks([]); setError(e.message); });
  }, [ativoId]);
  useEffect(reload, [reload]);
  return { links, error, reload };
}

const post = (path: string, body?: unknown) =>
  httpClient(path, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body), headers: new Headers({ 'Content-Type': 'application/json' }) });

/** Ends the device's open link (equipamento action remover_equipamento; the link stays as history). */
export const unlink = (equipamentoId: number) => post(`/api/equipamento/${equipamentoId}/remover_equipamento`, {});
/** Links the device to the asset from now on (refused with 409 by the server's rules). */
export const link = (serial: string, ativoId: number) => post('/api/equipamento_ativo', { serial, ativoId, dataInicio: new Date().toISOString() });
/** Queues the device restart that re-attaches its SIM card (equipamento action reiniciar_simcard). */
export const restartSim = (equipamentoId: number) => post(`/api/equipamento/${equipamentoId}/reiniciar_simcard`, {});

/** The ATENÇÃO dialog of these screens: a sentence saying what happens to which vehicle, Cancelar / the action. */
export function ConfirmDialog({ open, title, children, confirm, busy, onClose, onConfirm }: {
  open: boolean; title: string; children: ReactNode; confirm: string; busy?: boolean; onClose: () => void; onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="vinculo-confirm-title">
      <DialogTitle id="vinculo-confirm-title">{title}</DialogTitle>
      <DialogContent><Typography component="div">{children}</Typography></DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" color="warning" disabled={busy} onClick={onConfirm}>{confirm}</Button>
      </DialogActions>
    </Dialog>
  );
}
