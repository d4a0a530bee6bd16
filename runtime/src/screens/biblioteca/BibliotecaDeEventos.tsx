// /adm/bib/biblioteca_de_eventos[/:tecnology[/:model[/eventos|/parametros]]] (metadata/adm/biblioteca_de_eventos.yaml):
// choose a technology, then a model, then the Eventos / Parâmetros tab; the URL follows every choice.
// Lists: GET /api/biblioteca/{tecnologia}/{modelo}/eventos|parametros (read-only catalogues of metadata/catalogos).
import { useEffect } from 'react';
import { Alert, Box, Card, Divider, MenuItem, Tab, Tabs, TextField, Typography } from '@mui/material';
import { Title, useGetList } from 'react-admin';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { Loading } from '../../crud/Loading';
import { PanelHeader } from '../../crud/PanelHeader';
import { BibliotecaList } from './BibliotecaList';
import type { Tecnologia } from './types';

export const BASE = '/adm/bib/biblioteca_de_eventos';
const TITLE = 'Biblioteca de eventos';
type Aba = 'eventos' | 'parametros';

export default function BibliotecaDeEventos() {
  const { tecnology, model } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const aba: Aba | null = pathname.endsWith('/parametros') ? 'parametros' : pathname.endsWith('/eventos') ? 'eventos' : null;
  const { data, isPending, error } = useGetList<Tecnologia>('biblioteca/tecnologias', { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'ASC' } });
  const tecnologias = data ?? [];
  const tec = tecnologias.find((t) => t.id === tecnology);
  const modelo = tec?.modelos.find((m) => m.id === model);

  // :tecnology with a single model, and :tecnology/:model without a tab, go on to the events tab.
  useEffect(() => {
    if (!tec) return;
    if (!model && tec.modelos.length === 1) navigate(`${BASE}/${tec.id}/${tec.modelos[0]!.id}/eventos`, { replace: true });
    else if (modelo && !aba) navigate(`${BASE}/${tec.id}/${modelo.id}/eventos`, { replace: true });
  }, [tec, model, modelo, aba, navigate]);

  const info = tec && aba ? tec.listas[aba] : null;
  let body;
  if (isPending) body = <Loading />;
  else if (error) body = <Alert severity="error" sx={{ m: 2 }}>{(error as Error).message || 'Erro ao carregar as tecnologias'}</Alert>;
  else if (tecnology && !tec) body = <Alert severity="warning" sx={{ m: 2 }}>Tecnologia desconhecida: {tecnology}</Alert>;
  else if (tec && model && !modelo) body = <Alert severity="warning" sx={{ m: 2 }}>Modelo desconhecido para a tecnologia {tec.label}: {model}</Alert>;
  else if (!tec || !modelo) {
    body = (
      <Box sx={{ p: 3 }}>
        <Typography color="text.secondary">{tec ? 'Selecione o modelo.' : 'Selecione a tecnologia e o modelo do equipamento.'}</Typography>
      </Box>
    );
  } else if (aba) {
    body = (
      <>
        <Tabs value={aba} onChange={(_, v: Aba) => navigate(`${BASE}/${tec.id}/${modelo.id}/${v}`)} sx={{ px: 2 }} aria-label="Biblioteca">
          <Tab value="eventos" label={`Eventos${tec.listas.eventos ? ` (${tec.listas.eventos.total})` : ''}`} disabled={!tec.listas.eventos} />
          <Tab value="parametros" label={`Parâmetros${tec.listas.parametros ? ` (${tec.listas.parametros.total})` : ''}`} disabled={!tec.listas.parametros} />
        </Tabs>
        <Divider />
        {info ? (
          <BibliotecaList key={`${tec.id}/${modelo.id}/${aba}`} resource={`biblioteca/${tec.id}/${modelo.id}/${aba}`} info={info} title={aba === 'eventos' ? 'Eventos' : 'Parâmetros'} />
        ) : (
          <Alert severity="info" sx={{ m: 2 }}>Esta tecnologia não tem biblioteca de {aba === 'eventos' ? 'eventos' : 'parâmetros'}.</Alert>
        )}
      </>
    );
  }

  return (
    <Card className="rastro-list">
      <Title title={TITLE} />
      <PanelHeader title={TITLE} onBack={() => navigate(-1)}>
        <TextField
          select size="small" label="Tecnologia" value={tec?.id ?? ''} sx={{ minWidth: 220 }}
          onChange={(e) => navigate(`${BASE}/${e.target.value}`)}
        >
          {tecnologias.map((t) => <MenuItem key={t.id} value={t.id}>{t.label}</MenuItem>)}
        </TextField>
        <TextField
          select size="small" label="Modelo" value={modelo?.id ?? ''} sx={{ minWidth: 180 }} disabled={!tec}
          onChange={(e) => navigate(`${BASE}/${tec!.id}/${e.target.value}/${aba ?? 'eventos'}`)}
        >
          {(tec?.modelos ?? []).map((m) => <MenuItem key={m.id} value={m.id}>{m.label}</MenuItem>)}
        </TextField>
      </PanelHeader>
      <Divider />
      {body}
    </Card>
  );
}
