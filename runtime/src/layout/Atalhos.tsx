// Shortcuts (spec section 7, /atalhos/...): the pin in the app bar pins the screen in view — its URL with the filters
// of its query — to the home page; the home page shows them in the user's order, to open, move or remove
// (GET/POST/PUT/DELETE /api/atalhos, modules/inicio). One store for both, read again when the company changes.
import { useEffect, useSyncExternalStore } from 'react';
import { Box, Card, CardActionArea, CardContent, Grid, IconButton, Tooltip, Typography } from '@mui/material';
import PushPinIcon from '@mui/icons-material/PushPin';
import PushPinOutlinedIcon from '@mui/icons-material/PushPinOutlined';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import CloseIcon from '@mui/icons-material/Close';
import { useNotify } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { call } from '../api/http';
import { useSession } from './CompanyPicker';
import { model, type MenuNode } from '../model';

export interface Atalho { id: number; titulo: string; rota: string; ordem: number }

let atalhos: Atalho[] | null = null;
let loadedFor: number | null | undefined;
const listeners = new Set<() => void>();
const set = (v: Atalho[] | null) => { atalhos = v; listeners.forEach((l) => l()); };
const subscribe = (l: () => void) => { listeners.add(l); return () => { listeners.delete(l); }; };

async function reload() {
  set(await call<Atalho[]>('/api/atalhos/lista').catch(() => []));
}

function useAtalhos(): Atalho[] | null {
  const empresa = useSession()?.empresaAtiva ?? null;
  useEffect(() => {
    if (loadedFor === empresa) return;
    loadedFor = empresa;
    set(null);
    void reload();
  }, [empresa]);
  return useSyncExternalStore(subscribe, () => atalhos);
}

const entries = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => (n.children ? entries(n.children) : n.route ? [n] : []));
/** The screen's name: the menu entry of the path (or of the nearest route above it), else the page's title. */
export function titleOfPage(path: string, menu: MenuNode[] = model.menu ?? []): string {
  const hit = entries(menu).filter((n) => path === n.route || path.startsWith(`${n.route}/`)).sort((a, b) => b.route!.length - a.route!.length)[0];
  return (hit?.label ?? (document.getElementById('react-admin-title')?.textContent ?? '').trim() ?? '').slice(0, 80) || path;
}

export function PinButton() {
  const loc = useLocation();
  const notify = useNotify();
  const list = useAtalhos();
  const rota = loc.pathname + loc.search;
  if (loc.pathname === '/home' || loc.pathname === '/') return null;
  const pinned = list?.find((a) => a.rota === rota);
  const toggle = async () => {
    try {
      if (pinned) {
        await call(`/api/atalhos/${pinned.id}`, { method: 'DELETE' });
        notify('Atalho removido da página inicial', { type: 'info' });
      } else {
        await call('/api/atalhos/adiciona', { method: 'POST', body: JSON.stringify({ titulo: titleOfPage(loc.pathname), rota }) });
        notify('Tela fixada na página inicial', { type: 'success' });
      }
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
    await reload();
  };
  const label = pinned ? 'Remover dos atalhos da página inicial' : 'Fixar na página inicial';
  return (
    <Tooltip title={label} enterDelay={1000}>
      <IconButton color="inherit" aria-label={label} aria-pressed={!!pinned} onClick={() => void toggle()} disabled={list === null}>
        {pinned ? <PushPinIcon /> : <PushPinOutlinedIcon />}
      </IconButton>
    </Tooltip>
  );
}

/** The home page's section: the user's shortcuts in order. */
export function AtalhosHome() {
  const list = useAtalhos();
  const notify = useNotify();
  if (!list) return null;
  const move = async (i: number, by: -1 | 1) => {
    const ids = list.map((a) => a.id);
    [ids[i], ids[i + by]] = [ids[i + by], ids[i]];
    set(ids.map((id, n) => ({ ...list.find((a) => a.id === id)!, ordem: n })));
    await call('/api/atalhos/ordena', { method: 'PUT', body: JSON.stringify({ ids }) }).catch((e) => notify((e as Error).message, { type: 'error' }));
    await reload();
  };
  const remove = async (a: Atalho) => {
    await call(`/api/atalhos/${a.id}`, { method: 'DELETE' }).then(() => notify('Atalho removido da página inicial', { type: 'info' }), (e) => notify((e as Error).message, { type: 'error' }));
    await reload();
  };
  return (
    <Box component="section" aria-label="Atalhos" sx={{ mb: 3 }}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ textTransform: 'uppercase', letterSpacing: 0.6, mb: 1 }}>Atalhos</Typography>
      {list.length === 0 ? (
        <Typography variant="body2" color="text.secondary">Fixe aqui as telas que você mais usa: abra a tela (com os filtros desejados) e clique no alfinete da barra superior.</Typography>
      ) : (
        <Grid container spacing={1.5}>
          {list.map((a, i) => (
            <Grid key={a.id} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
              <Card sx={{ display: 'flex', alignItems: 'center', height: '100%' }} data-atalho={a.rota}>
                <CardActionArea component={Link} to={a.rota} sx={{ flex: 1, minWidth: 0 }}>
                  <CardContent sx={{ py: 1.25, '&:last-child': { pb: 1.25 } }}>
                    <Typography sx={{ fontWeight: 600 }} noWrap>{a.titulo}</Typography>
                    <Typography variant="caption" color="text.secondary" noWrap component="div">{a.rota.split('?')[0]}{a.rota.includes('?') ? ' (com filtros)' : ''}</Typography>
                  </CardContent>
                </CardActionArea>
                <Box sx={{ display: 'flex', pr: 0.5 }}>
                  <IconButton size="small" aria-label={`Mover ${a.titulo} para a esquerda`} disabled={i === 0} onClick={() => void move(i, -1)}><ArrowBackIcon fontSize="small" /></IconButton>
                  <IconButton size="small" aria-label={`Mover ${a.titulo} para a direita`} disabled={i === list.length - 1} onClick={() => void move(i, 1)}><ArrowForwardIcon fontSize="small" /></IconButton>
                  <IconButton size="small" aria-label={`Remover atalho ${a.titulo}`} onClick={() => void remove(a)}><CloseIcon fontSize="small" /></IconButton>
                </Box>
              </Card>
            </Grid>
          ))}
        </Grid>
      )}
    </Box>
  );
}
