// /tlm/cfg/biblioteca[/biblioteca_do_evento|/biblioteca_de_periferico|/biblioteca_de_parametros] (metadata/tlm/biblioteca.yaml):
// the event, peripheral (CAN, camera) and parameter libraries of every family, one tab each; the URL follows the tab.
// Lists: the provider biblioteca_familia (its columns and filters from its metadata) with {familia}.
import { useEffect } from 'react';
import { Tab, Tabs } from '@mui/material';
import { useLocation, useNavigate } from 'react-router-dom';
import { ProviderList, providerByKey } from '../../crud/ProviderList';

export const BASE = '/tlm/cfg/biblioteca';

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

  useEffect(() => {
    if (!aba) navigate(`${BASE}/${ABAS[0].id}`, { replace: true });
  }, [aba, navigate]);

  if (!aba) return null;
  return (
    <ProviderList
      key={aba.id}
      provider={providerByKey('biblioteca_familia')!}
      title="Biblioteca"
      route={`${BASE}/${aba.id}`}
      params={{ familia: aba.familia }}
      toolbar={
        <Tabs value={aba.id} onChange={(_, v: string) => navigate(`${BASE}/${v}`)} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }} aria-label="Biblioteca">
          {ABAS.map((a) => <Tab key={a.id} value={a.id} label={a.label} />)}
        </Tabs>
      }
    />
  );
}
