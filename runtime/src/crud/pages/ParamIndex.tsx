// Navigation screens above a list with route parameters (route table view 'params', metadata params): level 0 lists the
// known values of the first parameter (e.g. the technologies), level 1 those of the second given the first (the
// models of that technology), and so on; choosing one goes a level down, the last one opens the list.
// ParamLevels is the same navigation for a screen over a provider with such parameters (the event library).
import { Alert, Box, Card, Divider, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Title } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import type { EntityMeta, RouteParamMeta } from '../../../../shared/model';
import { PanelHeader } from '../widgets/PanelHeader';
import { checkParams, paramOptions, useTecnologias } from '../lib/params';

const CHOOSE: Record<string, string> = { tecnologias: 'Selecione a tecnologia', modelos: 'Selecione o modelo' };

export function ParamIndex({ entity, level }: { entity: EntityMeta; level: number }) {
  return <ParamLevels title={entity.label.plural} base={entity.base!} params={entity.params ?? []} level={level} />;
}

/** base: the route above the parameters; params: route parameters in order (name = the route's :name). */
export function ParamLevels({ title: label, base, params, level }: { title: string; base: string; params: RouteParamMeta[]; level: number }) {
  const route = useParams();
  const navigate = useNavigate();
  const chosen = params.slice(0, level).map((p) => route[p.name] ?? '');
  const { tecs, ready } = useTecnologias(params.some((x) => x.values));
  const checked = checkParams(params, chosen, tecs);
  const { labels } = checked;
  const error = ready ? checked.error : undefined;
  const title = [label, ...labels].join(': ');
  const p = params[level];
  const options = p && !error ? paramOptions(params, level, chosen, tecs) ?? [] : [];
  const prompt = (p?.values && CHOOSE[p.values]) ?? `Selecione: ${p?.label ?? ''}`;
  const go = (id: string) => navigate([base, ...[...chosen, id].map(encodeURIComponent)].join('/'));
  return (
    <Card className="rastro-list">
      <Title title={title} />
      <PanelHeader title={title} onBack={() => navigate(-1)} />
      <Divider />
      {error ? (
        <Box sx={{ p: 3 }}><Alert severity="warning">{error}</Alert></Box>
      ) : (
        <Box sx={{ px: 2, py: 1.5 }}>
          <Typography color="text.secondary" sx={{ mb: 1 }}>{prompt}</Typography>
          {options.length ? (
            <List aria-label={prompt} dense sx={{ maxWidth: 560 }}>
              {options.map((o) => (
                <ListItemButton key={o.id} onClick={() => go(o.id)} divider>
                  <ListItemText primary={o.label} secondary={o.id} />
                  <ChevronRightIcon color="action" />
                </ListItemButton>
              ))}
            </List>
          ) : (
            <Typography sx={{ py: 4, textAlign: 'center' }} color="text.secondary">Nenhum item foi encontrado</Typography>
          )}
        </Box>
      )}
    </Card>
  );
}
