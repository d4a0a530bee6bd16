// /tlm/ras/registros (metadata/tlm/registros.yaml): the positions received from the devices (provider posicao,
// GET /api/rastreamento/registros): paged, searched by serial/plate/asset, filtered by period, exported.
import { Alert } from '@mui/material';
import { ProviderList, providerByKey } from '../../crud/ProviderList';

export default function Registros() {
  const provider = providerByKey('posicao');
  if (!provider) return <Alert severity="error">Lista de registros indisponível</Alert>;
  return <ProviderList provider={provider} title="Registros" route="/tlm/ras/registros" />;
}
