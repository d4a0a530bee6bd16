// /adm/bib/biblioteca_de_eventos[/:tecnology[/:model[/eventos|/parametros]]] (metadata/adm/biblioteca_de_eventos.yaml):
// the generated technology → model navigation (ParamLevels, known values of metadata/_tecnologias.yaml), then the
// Eventos / Parâmetros tabs over the provider biblioteca_lista (its columns and filters from its metadata).
import { useEffect } from 'react';
import { Tab, Tabs } from '@mui/material';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { RouteParamMeta } from '../../../../generator/model';
import { ParamLevels } from '../../crud/ParamIndex';
import { ProviderList, providerByKey } from '../../crud/ProviderList';
import { checkParams } from '../../crud/params';
import { UnknownParams } from '../../crud/GenericList';

const BASE = '/adm/bib/biblioteca_de_eventos';
const TITLE = 'Biblioteca de eventos';
const ABAS = [{ id: 'eventos', label: 'Eventos' }, { id: 'parametros', label: 'Parâmetros' }] as const;

export default function BibliotecaDeEventos() {
  const provider = providerByKey('biblioteca_lista')!;
  // The screen's :tecnology/:model are the provider's tecnologia/modelo (values: tecnologias, modelos).
  const params: RouteParamMeta[] = provider.params.filter((p) => p.values).map((p, i) => ({ name: ['tecnology', 'model'][i], field: p.name, label: p.label, values: p.values }));
  const { tecnology, model } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const aba = ABAS.find((a) => pathname.endsWith(`/${a.id}`));
  const chosen = [tecnology, model].filter((x): x is string => !!x);
  const { labels, error } = checkParams(params, chosen);

  // :tecnology/:model without a tab opens the events.
  useEffect(() => {
    if (model && !aba && !error) navigate(`${BASE}/${tecnology}/${model}/eventos`, { replace: true });
  }, [tecnology, model, aba, error, navigate]);

  if (error) return <UnknownParams message={error} />;
  if (chosen.length < params.length) return <ParamLevels title={TITLE} base={BASE} params={params} level={chosen.length} />;
  if (!aba) return null;
  return (
    <ProviderList
      key={`${tecnology}/${model}/${aba.id}`}
      provider={provider}
      title={[TITLE, ...labels].join(': ')}
      route={`${BASE}/${aba.id}`}
      params={{ tecnologia: tecnology!, modelo: model!, lista: aba.id }}
      toolbar={
        <Tabs value={aba.id} onChange={(_, v: string) => navigate(`${BASE}/${tecnology}/${model}/${v}`)} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }} aria-label="Biblioteca">
          {ABAS.map((a) => <Tab key={a.id} value={a.id} label={a.label} />)}
        </Tabs>
      }
    />
  );
}
