// Relatórios (/rel/rel/relatorios): the index lists the report families the user's keys allow (GET /api/relatorios)
// and the user's favourites; /rel/rel/relatorios/{familia} opens one: its kinds, the parameter form (the kind's JSON
// Schema with the date picker and the register pickers), the result as a paged, sortable table (paged and sorted in
// SQL), the column chooser (the allowed columns), the exports (XLSX, CSV, PDF) and 'Salvar favorito'.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  Alert, Box, Button, Card, CardActionArea, CardContent, Checkbox, Chip, CircularProgress, Dialog, DialogActions, DialogContent,
  DialogTitle, Divider, IconButton, List, ListItem, ListItemButton, ListItemIcon, ListItemText, Menu, MenuItem, Paper, Stack, Tab,
  Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, TableSortLabel, Tabs, TextField, Tooltip, Typography,
} from '@mui/material';
import AssessmentIcon from '@mui/icons-material/Assessment';
import DeleteIcon from '@mui/icons-material/Delete';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Form from '@rjsf/mui';
import type { FieldProps, ObjectFieldTemplateProps, UiSchema } from '@rjsf/utils';
import { useNotify, Title } from 'react-admin';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call, httpClient } from '../../../runtime/src/api/http';
import { validator } from '../../../runtime/src/crud/lib/validator';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { fields as coreFields, widgets } from '../../../runtime/src/crud/forms/widgets';
import { DateRangeFilter, isoDay, shortcuts, type DateRange } from '../../../runtime/src/crud/widgets/DateRangeFilter';
import { PanelHeader } from '../../../runtime/src/crud/widgets/PanelHeader';
import { downloadFile } from '../../../runtime/src/crud/lists/ListTools';
import type { FieldMeta } from '../../../shared/model';
import { REPORTS_ROUTE, type ReportColumnMeta, type ReportParamMeta } from '../../../shared/relatorio';
import { cellText, columnTitle } from '../../../shared/relatorio-format';

interface Kind { key: string; label: string; help: string | null; params: ReportParamMeta[]; columns: ReportColumnMeta[]; sort: { field: string; order: 'ASC' | 'DESC' }; schema: Record<string, unknown> }
interface Family { key: string; label: string; help: string | null; route: string; permission: string; tipos: Kind[] }
interface Favorito { id: number; nome: string; familia: string; tipo: string; parametros: Record<string, unknown>; colunas: string[] }
type Params = Record<string, unknown>;

const FUSO = Intl.DateTimeFormat().resolvedOptions().timeZone || 'America/Sao_Paulo';
const PAGE_ARIA = { first: 'Ir para a primeira página', last: 'Ir para a última página', next: 'Ir para a próxima página', previous: 'Ir para a página anterior' } as const;
const PAGE_SIZES = [25, 50, 100, 250, 500, 1000];
const FAV = 'rel.rel.relatorios.favorites';
const enc = (o: unknown) => encodeURIComponent(JSON.stringify(o));

function useFamilies() {
  return useQuery({ queryKey: ['relatorios'], queryFn: () => call<Family[]>('/relatorios'), staleTime: 60_000 });
}

// ---------- parameters form ----------

const toRange = (v: { inicio?: string; fim?: string } | undefined): DateRange | null =>
  v?.inicio && v?.fim ? { from: isoDay(new Date(v.inicio)), to: isoDay(new Date(v.fim)) } : null;
const fromRange = (r: DateRange) => ({ inicio: new Date(`${r.from}T00:00:00`).toISOString(), fim: new Date(`${r.to}T23:59:59.999`).toISOString() });

/** The period: the core date picker (shortcuts Hoje … Último semestre), a whole-day range in local time. */
function PeriodoField(props: FieldProps) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>{props.schema.title ?? 'Período'} *</Typography>
      <DateRangeFilter value={toRange(props.formData)} onChange={(r) => props.onChange(r ? fromRange(r) : undefined, props.fieldPathId.path)} />
    </Box>
  );
}

function GridTemplate(props: ObjectFieldTemplateProps) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', alignItems: 'start' }}>
      {props.properties.map((p) => <Box key={p.name}>{p.content}</Box>)}
    </Box>
  );
}

const fieldMeta = (p: ReportParamMeta): FieldMeta => ({
  name: p.name, column: p.name, type: 'referenceList', reference: p.reference, label: p.label, required: p.required, unique: false,
  upperCase: false, readOnly: false, hidden: false, writeOnly: false, system: false,
} as FieldMeta);

