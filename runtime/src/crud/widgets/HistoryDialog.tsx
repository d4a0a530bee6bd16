// 'Histórico de alterações': who, when and each changed field before/after.
import { useEffect, useState } from 'react';
import {
  Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead, TableRow, Typography,
} from '@mui/material';
import { useDataProvider, type Identifier } from 'react-admin';
import type { EntityMeta, FieldMeta } from '../../../../shared/model';
import type { HistoryEntry, RastroDataProvider } from '../../api/dataProvider';
import { formatDate, formatTimestamp } from '../lib/format';

interface Row { quem: string; quando: string; operacao: string; campo: string; antes: string; depois: string }

const raw = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v));
const number = (v: unknown) => (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)))
  ? Number(v).toLocaleString('pt-BR', { maximumFractionDigits: 6 }) : raw(v));

/** A value as the list shows it: the label the server read for references and codes (`texto`), enum and option
 *  labels, Sim/Não, pt-BR numbers (1.234,5), dates DD-MM-YYYY and timestamps with the weekday. */
export function showValue(v: unknown, f: FieldMeta | undefined, texto?: string): string {
  if (v === undefined || v === null || v === '') return '—';
  if (texto !== undefined) return texto;
  if (!f) return raw(v);
  switch (f.type) {
    case 'boolean': return v === true || v === 'true' ? 'Sim' : v === false || v === 'false' ? 'Não' : raw(v);
    case 'integer': case 'number': return number(v);
    case 'date': return formatDate(String(v));
    case 'datetime': return formatTimestamp(String(v));
    case 'enum': return f.options?.find((o) => o.value === v)?.label ?? raw(v);
    case 'json':
      if (f.items === 'string' && Array.isArray(v)) return v.map((x) => f.options?.find((o) => o.value === x)?.label ?? String(x)).join(', ') || '—';
      return raw(v);
    default: return raw(v);
  }
}
const OPS: Record<string, string> = { create: 'Inclusão', insert: 'Inclusão', update: 'Alteração', delete: 'Exclusão' };

export function historyRows(entries: HistoryEntry[], entity: EntityMeta): Row[] {
  const fieldOf = (n: string) => entity.fields.find((f) => f.name === n);
  const label = (n: string) => fieldOf(n)?.label ?? n;
  const actionLabel = (n: string) => entity.actions.find((a) => a.name === n)?.label;
  return entries.flatMap((h: any) => {
    const quem = String(h.quem ?? h.usuario?.nome ?? h.usuario?.login ?? h.usuario ?? h.login ?? '—');
    const quando = formatTimestamp(h.quando ?? h.data ?? h.createdAt);
    const op = String(h.operacao ?? h.acao ?? '');
    const operacao = OPS[op.toLowerCase()] ?? actionLabel(op) ?? (op || '—');
    // server shape: alteracoes { campo: { antes, depois, antesTexto?, depoisTexto? } }; also accepts antes/depois objects
    const alt: Record<string, { antes?: unknown; depois?: unknown; antesTexto?: string; depoisTexto?: string }> | undefined = h.alteracoes;
    const antes = alt ? Object.fromEntries(Object.entries(alt).map(([k, v]) => [k, v?.antes])) : (h.antes ?? {});
    const depois = alt ? Object.fromEntries(Object.entries(alt).map(([k, v]) => [k, v?.depois])) : (h.depois ?? {});
    const campos: string[] = Array.isArray(h.campos) && typeof h.campos[0] === 'string'
      ? h.campos
      : [...new Set([...Object.keys(antes ?? {}), ...Object.keys(depois ?? {})])].filter((k) => !['updatedAt', 'createdAt'].includes(k));
    if (!campos.length) return [{ quem, quando, operacao, campo: '—', antes: '—', depois: '—' }];
    return campos.map((c) => ({
      quem, quando, operacao, campo: label(c),
      antes: showValue(antes?.[c], fieldOf(c), alt?.[c]?.antesTexto),
      depois: showValue(depois?.[c], fieldOf(c), alt?.[c]?.depoisTexto),
    }));
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
