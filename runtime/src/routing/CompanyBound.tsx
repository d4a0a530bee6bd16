// Routes naming a company (:companyId, e.g. /tlm/cee/prestadoras/:companyId/:id/editar): a link shared from another
// company opens only in that company. Another of the user's companies → say so and offer to switch; a company the
// user lacks → not found. The server refuses rows outside the active company anyway; this spares a confusing 404.
import type { ReactNode } from 'react';
import { Alert, Box, Button, Card, Divider } from '@mui/material';
import { Title } from 'react-admin';
import { useParams } from 'react-router-dom';
import { PanelHeader } from '../crud/widgets/PanelHeader';
import { useSession, useSwitchCompany } from '../layout/CompanyPicker';

export function CompanyBound({ children }: { children: ReactNode }) {
  const { companyId } = useParams();
  const user = useSession();
  const switchTo = useSwitchCompany();
  if (companyId === undefined || !user || String(user.empresaAtiva) === companyId) return <>{children}</>;
  const empresa = user.empresas.find((e) => String(e.id) === companyId);
  const title = empresa ? 'Registro de outra empresa' : 'Empresa não encontrada';
  return (
    <Card>
      <Title title={title} />
      <PanelHeader title={title} />
      <Divider />
      <Box sx={{ p: 3 }}>
        {empresa ? (
          <Alert severity="info" action={<Button color="inherit" onClick={() => void switchTo(empresa.id)}>Trocar para {empresa.fantasia}</Button>}>
            Este registro pertence à empresa {empresa.fantasia}. Troque a empresa ativa para abri-lo.
          </Alert>
        ) : (
          <Alert severity="warning">Você não tem acesso à empresa deste registro.</Alert>
        )}
      </Box>
    </Card>
  );
}
