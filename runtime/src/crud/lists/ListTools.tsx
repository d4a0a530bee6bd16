// The shared list tools of spec section 2 (registers and providers alike): Imprimir, 'Selecionar Colunas'
// (choices of useColumnChoices), 'Exportar Tabela' (CSV/Excel of the whole filtered result, from the server) and the
// search box.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Checkbox, Divider, IconButton, InputAdornment, ListItemIcon, ListItemText, Menu, MenuItem, TextField, Tooltip, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import PrintIcon from '@mui/icons-material/Print';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import DescriptionIcon from '@mui/icons-material/Description';
import GridOnIcon from '@mui/icons-material/GridOn';
import { authHeaders } from '../../api/http';
import type { ColumnChoice } from '../../api/session';

/** The list's search box ('Pesquisar'): sets filter q 400 ms after the last keystroke. */
export function SearchBox({ value, onChange, width = 240 }: { value: string; onChange: (q: string) => void; width?: number }) {
  const [text, setText] = useState(value);
  const first = useRef(true);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => latest.current(text.trim()), 400);
    return () => clearTimeout(t);
  }, [text]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <TextField
      size="small"
      margin="none"
      className="rastro-noprint"
      placeholder="Pesquisar"
      value={text}
      onChange={(e) => setText(e.target.value)}
      sx={{ width }}
      slotProps={{
        input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> },
        htmlInput: { 'aria-label': 'Pesquisar' },
      }}
    />
  );
}

export function ToolButton({ title, onClick, children, label }: { title: string; onClick: (e: React.MouseEvent<HTMLElement>) => void; children: ReactNode; label?: string }) {
  return (
    <Tooltip title={title} enterDelay={1000}>
      <IconButton aria-label={label ?? title} onClick={onClick}>
        {children}
      </IconButton>
    </Tooltip>
  );
}

/** Query of GET {list}/export: the list's sort and filters, the chosen columns. */
export function exportParams(sort: { field: string; order: string }, filterValues: unknown, columns: string[], format: 'csv' | 'xlsx'): string {
  return new URLSearchParams({
    format,
    sort: JSON.stringify([sort.field, sort.order]),
    filter: JSON.stringify(filterValues ?? {}),
    columns: JSON.stringify(columns),
  }).toString();
}

export async function downloadFile(url: string, fallbackName: string) {
  const res = await fetch(url, { headers: authHeaders('GET') });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new Error(body?.msg ?? 'Erro ao exportar a tabela');
  }
  const cd = res.headers.get('Content-Disposition') ?? '';
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd)?.[1] ?? fallbackName;
  const blob = await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = decodeURIComponent(name);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

export function ListTools({ choices, onToggle, onExport, children }: {
  choices: ColumnChoice[];
  onToggle: (key: string) => void;
  onExport: (format: 'csv' | 'xlsx') => void;
  children?: ReactNode;
}) {
  const [colsAnchor, setColsAnchor] = useState<HTMLElement | null>(null);
  const [expAnchor, setExpAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Box sx={{ display: 'flex' }} className="rastro-noprint">
        <ToolButton title="Imprimir" onClick={() => window.print()}>
          <PrintIcon />
        </ToolButton>
        <ToolButton title="Selecionar Colunas" onClick={(e) => setColsAnchor(e.currentTarget)}>
          <ViewColumnIcon />
        </ToolButton>
        <ToolButton title="Exportar Tabela" onClick={(e) => setExpAnchor(e.currentTarget)}>
          <FileDownloadIcon />
        </ToolButton>
        {children}
      </Box>
      <Menu anchorEl={colsAnchor} open={!!colsAnchor} onClose={() => setColsAnchor(null)}>
        <Typography variant="subtitle2" sx={{ px: 2, py: 1 }}>Selecionar Colunas</Typography>
        <Divider />
        {choices.map((c) => (
          <MenuItem key={c.key} dense onClick={() => onToggle(c.key)}>
            <Checkbox size="small" checked={c.selected} sx={{ p: 0.5, mr: 1 }} />
            <ListItemText primary={c.label} />
          </MenuItem>
        ))}
      </Menu>
      <Menu anchorEl={expAnchor} open={!!expAnchor} onClose={() => setExpAnchor(null)}>
        <Typography variant="subtitle2" sx={{ px: 2, py: 1 }}>Exportar Tabela</Typography>
        <Divider />
        <MenuItem onClick={() => { setExpAnchor(null); onExport('csv'); }}>
          <ListItemIcon><DescriptionIcon fontSize="small" /></ListItemIcon>
          <ListItemText primary="CSV" />
        </MenuItem>
        <MenuItem onClick={() => { setExpAnchor(null); onExport('xlsx'); }}>
          <ListItemIcon><GridOnIcon fontSize="small" /></ListItemIcon>
          <ListItemText primary="Excel" />
        </MenuItem>
      </Menu>
    </>
  );
}
