// A list cell of `format: arquivo` (shared/model.ts ArquivoCell): a file a background job produces on demand. There:
// a download link. Not produced yet: a button that asks for it (POST; the server starts the job) and shows
// 'Gerando…' with the job's progress (the `tarefa` push) until the list reads the row again (its refreshOn push)
// and the link replaces it. Never polled.
import { useEffect, useState } from 'react';
import { Button, CircularProgress, Tooltip } from '@mui/material';
import { useNotify } from 'react-admin';
import type { ArquivoCell as Cell } from '../../../../shared/model';
import { httpClient } from '../../api/http';
import { onPush } from '../../layout/Realtime';

export function parseArquivo(value: unknown): Cell | null {
  if (typeof value !== 'string' || !value.startsWith('{')) return null;
  try { return JSON.parse(value) as Cell; } catch { return null; }
}

/** Opens a download the browser does with the session cookie (as the list's links). */
function download(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** `label`: the column's (e.g. PDF), so each button and link is named apart ('Baixar PDF'). */
export function ArquivoCell({ value, text, label }: { value: string; text: string; label?: string }) {
  const cell = parseArquivo(value);
  const notify = useNotify();
  // asked for here: 'Gerando…' until the row read again says otherwise
  const [pedido, setPedido] = useState<{ tarefa: number | null } | null>(null);
  const [progresso, setProgresso] = useState(0);
  useEffect(() => { setPedido(null); }, [value]);
  const gerando = !!cell?.gerando || (!!pedido && !cell?.url);
  const tarefa = cell?.gerando ? cell.tarefa : pedido?.tarefa;
  useEffect(() => {
    setProgresso(0);
    if (!tarefa) return;
    return onPush('tarefa', (p) => {
      const t = p as { id?: number; progresso?: number };
      if (t?.id === tarefa && typeof t.progresso === 'number') setProgresso(t.progresso);
    });
  }, [tarefa]);
  const stop = (e: React.MouseEvent) => e.stopPropagation();
  const name = label ? `${text} ${label}` : text;
  if (!cell) return <span />;
  if (cell.url) return <a href={cell.url} download onClick={stop} aria-label={name}>{text}</a>;
  if (gerando) {
    // a disabled button lets clicks through: the span keeps them from opening the row
    return (
      <span onClick={stop}>
        <Button size="small" disabled data-format="arquivo" startIcon={<CircularProgress size={12} />} sx={{ whiteSpace: 'nowrap', p: 0, textTransform: 'none' }}>
          {progresso > 0 && progresso < 100 ? `Gerando… ${progresso} %` : 'Gerando…'}
        </Button>
      </span>
    );
  }
  if (!cell.gerar) return <span />;
  const gerar = (e: React.MouseEvent) => {
    e.stopPropagation();
    setPedido({ tarefa: null });
    httpClient(cell.gerar!, { method: 'POST' }).then(({ json }) => {
      const p = json?.payload as { estado?: string; url?: string | null; tarefa?: number | null } | undefined;
      if (p?.estado === 'disponivel' && p.url) { setPedido(null); download(p.url); return; }
      setPedido({ tarefa: p?.tarefa ?? null });
    }, (err: Error) => { setPedido(null); notify(err.message, { type: 'error' }); });
  };
  const button = <Button size="small" onClick={gerar} data-format="arquivo" aria-label={name} sx={{ minWidth: 0, p: 0, textTransform: 'none' }}>{text}</Button>;
  return cell.erro
    ? <Tooltip title={`A última geração falhou: ${cell.erro}. Clique para tentar de novo.`}>{button}</Tooltip>
    : button;
}
