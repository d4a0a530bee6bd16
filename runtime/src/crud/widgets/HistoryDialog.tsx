// 'Histórico de alterações': who, when and each changed field before/after.
import { useEffect, useState } from 'react';
import {
  Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead, TableRow, Typography,
} from '@mui/material';
import { useDataProvider, type Identifier } from 'react-admin';
import type { EntityMeta } from '../../../../shared/model';
import type { HistoryEntry, RastroDataProvider } from '../../api/dataProvider';
import { formatDateTime } from '../lib/format';

interface Row { quem: string; quando: string; operacao: string; campo: string; antes: string; depois: string }

const show = (v: unknown) => (v === undefined || v === null || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const OPS: Record<string, string> = { create: 'Inclusão', insert: 'Inclusão', update: 'Alteração', delete: 'Exclusão' };

export function historyRows(entries: HistoryEntry[], entity: EntityMeta): Row[] {
  const label = (n: string) => entity.fields.find((f) => f.name === n)?.label ?? n;
  return entries.flatMap((h: any) => {
    const quem = String(h.quem ?? h.usuario?.nome ?? h.usuario?.login ?? h.usuario ?? h.login ?? '—');
    const quando = formatDateTime(h.quando ?? h.data ?? h.createdAt);
    const operacao = OPS[String(h.operacao ?? h.acao ?? '').toLowerCase()] ?? show(h.operacao ?? h.acao);
    // server shape: alteracoes { campo: { antes, depois } }; also accepts antes/depois objects
    const alt: Record<string, { antes?: unknown; depois?: unknown }> | undefined = h.alteracoes;
    const antes = alt ? Object.fromEntries(Object.entries(alt).map(([k, v]) => [k, v?.antes])) : (h.antes ?? {});
    const depois = alt ? Object.fromEntries(Object.entries(alt).map(([k, v]) => [k, v?.depois])) : (h.depois ?? {});
    const campos: string[] = Array.isArray(h.campos) && typeof h.campos[0] === 'string'
      ? h.campos
      : [...new Set([...Object.keys(antes ?? {}), ...Object.keys(depois ?? {})])].filter((k) => !['updatedAt', 'createdAt'].includes(k));
    if (!campos.length) return [{ quem, quando, operacao, campo: '—', antes: '—', depois: '—' }];
    return campos.map((c) => ({ quem, quando, operacao, campo: label(c), antes: show(antes?.[c]), depois: show(depois?.[c]) }));
  });
}

/** resource: the API path of the row's register (below route parameters: modelo_de_configuracao/queclink/gv50cg). */
export function HistoryDialog({ entity, id, open, onClose, resource = entity.key }: { entity: EntityMeta; id: Identifier; open: boolean; onClose: () => void; resource?: string }) {
  const dp = useDataProvider<RastroDataProvider>();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setRows(null);
    setError(null);
    dp.history(resource, id).then((h) => setRows(historyRows(h, entity)), (e) => setError(e.message));
  }, [open, dp, entity, id, resource]);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="lg" fullWidth>
      <DialogTitle>Histórico de alterações</DialogTitle>
      <DialogContent dividers>
        {error ? (
          <Typography color="error">{error}</Typography>
        ) : !rows ? (
          <Typography color="text.secondary">Aguarde montando dados...</Typography>
        ) : rows.length === 0 ? (
          <Typography color="text.secondary">Nenhum item foi encontrado</Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Quem</TableCell>
                <TableCell>Quando</TableCell>
                <TableCell>Operação</TableCell>
                <TableCell>Campo</TableCell>
                <TableCell>Antes</TableCell>
                <TableCell>Depois</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r, i) => (
                <TableRow key={i}>
                  <TableCell>{r.quem}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.quando}</TableCell>
                  <TableCell>{r.operacao}</TableCell>
                  <TableCell>{r.campo}</TableCell>
                  <TableCell>{r.antes}</TableCell>
                  <TableCell>{r.depois}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fechar</Button>
      </DialogActions>
    </Dialog>
  );
}
