// Importação (/cfg/cfg/importacao and /adm/sis/integracao/importar): pick a register declared importable, download
// its model sheet, send a CSV or XLSX, see every row with its pt-BR errors (preview: nothing is written), then
// import all rows at once — or none (modules/importacao/server/importacao.ts). The bar shows the upload, then the server's work.
import { useEffect, useState } from 'react';
import {
  Alert, Box, Button, Card, CardContent, Chip, Divider, LinearProgress, MenuItem, Stack, Table, TableBody, TableCell,
  TableContainer, TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Title, useNotify } from 'react-admin';
import { authHeaders, call } from '../../../runtime/src/api/http';
import { PanelHeader } from '../../../runtime/src/crud/widgets/PanelHeader';
import { downloadFile } from '../../../runtime/src/crud/lists/ListTools';
import { useLocation } from 'react-router-dom';
import { model } from '../../../runtime/src/model';

interface Coluna { name: string; label: string; type: string; required: boolean; options?: string[]; reference?: string }
interface Registro { key: string; label: string; colunas: Coluna[] }
interface Linha { linha: number; dados: Record<string, unknown>; erros: string[] }
interface Previa { total: number; validas: number; invalidas: number; linhas: Linha[] }

const MAX_SHOWN = 500;

/** POST multipart with upload progress (fetch has none). Resolves the JSON body; rejects with the pt-BR msg. */
function send(url: string, file: File, onProgress: (p: number | null) => void): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    authHeaders('POST').forEach((v, k) => { if (k.toLowerCase() !== 'content-type') xhr.setRequestHeader(k, v); });
    xhr.upload.onprogress = (e) => onProgress(e.lengthComputable ? Math.round((e.loaded / e.total) * 100) : null);
    xhr.upload.onload = () => onProgress(null);
    xhr.onload = () => {
      let body: any = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('Falha de rede ao enviar a planilha'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

const show = (v: unknown) => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : typeof v === 'boolean' ? (v ? 'Sim' : 'Não') : String(v));

export default function ImportacaoScreen() {
  const notify = useNotify();
  const { pathname } = useLocation();
  const title = model.screens.find((x) => x.route === pathname.replace(/\/$/, ''))?.label ?? 'Importação';
  const [registros, setRegistros] = useState<Registro[]>();
  const [key, setKey] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [previa, setPrevia] = useState<Previa | null>(null);
  const [progress, setProgress] = useState<{ stage: string; value: number | null } | null>(null);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  useEffect(() => { call<Registro[]>('/api/importacao/registros').then(setRegistros, (e: Error) => setError(e.message)); }, []);
  const registro = registros?.find((r) => r.key === key);
  const reset = () => { setPrevia(null); setError(undefined); setDone(undefined); };

  const post = async (path: string, stage: string) => {
    setError(undefined); setDone(undefined);
    setProgress({ stage: 'Enviando a planilha', value: 0 });
    try {
      return await send(path, file!, (p) => setProgress(p === null ? { stage, value: null } : { stage: 'Enviando a planilha', value: p }));
    } finally { setProgress(null); }
  };
  const preview = async () => {
    try {
      const r = await post(`/api/importacao/${key}/previa`, 'Validando as linhas');
      if (r.status !== 200) { setPrevia(null); return setError(r.body?.msg ?? `Erro ${r.status}`); }
      setPrevia(r.body as Previa);
    } catch (e) { setError((e as Error).message); }
  };
  const importar = async () => {
    try {
      const r = await post(`/api/importacao/${key}`, 'Gravando os registros');
      if (r.status === 201) {
        setPrevia(null); setFile(null);
        setDone(`${r.body.importados} registro(s) importado(s) em ${registro!.label}`);
        notify('Importação concluída', { type: 'success', autoHideDuration: 3000 });
      } else {
        if (r.body?.payload?.linhas) setPrevia(r.body.payload as Previa);
        setError(r.body?.msg ?? `Erro ${r.status}`);
      }
    } catch (e) { setError((e as Error).message); }
  };

  const cols = registro?.colunas.filter((c) => previa?.linhas.some((l) => l.dados[c.name] !== undefined)) ?? [];
  return (
    <Card className="rastro-list">
      <Title title={title} />
      <PanelHeader title={title} />
      <Divider />
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <TextField select size="small" label="Cadastro" value={key} sx={{ minWidth: 260 }} disabled={!registros?.length}
              onChange={(e) => { setKey(e.target.value); reset(); }}>
              {(registros ?? []).map((r) => <MenuItem key={r.key} value={r.key}>{r.label}</MenuItem>)}
            </TextField>
            <Button variant="outlined" startIcon={<DownloadIcon />} disabled={!registro}
              onClick={() => downloadFile(`/api/importacao/${key}/modelo`, `importacao_${key}.xlsx`).catch((e: Error) => setError(e.message))}>
              Baixar modelo
            </Button>
            <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={!registro || !!progress}>
              Selecionar planilha
              <input hidden type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                aria-label="Planilha" onChange={(e) => { setFile(e.target.files?.[0] ?? null); reset(); e.target.value = ''; }} />
            </Button>
            {file && <Typography variant="body2">{file.name}</Typography>}
            <Button variant="outlined" disabled={!file || !registro || !!progress} onClick={() => void preview()}>Pré-visualizar</Button>
            <Button variant="contained" disabled={!previa || previa.invalidas > 0 || !!progress} onClick={() => void importar()}>Importar</Button>
          </Stack>
          {registros && !registros.length && <Alert severity="info">Nenhum cadastro disponível para importação com as suas permissões.</Alert>}
          {registro && (
            <Box>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                Colunas aceitas (primeira linha da planilha; * obrigatória). CSV separado por ; ou , em UTF-8, ou XLSX; até 5000 linhas.
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                {registro.colunas.map((c) => (
                  <Chip key={c.name} size="small" variant={c.required ? 'filled' : 'outlined'} label={`${c.label}${c.required ? ' *' : ''}`}
                    title={c.options ? `Valores: ${c.options.join(', ')}` : c.reference ? 'Identificador ou nome do registro' : undefined} />
                ))}
              </Stack>
            </Box>
          )}
          {progress && (
            <Box role="progressbar" aria-label={progress.stage}>
              <Typography variant="body2" sx={{ mb: 0.5 }}>{progress.stage}{progress.value !== null ? ` (${progress.value}%)` : '…'}</Typography>
              <LinearProgress variant={progress.value !== null ? 'determinate' : 'indeterminate'} value={progress.value ?? undefined} />
            </Box>
          )}
          {error && <Alert severity="error">{error}</Alert>}
          {done && <Alert severity="success">{done}</Alert>}
          {previa && (
            <>
              <Alert severity={previa.invalidas ? 'warning' : 'success'} data-testid="previa-resumo">
                {previa.total} linha(s): {previa.validas} válida(s), {previa.invalidas} com erro.
                {previa.invalidas ? ' Corrija a planilha: a importação grava todas as linhas ou nenhuma.' : ' Nada foi gravado ainda: clique em Importar.'}
              </Alert>
              <TableContainer sx={{ maxHeight: 480 }}>
                <Table size="small" stickyHeader>
                  <TableHead>
                    <TableRow>
                      <TableCell>Linha</TableCell>
                      {cols.map((c) => <TableCell key={c.name}>{c.label}</TableCell>)}
                      <TableCell>Erros</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {previa.linhas.slice(0, MAX_SHOWN).map((l) => (
                      <TableRow key={l.linha} sx={l.erros.length ? { bgcolor: 'error.50', '& td': { color: 'error.dark' } } : undefined}>
                        <TableCell>{l.linha}</TableCell>
                        {cols.map((c) => <TableCell key={c.name}>{show(l.dados[c.name])}</TableCell>)}
                        <TableCell>{l.erros.join('; ')}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              {previa.linhas.length > MAX_SHOWN && <Typography variant="body2">Mostrando as primeiras {MAX_SHOWN} linhas.</Typography>}
            </>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
