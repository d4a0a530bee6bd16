// Hub screen (metadata kind: hub): the registers one route segment below, those the user may open.
import { Box, Card, CardActionArea, Typography } from '@mui/material';
import { Title, usePermissions } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { canEnter } from '../../api/authProvider';
import type { HubMeta } from '../../../../shared/model';
import { PanelHeader } from '../widgets/PanelHeader';

export function Hub({ hub }: { hub: HubMeta }) {
  const { permissions } = usePermissions<string[]>();
  const navigate = useNavigate();
  const members = hub.members.filter((m) => canEnter(m.permission, permissions));
  return (
    <Card className="rastro-hub">
      <Title title={hub.label} />
      <PanelHeader title={hub.label} onBack={() => navigate(-1)} />
      {members.length === 0 ? (
        <Typography sx={{ px: 2, pb: 2 }}>Nenhum item foi encontrado</Typography>
      ) : (
        <Box component="nav" aria-label={hub.label} sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 1.5, px: 2, pb: 2 }}>
          {members.map((m) => (
            <Card key={m.key} variant="outlined">
              <CardActionArea href={m.route} onClick={(ev) => { ev.preventDefault(); navigate(m.route); }} sx={{ p: 2 }}>
                <Typography fontWeight={500}>{m.label}</Typography>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
    </Card>
  );
}
