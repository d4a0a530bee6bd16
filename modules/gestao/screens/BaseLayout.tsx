// /base_layout: the shared layout's own page — who and where the user is (user, active company, companies), then
// every area, section and screen of the menu they may open (the menu's tree filtered by their keys), as a map of the
// system with a filter. Opens for every signed-in user.
import { useMemo, useState } from 'react';
import { Box, Card, CardContent, Chip, InputAdornment, Link as MuiLink, Stack, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { Title } from 'react-admin';
import { Link } from 'react-router-dom';
import type { MenuNode } from '../../../shared/model';
import { model } from '../../../runtime/src/model';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { visibleMenu } from '../../../runtime/src/layout/Menu';
import { iconFor } from '../../../runtime/src/layout/icons';

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const folhas = (n: MenuNode): MenuNode[] => (n.children ? n.children.flatMap(folhas) : n.route ? [n] : []);

export default function BaseLayout() {
  const user = useSession();
  const { can, isPending } = useCan();
  const [busca, setBusca] = useState('');
  // top-level entries (Meu perfil, Novidades…) share one card
  const areas = useMemo(() => {
    const v = isPending ? [] : visibleMenu(model.menu, can);
    const soltas = v.filter((n) => !n.children);
    return [...(soltas.length ? [{ label: 'Geral', children: soltas } as MenuNode] : []), ...v.filter((n) => n.children)];
  }, [can, isPending]);
  const q = fold(busca.trim());
  const empresa = user?.empresas.find((e) => e.id === user.empresaAtiva)?.fantasia;
  const total = areas.reduce((s, a) => s + folhas(a).length, 0);

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid="base-layout">
      <Title title="Mapa do sistema" />
      <Card sx={{ mb: 2 }}>
        <CardContent sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', alignItems: 'center' }}>
          <Box>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>Mapa do sistema</Typography>
            <Typography color="text.secondary">Todas as telas que você pode abrir, agrupadas como no menu ({total}).</Typography>
          </Box>
          <Box sx={{ flex: 1 }} />
          <Stack spacing={0.5}>
            <Typography variant="body2"><b>Usuário:</b> {user?.nome ?? user?.login}</Typography>
            <Typography variant="body2"><b>Empresa ativa:</b> {empresa ?? '–'}</Typography>
            {user && user.empresas.length > 1 && <Typography variant="body2"><b>Empresas:</b> {user.empresas.length}</Typography>}
          </Stack>
        </CardContent>
      </Card>
      <TextField size="small" placeholder="Buscar tela" value={busca} onChange={(e) => setBusca(e.target.value)} sx={{ mb: 2, width: 320, maxWidth: '100%' }}
        slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }} />
      <Box sx={{ columnWidth: 360, columnGap: 2 }}>
        {areas.map((a) => {
          const secoes = (a.children ?? [a]).map((s) => ({ s, itens: folhas(s).filter((f) => !q || fold(`${a.label} ${s.label} ${f.label}`).includes(q)) })).filter((x) => x.itens.length);
          if (!secoes.length) return null;
          return (
            <Box key={a.label} sx={{ breakInside: 'avoid', mb: 2, display: 'inline-block', width: '100%' }}>
              <Card component="section" aria-label={a.label}>
                <CardContent>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                    {iconFor(a.icon)}
                    <Typography variant="h6" sx={{ flex: 1 }}>{a.label}</Typography>
                    <Chip size="small" label={secoes.reduce((s, x) => s + x.itens.length, 0)} />
                  </Stack>
                  {secoes.map(({ s, itens }) => (
                    <Box key={s.label} sx={{ mb: 1.5 }}>
                      {s !== a && s.children && <Typography variant="overline" color="text.secondary">{s.label}</Typography>}
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.25 }}>
                        {itens.map((f) => <MuiLink key={f.route} component={Link} to={f.route!} variant="body2" underline="hover">{f.label}</MuiLink>)}
                      </Box>
                    </Box>
                  ))}
                </CardContent>
              </Card>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
