// /home: landing with counts from GET /api/home/resumo.
import { useEffect, useState } from 'react';
import { Box, Card, CardActionArea, CardContent, Grid, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { call } from '../api/http';
import { iconFor } from '../layout/icons';
import { entityByKey } from '../model';
import { useSession } from '../layout/CompanyPicker';

interface Count { key: string; label: string; total: number; route?: string; icon?: string }

// Accepts { contagens: [{ key, label, total, route }] }, a bare list, or { ativo: 50, ... }.
export function toCounts(p: unknown): Count[] {
  const src = (p as any)?.contagens ?? (p as any)?.counts ?? p;
  const items: [string, any][] = Array.isArray(src)
    ? src.map((x: any) => [String(x.key ?? x.entity ?? x.label), x])
    : src && typeof src === 'object'
      ? Object.entries(src)
      : [];
  return items
    .map(([k, v]) => {
      const e = entityByKey(k);
      const total = typeof v === 'number' ? v : Number(v?.total ?? v?.count ?? v?.quantidade);
      return { key: k, label: (typeof v === 'object' && v?.label) || e?.label.plural || k, total, route: (typeof v === 'object' && v?.route) || e?.base || e?.route, icon: e?.menu?.icon };
    })
    .filter((c) => Number.isFinite(c.total));
}

export function Home() {
  const [counts, setCounts] = useState<Count[] | null>(null);
  const user = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    call('/api/home/resumo').then((p) => setCounts(toCounts(p)), () => setCounts([]));
  }, [user?.empresaAtiva]);
  const empresa = user?.empresas.find((e) => e.id === user.empresaAtiva)?.fantasia;
  return (
    <Box>
      <Title title="Início" />
      <Typography variant="h5" sx={{ fontWeight: 600, mt: 1 }}>
        Bem-vindo ao Rastro{user?.nome ? `, ${user.nome}` : ''}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {empresa ? `Resumo da empresa ${empresa}` : 'Resumo da empresa ativa'}
      </Typography>
      {!counts ? (
        <Typography color="text.secondary">Aguarde montando dados...</Typography>
      ) : counts.length === 0 ? (
        <Typography color="text.secondary">Nenhum item foi encontrado</Typography>
      ) : (
        <Grid container spacing={2}>
          {counts.map((c) => (
            <Grid key={c.key} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
              <Card>
                <CardActionArea disabled={!c.route} onClick={() => c.route && navigate(c.route)}>
                  <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
                    <Box sx={{ width: 48, height: 48, borderRadius: 2, bgcolor: 'primary.main', color: 'primary.contrastText', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                      {iconFor(c.icon)}
                    </Box>
                    <Box>
                      <Typography variant="h4" sx={{ fontWeight: 700, lineHeight: 1.1 }} data-testid={`count-${c.key}`}>
                        {c.total.toLocaleString('pt-BR')}
                      </Typography>
                      <Typography color="text.secondary">{c.label}</Typography>
                    </Box>
                  </CardContent>
                </CardActionArea>
              </Card>
            </Grid>
          ))}
        </Grid>
      )}
    </Box>
  );
}
