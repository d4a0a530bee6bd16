// /tlm/cfg/biblioteca[/biblioteca_do_evento|/biblioteca_de_periferico|/biblioteca_de_parametros] (metadata/tlm/biblioteca.yaml):
// the event, peripheral (CAN, camera) and parameter libraries of every family, one tab each; the URL follows the tab.
// Lists: GET /api/biblioteca/familia/{eventos|perifericos|parametros} (read-only catalogues of metadata/catalogos).
import { useEffect } from 'react';
import { Alert, Card, Divider, Tab, Tabs } from '@mui/material';
import { Title, useGetList } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { Loading } from '../../crud/Loading';
import { PanelHeader } from '../../crud/PanelHeader';
import { BibliotecaList } from './BibliotecaList';
import type { Familia } from './types';

export const BASE = '/tlm/cfg/biblioteca';
const TITLE = 'Biblioteca';

/** Tabs: route segment → family of GET /api/biblioteca/familia/{familia}. */
export const ABAS = [
  { id: 'biblioteca_do_evento', familia: 'eventos', label: 'Biblioteca do evento' },
  { id: 'biblioteca_de_periferico', familia: 'perifericos', label: 'Biblioteca de periférico' },
  { id: 'biblioteca_de_parametros', familia: 'parametros', label: 'Biblioteca de parâmetros' },
] as const;

export default function Biblioteca() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const aba = ABAS.find((a) => pathname.endsWith(`/${a.id}`));
  const { data, isPending, error } = useGetList<Familia>('biblioteca/familias', { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'ASC' } });

  useEffect(() => {
    if (!aba) navigate(`${BASE}/${ABAS[0].id}`, { replace: true });
  }, [aba, navigate]);

  const info = data?.find((f) => f.id === aba?.familia);
  return (
    <Card className="rastro-list">
      <Title title={TITLE} />
      <PanelHeader title={TITLE} onBack={() => navigate(-1)} />
      <Divider />
      <Tabs value={aba?.id ?? false} onChange={(_, v: string) => navigate(`${BASE}/${v}`)} sx={{ px: 2 }} aria-label="Biblioteca">
        {ABAS.map((a) => {
          const n = data?.find((f) => f.id === a.familia)?.total;
          return <Tab key={a.id} value={a.id} label={n === undefined ? a.label : `${a.label} (${n})`} />;
        })}
      </Tabs>
      <Divider />
      {isPending ? <Loading />
        : error ? <Alert severity="error" sx={{ m: 2 }}>{(error as Error).message || 'Erro ao carregar as bibliotecas'}</Alert>
        : aba && info ? <BibliotecaList key={aba.id} resource={`biblioteca/familia/${aba.familia}`} info={info} title={aba.label} />
        : null}
    </Card>
  );
}