function ParamsForm({ kind, value, onChange, onSubmit, children }: { kind: Kind; value: Params; onChange: (v: Params) => void; onSubmit: () => void; children: ReactNode }) {
  const uiSchema = useMemo<UiSchema>(() => {
    const ui: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
    for (const p of kind.params) {
      if (p.type === 'periodo') ui[p.name] = { 'ui:field': 'periodo' };
      else if (p.type === 'registros') ui[p.name] = { 'ui:widget': 'referenceList' };
    }
    return ui;
  }, [kind]);
  const formContext = useMemo(() => ({ fields: new Map(kind.params.filter((p) => p.reference).map((p) => [p.name, fieldMeta(p)])), data: value }), [kind, value]);
  return (
    <Form
      schema={kind.schema as any}
      uiSchema={uiSchema}
      formData={value}
      validator={validator}
      noValidate
      noHtml5Validate
      showErrorList={false}
      formContext={formContext}
      widgets={widgets}
      fields={{ ...coreFields, periodo: PeriodoField }}
      templates={{ ObjectFieldTemplate: GridTemplate }}
      onChange={(e) => onChange(e.formData ?? {})}
      onSubmit={onSubmit}
    >
      {children}
    </Form>
  );
}

// ---------- result table ----------

interface Run { tipo: string; params: Params; colunas: string[]; sort: { field: string; order: 'ASC' | 'DESC' }; page: number; perPage: number }

function query(run: Run, extra: Record<string, string> = {}): string {
  return new URLSearchParams({ params: JSON.stringify(run.params), colunas: JSON.stringify(run.colunas), sort: JSON.stringify([run.sort.field, run.sort.order]), fuso: FUSO, ...extra }).toString();
}

