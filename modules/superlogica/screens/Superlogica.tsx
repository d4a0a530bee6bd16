// Superlógica (/adm/sis/integracao/superlogica, platform administrators): the credentials' state, then one tab per list
// of the billing calls — clients (paged by the path), charges by situation, defaulters, paid-up clients — each paged
// with Anterior/Próxima (Superlógica answers pages without a total).
import { useEffect, useState } from 'react';
import {
  Alert, Box, Button, Card, CardContent, Chip, LinearProgress, Link, MenuItem, Stack, Tab, Table, TableBody, TableCell, TableHead,
  TableRow, Tabs, TextField, Typography,
} from '@mui/material';
import { Title } from 'react-admin';
import { call } from '../../../runtime/src/api/http';

type Row = Record<string, any>;
interface Col { name: string; label: string; kind?: 'money' | 'date' | 'bool' | 'link' }

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const cell = (c: Col, v: unknown) => {
  if (v === null || v === undefined || v === '') return '';
  if (c.kind === 'money') return brl.format(Number(v));
  if (c.kind === 'date') { const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(v)); return m ? `${m[3]}/${m[2]}/${m[1]}` : String(v); }
  if (c.kind === 'bool') return v ? 'Sim' : 'Não';
  if (c.kind === 'link') return <Link href={String(v)} target="_blank" rel="noopener noreferrer">Abrir</Link>;
  return String(v);
};

const CLIENTE: Col[] = [{ name: 'id', label: 'Identificador' }, { name: 'nome', label: 'Nome' }, { name: 'documento', label: 'CPF/CNPJ' },
  { name: 'email', label: 'E-mail' }, { name: 'cidade', label: 'Cidade' }, { name: 'uf', label: 'UF' }, { name: 'ativo', label: 'Ativo', kind: 'bool' }];
const TABS: { label: string; path: (p: number, n: number, status: string) => string; cols: Col[]; status?: boolean }[] = [
  { label: 'Clientes', path: (p, n) => `/wkd/adm/superlogica/clientes/${p}/${n}`, cols: CLIENTE },
  {
    label: 'Cobranças', status: true, path: (p, n, st) => `/wkd/adm/superlogica/cobrancas?status=${st}&pagina=${p}&itensPorPagina=${n}`,
    cols: [{ name: 'id', label: 'Identificador' }, { name: 'cliente', label: 'Cliente' }, { name: 'valor', label: 'Valor', kind: 'money' },
      { name: 'vencimento', label: 'Vencimento', kind: 'date' }, { name: 'liquidacao', label: 'Liquidação', kind: 'date' }, { name: 'situacao', label: 'Situação' },
      { name: 'link', label: 'Segunda via', kind: 'link' }],
  },
  {
    label: 'Inadimplentes', path: (p, n) => `/wkd/adm/superlogica/inadimplentes?pagina=${p}&itensPorPagina=${n}`,
    cols: [{ name: 'clienteId', label: 'Identificador' }, { name: 'cliente', label: 'Cliente' }, { name: 'documento', label: 'CPF/CNPJ' },
      { name: 'cobrancas', label: 'Cobranças vencidas' }, { name: 'valorDevido', label: 'Valor devido', kind: 'money' },
      { name: 'vencimentoMaisAntigo', label: 'Vencimento mais antigo', kind: 'date' }],
  },
  { label: 'Adimplentes', path: (p, n) => `/wkd/adm/superlogica/adimplentes?pagina=${p}&itensPorPagina=${n}`, cols: CLIENTE },
];
const STATUS = [['pendentes', 'Pendentes'], ['liquidadas', 'Liquidadas'], ['canceladas', 'Canceladas'], ['todos', 'Todas']];

export default function SuperlogicaScreen() {
  const [token, setToken] = useState<{ configurado: boolean; valido: boolean; mensagem: string }>();
  const [tab, setTab] = useState(0);
  const [pagina, setPagina] = useState(1);
  const [itens, setItens] = useState(25);
  const [status, setStatus] = useState('pendentes');
  const [rows, setRows] = useState<Row[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => { call('/wkd/adm/superlogica/token').then(setToken, (e: Error) => setError(e.message)); }, []);
  const t = TABS[tab];
  useEffect(() => {
    if (!token?.valido) return;
    let live = true;
    setBusy(true); setError(undefined);
    call<Row[]>(t.path(pagina, itens, status)).then((r) => { if (live) setRows(r); }, (e: Error) => { if (live) { setRows([]); setError(e.message); } })
      .finally(() => { if (live) setBusy(false); });
    return () => { live = false; };
  }, [token, tab, pagina, itens, status]);
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Superlógica" />
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <Stack direction="row" spacing={2} alignItems="center">
            <Typography variant="h6">Cobrança da plataforma</Typography>
            {token && <Chip data-testid="superlogica-token" color={token.valido ? 'success' : 'warning'} label={token.valido ? 'Conectado' : token.configurado ? 'Credenciais recusadas' : 'Não configurado'} />}
          </Stack>
          {token && !token.valido && <Alert severity="warning" sx={{ mt: 2 }}>{token.mensagem}</Alert>}
        </CardContent>
      </Card>
      {token?.valido && (
        <Card variant="outlined">
          <Tabs value={tab} onChange={(_, v) => { setTab(v); setPagina(1); }}>{TABS.map((x) => <Tab key={x.label} label={x.label} />)}</Tabs>
          <CardContent>
            <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2 }}>
              {t.status && (
                <TextField select size="small" label="Situação" value={status} onChange={(e) => { setStatus(e.target.value); setPagina(1); }} sx={{ minWidth: 160 }}>
                  {STATUS.map(([v, l]) => <MenuItem key={v} value={v}>{l}</MenuItem>)}
                </TextField>
              )}
              <TextField select size="small" label="Itens por página" value={itens} onChange={(e) => { setItens(Number(e.target.value)); setPagina(1); }} sx={{ minWidth: 140 }}>
                {[10, 25, 50, 100, 200].map((v) => <MenuItem key={v} value={v}>{v}</MenuItem>)}
              </TextField>
              <Button disabled={pagina <= 1 || busy} onClick={() => setPagina(pagina - 1)}>Anterior</Button>
              <Typography>Página {pagina}</Typography>
              <Button disabled={busy || (rows?.length ?? 0) < itens} onClick={() => setPagina(pagina + 1)}>Próxima</Button>
            </Stack>
            {busy && <LinearProgress />}
            {error && <Alert severity="error">{error}</Alert>}
            <Table size="small" data-testid="superlogica-tabela">
              <TableHead><TableRow>{t.cols.map((c) => <TableCell key={c.name}>{c.label}</TableCell>)}</TableRow></TableHead>
              <TableBody>
                {rows?.map((r, i) => <TableRow key={i}>{t.cols.map((c) => <TableCell key={c.name}>{cell(c, r[c.name])}</TableCell>)}</TableRow>)}
                {rows && !rows.length && !busy && <TableRow><TableCell colSpan={t.cols.length}>Nenhum registro nesta página</TableCell></TableRow>}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