function ResultTable({ family, kind, run, setRun }: { family: Family; kind: Kind; run: Run; setRun: (r: Run) => void }) {
  const { data, isFetching, error } = useQuery({
    queryKey: ['relatorio', family.key, run],
    queryFn: async () => {
      const from = run.page * run.perPage;
      const r = await httpClient(`/api/relatorios/${family.key}/${run.tipo}?${query(run, { range: JSON.stringify([from, from + run.perPage - 1]) })}`);
      const total = Number(/\/(\d+)$/.exec(r.headers.get('Content-Range') ?? '')?.[1] ?? 0);
      return { rows: r.json as Record<string, unknown>[], total };
    },
    placeholderData: (prev) => prev,
  });
  const cols = run.colunas.map((n) => kind.columns.find((c) => c.name === n)!).filter(Boolean);
  const right = (c: ReportColumnMeta) => ['integer', 'number', 'duration'].includes(c.type);
  if (error) return <Alert severity="error" sx={{ m: 2 }}>{(error as Error).message}</Alert>;
  return (
    <>
      <TableContainer sx={{ maxHeight: '60vh' }}>
        <Table size="small" stickyHeader aria-label={`Resultado: ${kind.label}`}>
          <TableHead>
            <TableRow>
              {cols.map((c) => (
                <TableCell key={c.name} align={right(c) ? 'right' : 'left'} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                  sortDirection={run.sort.field === c.name ? (run.sort.order === 'ASC' ? 'asc' : 'desc') : false}>
                  {c.sortable ? (
                    <TableSortLabel active={run.sort.field === c.name} direction={run.sort.field === c.name && run.sort.order === 'DESC' ? 'desc' : 'asc'}
                      onClick={() => setRun({ ...run, page: 0, sort: { field: c.name, order: run.sort.field === c.name && run.sort.order === 'ASC' ? 'DESC' : 'ASC' } })}>
                      {columnTitle(c)}
                    </TableSortLabel>
                  ) : columnTitle(c)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.rows.map((r, i) => (
              <TableRow key={String(r.id ?? i)} hover>
                {cols.map((c) => <TableCell key={c.name} align={right(c) ? 'right' : 'left'} sx={{ whiteSpace: 'nowrap' }}>{cellText(c, r[c.name], { timeZone: FUSO })}</TableCell>)}
              </TableRow>
            ))}
            {data && !data.rows.length && (
              <TableRow><TableCell colSpan={cols.length} align="center" sx={{ py: 4, color: 'text.secondary' }}>Nenhum item foi encontrado</TableCell></TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {!data && isFetching && <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}><CircularProgress size={28} /></Box>}
      <TablePagination component="div" count={data?.total ?? 0} page={run.page} rowsPerPage={run.perPage} rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_, page) => setRun({ ...run, page })} onRowsPerPageChange={(e) => setRun({ ...run, page: 0, perPage: Number(e.target.value) })}
        labelRowsPerPage="Linhas por página" labelDisplayedRows={({ from, to, count }) => `${from}–${to} de ${count.toLocaleString('pt-BR')}`}
        getItemAriaLabel={(type) => PAGE_ARIA[type]} />
    </>
  );
}

// ---------- tools: columns, export, favourite ----------

function ColumnChooser({ kind, value, onChange }: { kind: Kind; value: string[]; onChange: (v: string[]) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const toggle = (n: string) => {
    if (value.includes(n)) { if (value.length > 1) onChange(value.filter((x) => x !== n)); } // at least one stays
    else onChange(kind.columns.map((c) => c.name).filter((x) => x === n || value.includes(x)));
  };
  return (
    <>
      <Tooltip title="Selecionar Colunas"><IconButton aria-label="Selecionar Colunas" onClick={(e) => setAnchor(e.currentTarget)}><ViewColumnIcon /></IconButton></Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <Typography variant="subtitle2" sx={{ px: 2, py: 1 }}>Selecionar Colunas</Typography>
        <Divider />
        {kind.columns.map((c) => (
          <MenuItem key={c.name} dense onClick={() => toggle(c.name)}>
            <Checkbox size="small" checked={value.includes(c.name)} sx={{ p: 0.5, mr: 1 }} />
            <ListItemText primary={columnTitle(c)} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

function ExportMenu({ onExport, onSpool }: { onExport: (f: 'xlsx' | 'csv' | 'pdf') => void; onSpool?: (f: 'xlsx' | 'csv' | 'pdf') => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const item = (f: 'xlsx' | 'csv' | 'pdf', label: string) => <MenuItem onClick={() => { setAnchor(null); onExport(f); }}><ListItemText primary={label} /></MenuItem>;
  const spool = (f: 'xlsx' | 'csv' | 'pdf', label: string) => <MenuItem onClick={() => { setAnchor(null); onSpool!(f); }}><ListItemText primary={label} /></MenuItem>;
  return (
    <>
      <Tooltip title="Exportar Tabela"><IconButton aria-label="Exportar Tabela" onClick={(e) => setAnchor(e.currentTarget)}><FileDownloadIcon /></IconButton></Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <Typography variant="subtitle2" sx={{ px: 2, py: 1 }}>Exportar Tabela</Typography>
        <Divider />
        {item('xlsx', 'Excel (XLSX)')}{item('csv', 'CSV')}{item('pdf', 'PDF')}
        {onSpool && <Divider />}
        {onSpool && <Typography variant="subtitle2" sx={{ px: 2, py: 1 }}>Gerar em segundo plano</Typography>}
        {onSpool && spool('xlsx', 'Relatórios gerados: XLSX')}{onSpool && spool('csv', 'Relatórios gerados: CSV')}{onSpool && spool('pdf', 'Relatórios gerados: PDF')}
      </Menu>
    </>
  );
}

function SaveFavorite({ family, run }: { family: Family; run: Run }) {
  const [open, setOpen] = useState(false);
  const [nome, setNome] = useState('');
  const [error, setError] = useState('');
  const notify = useNotify();
  const qc = useQueryClient();
  const save = async () => {
    if (!nome.trim()) { setError('O campo Nome é obrigatório'); return; }
    try {
      await httpClient('/api/relatorio_favorito', { method: 'POST', body: JSON.stringify({ nome: nome.trim(), familia: family.key, tipo: run.tipo, parametros: run.params, colunas: run.colunas }) });
      notify('Favorito salvo', { type: 'success' });
      void qc.invalidateQueries({ queryKey: ['relatorio_favorito'] });
      setOpen(false);
    } catch (e) { setError((e as Error).message); }
  };
  return (
    <>
      <Button startIcon={<StarBorderIcon />} onClick={() => { setNome(''); setError(''); setOpen(true); }}>Salvar favorito</Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="xs" fullWidth>
        <DialogTitle>Salvar favorito</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>O relatório, os parâmetros e as colunas escolhidas ficam salvos para você abrir depois.</Typography>
          <TextField autoFocus fullWidth label="Nome" required value={nome} onChange={(e) => setNome(e.target.value)} error={!!error} helperText={error || undefined}
            onKeyDown={(e) => { if (e.key === 'Enter') void save(); }} />
        </DialogContent>
        <DialogActions><Button onClick={() => setOpen(false)}>Fechar</Button><Button variant="contained" onClick={() => void save()}>Salvar</Button></DialogActions>
      </Dialog>
    </>
  );
}

// ---------- pages ----------

const defaultParams = (): Params => {
  const r = shortcuts.find((s) => s.label === 'Últimos 7 dias')!.range();
  return { periodo: fromRange(r) };
};
const defaultColumns = (k: Kind) => k.columns.filter((c) => c.default).map((c) => c.name);
/** Keeps the values the new kind also takes. */
const paramsFor = (k: Kind, p: Params) => Object.fromEntries(Object.entries(p).filter(([n]) => k.params.some((x) => x.name === n)));

function FamilyPage({ family }: { family: Family }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const { can } = useCan();
  const [search, setSearch] = useSearchParams();
  const [tipo, setTipo] = useState(family.tipos[0].key);
  const kind = family.tipos.find((t) => t.key === tipo) ?? family.tipos[0];
  const [params, setParams] = useState<Params>(defaultParams);
  const [colunas, setColunas] = useState<string[]>(defaultColumns(kind));
  const [run, setRun] = useState<Run | null>(null);
  const [problem, setProblem] = useState('');

  // a favourite opened from the index: its kind, parameters and columns, run at once
  const favId = search.get('favorito');
  useEffect(() => {
    if (!favId) return;
    call<Favorito>(`/relatorio_favorito/${favId}`).then((f) => {
      const k = family.tipos.find((t) => t.key === f.tipo);
      if (!k) return;
      const cols = f.colunas.filter((n) => k.columns.some((c) => c.name === n));
      setTipo(k.key); setParams(f.parametros); setColunas(cols);
      setRun({ tipo: k.key, params: f.parametros, colunas: cols, sort: k.sort, page: 0, perPage: 25 });
      setSearch({}, { replace: true });
    }, (e: Error) => setProblem(e.message));
  }, [favId]); // eslint-disable-line react-hooks/exhaustive-deps

  const changeKind = (k: Kind) => { setTipo(k.key); setParams((p) => paramsFor(k, p)); setColunas(defaultColumns(k)); setRun(null); };
  const submit = () => {
    const per = params.periodo as { inicio?: string } | undefined;
    if (!per?.inicio) { setProblem('O campo Período é obrigatório'); return; }
    setProblem('');
    setRun({ tipo: kind.key, params, colunas, sort: run?.tipo === kind.key ? run.sort : kind.sort, page: 0, perPage: run?.perPage ?? 25 });
  };
  const changeColumns = (c: string[]) => { setColunas(c); if (run) setRun({ ...run, colunas: c }); };
  const exportAs = (f: 'xlsx' | 'csv' | 'pdf') => {
    if (!run) return;
    downloadFile(`/api/relatorios/${family.key}/${run.tipo}/exporta?${query(run, { formato: f })}`, `relatorio_${family.key}_${run.tipo}.${f}`)
      .catch((e: Error) => notify(e.message, { type: 'error' }));
  };
  // the report generated by a background job into Relatórios gerados (the spool), where it is downloaded and shared
  const spoolAs = (f: 'xlsx' | 'csv' | 'pdf') => {
    if (!run) return;
    httpClient('/api/tarefa/inicia/relatorio_gera', { method: 'POST', body: JSON.stringify({ familia: family.key, tipo: run.tipo, params: run.params, colunas: run.colunas, sort: run.sort, fuso: FUSO, formato: f }) })
      .then(() => notify('Relatório enviado para geração. Ele aparecerá em Relatórios gerados.', { type: 'success' }), (e: Error) => notify(e.message, { type: 'error' }));
  };
  return (
    <Paper sx={{ m: 2 }}>
      <PanelHeader title={`Relatório de ${family.label}`} onBack={() => navigate(REPORTS_ROUTE)} />
      <Tabs value={kind.key} onChange={(_, v) => changeKind(family.tipos.find((t) => t.key === v)!)} variant="scrollable" sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
        {family.tipos.map((t) => <Tab key={t.key} value={t.key} label={t.label} />)}
      </Tabs>
      <Box sx={{ p: 2 }}>
        {kind.help && <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>{kind.help}</Typography>}
        <ParamsForm kind={kind} value={params} onChange={setParams} onSubmit={submit}>
          <Stack direction="row" spacing={1} sx={{ mt: 2 }} alignItems="center">
            <Button type="submit" variant="contained" startIcon={<PlayArrowIcon />}>Gerar relatório</Button>
            {problem && <Alert severity="warning" sx={{ py: 0 }}>{problem}</Alert>}
          </Stack>
        </ParamsForm>
      </Box>
      {run && (
        <>
          <Divider />
          <Stack direction="row" alignItems="center" sx={{ px: 2, py: 1 }} spacing={1}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>{family.tipos.find((t) => t.key === run.tipo)?.label}</Typography>
            {can(`${FAV}.adicionar`) && <SaveFavorite family={family} run={run} />}
            <ColumnChooser kind={kind} value={colunas} onChange={changeColumns} />
            <ExportMenu onExport={exportAs} onSpool={can('rel.rel.relatorios.gerados.lista') ? spoolAs : undefined} />
          </Stack>
          {/* a grid track of minmax(0, 1fr): a wide table scrolls inside instead of widening the page */}
          <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' }}>
            <ResultTable family={family} kind={family.tipos.find((t) => t.key === run.tipo)!} run={run} setRun={setRun} />
          </Box>
        </>
      )}
    </Paper>
  );
}

function Favoritos({ families }: { families: Family[] }) {
  const { can } = useCan();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { data = [] } = useQuery({ queryKey: ['relatorio_favorito'], queryFn: () => call<Favorito[]>(`/relatorio_favorito?sort=${enc(['nome', 'ASC'])}&range=${enc([0, 99])}`), enabled: can(`${FAV}.lista`) });
  if (!can(`${FAV}.lista`)) return null;
  const mine = data.filter((f) => families.some((x) => x.key === f.familia));
  const remove = async (id: number) => {
    await httpClient(`/api/relatorio_favorito/${id}`, { method: 'DELETE' });
    void qc.invalidateQueries({ queryKey: ['relatorio_favorito'] });
  };
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>Favoritos</Typography>
      {!mine.length ? <Typography variant="body2" color="text.secondary">Nenhum favorito salvo: gere um relatório e use 'Salvar favorito'.</Typography> : (
        <Paper variant="outlined">
          <List dense disablePadding>
            {mine.map((f) => {
              const fam = families.find((x) => x.key === f.familia)!;
              return (
                <ListItem key={f.id} disablePadding divider
                  secondaryAction={can(`${FAV}.excluir`) && <IconButton edge="end" aria-label={`Excluir ${f.nome}`} onClick={() => void remove(f.id)}><DeleteIcon fontSize="small" /></IconButton>}>
                  <ListItemButton onClick={() => navigate(`${fam.route}?favorito=${f.id}`)}>
                    <ListItemIcon sx={{ minWidth: 36 }}><StarIcon fontSize="small" color="warning" /></ListItemIcon>
                    <ListItemText primary={f.nome} secondary={`${fam.label} — ${fam.tipos.find((t) => t.key === f.tipo)?.label ?? f.tipo}`} />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        </Paper>
      )}
    </Box>
  );
}

function Index({ families }: { families: Family[] }) {
  const navigate = useNavigate();
  return (
    <Paper sx={{ m: 2 }}>
      <PanelHeader title="Relatórios" />
      <Box sx={{ px: 2, pb: 3 }}>
        {!families.length ? <Alert severity="info">Nenhum relatório disponível para o seu usuário.</Alert> : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }}>
            {families.map((f) => (
              <Card key={f.key} variant="outlined">
                <CardActionArea onClick={() => navigate(f.route)} aria-label={`Relatório de ${f.label}`}>
                  <CardContent>
                    <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
                      <AssessmentIcon color="primary" />
                      <Typography variant="h6">{f.label}</Typography>
                    </Stack>
                    {f.help && <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>{f.help}</Typography>}
                    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
                      {f.tipos.map((t) => <Chip key={t.key} size="small" label={t.label} />)}
                    </Stack>
                  </CardContent>
                </CardActionArea>
              </Card>
            ))}
          </Box>
        )}
        <Favoritos families={families} />
      </Box>
    </Paper>
  );
}

// the app bar names the section; a report's page heading names the report
export default function Relatorios() {
  return <><Title title="Relatórios" /><Pagina /></>;
}

function Pagina() {
  const { pathname } = useLocation();
  const { data, error, isPending } = useFamilies();
  if (isPending) return <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}><CircularProgress /></Box>;
  if (error) return <Alert severity="error" sx={{ m: 2 }}>{(error as Error).message}</Alert>;
  const key = pathname.replace(/\/+$/, '').slice(REPORTS_ROUTE.length + 1);
  if (!key) return <Index families={data} />;
  const family = data.find((f) => f.key === key);
  if (!family) return <Alert severity="warning" sx={{ m: 2 }}>Relatório não disponível para o seu usuário.</Alert>;
  return <FamilyPage key={family.key} family={family} />;
}
