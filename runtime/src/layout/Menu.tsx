// Side menu from model.json's menu tree (areas → sections → entries, generator/kinds/menu.ts), filtered by the
// user's permissions. Sections fold (the open ones are remembered in localStorage; the section of the current
// page is always open), a search box filters the entries (accents ignored), and the collapsed (mini) menu shows
// each entry's label as a tooltip (react-admin's MenuItemLink) and each area's label on its icon.
import { useState } from 'react';
import { Box, Collapse, InputAdornment, ListItemButton, ListItemIcon, ListItemText, TextField, Tooltip } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import HomeIcon from '@mui/icons-material/Home';
import SearchIcon from '@mui/icons-material/Search';
import { Menu as RaMenu, useSidebarState } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { MenuNode } from '../../../shared/model';
import { useCan } from '../crud/lib/useCan';
import { model } from '../model';
import { activeRoute } from './activeRoute';
import { iconFor } from './icons';
import { searchMenu, sectionsOf } from './menuTree';

export function visibleMenu(nodes: MenuNode[], can: (k: string) => boolean): MenuNode[] {
  return nodes
    .map((n) => (n.children ? { ...n, children: visibleMenu(n.children, can) } : n))
    .filter((n) => (n.children ? n.children.length > 0 : !!n.route && (!n.permission || can(n.permission))));
}

const routesOf = (nodes: MenuNode[]): string[] => nodes.flatMap((n) => (n.children ? routesOf(n.children) : n.route ? [n.route] : []));

// react-admin marks every entry whose route prefixes the path; only the best match stays marked.
const active = {
  fontWeight: 600,
  bgcolor: 'action.selected',
  '& .RaMenuItemLink-icon': { color: 'primary.main' },
};
const notActive = {
  '&.RaMenuItemLink-active': { color: 'text.secondary', '& .RaMenuItemLink-icon': { color: 'text.secondary' } },
};

const STORE = 'rastro.menu.abertas';
const readOpen = (): string[] => {
  try { const v = JSON.parse(localStorage.getItem(STORE) ?? '[]'); return Array.isArray(v) ? v.map(String) : []; } catch { return []; }
};

interface ItemsProps { nodes: MenuNode[]; depth: number; current?: string; isOpen: (k: string) => boolean; toggle: (k: string) => void }

function Items({ nodes, depth, current, isOpen, toggle }: ItemsProps) {
  const [sidebar] = useSidebarState();
  return (
    <>
      {nodes.map((n) => {
        if (!n.children) {
          return <RaMenu.Item key={n.route} to={n.route!} primaryText={n.label} leftIcon={iconFor(n.icon)}
            sx={{ ...(n.route === current ? active : notActive), ...(sidebar ? { pl: 2 + depth * 1.5 } : {}) }}
            aria-current={n.route === current ? 'page' : undefined} />;
        }
        const key = n.key ?? n.label;
        // Mini menu: an area is its icon (label in the tooltip); its entries show without the sections' headers.
        if (!sidebar) {
          if (depth > 0) return <Items key={key} nodes={n.children} depth={depth + 1} current={current} isOpen={isOpen} toggle={toggle} />;
          const open = isOpen(key);
          return (
            <Box key={key} data-menu-section={key}>
              <Tooltip title={n.label} placement="right">
                <ListItemButton onClick={() => toggle(key)} aria-expanded={open} aria-label={n.label} sx={{ py: 0.75 }}>
                  <ListItemIcon sx={{ minWidth: 0 }}>{iconFor(n.icon)}</ListItemIcon>
                </ListItemButton>
              </Tooltip>
              {open && <Items nodes={n.children} depth={depth + 1} current={current} isOpen={isOpen} toggle={toggle} />}
            </Box>
          );
        }
        const open = isOpen(key);
        return (
          <Box key={key} data-menu-section={key}>
            <ListItemButton onClick={() => toggle(key)} aria-expanded={open} sx={{ pl: 2 + depth * 1.5, py: depth === 0 ? 0.75 : 0.25 }}>
              {depth === 0 && <ListItemIcon sx={{ minWidth: 40 }}>{iconFor(n.icon)}</ListItemIcon>}
              <ListItemText primary={n.label} slotProps={{ primary: depth === 0
                ? { sx: { fontWeight: 600, fontSize: 14 } }
                : { sx: { fontWeight: 600, fontSize: 11, textTransform: 'uppercase', letterSpacing: 0.6, color: 'text.secondary' } } }} />
              {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
            </ListItemButton>
            <Collapse in={open} timeout={150} unmountOnExit>
              <Items nodes={n.children} depth={depth + 1} current={current} isOpen={isOpen} toggle={toggle} />
            </Collapse>
          </Box>
        );
      })}
    </>
  );
}

export function Menu() {
  const { can } = useCan();
  const { pathname } = useLocation();
  const [sidebar] = useSidebarState();
  const [q, setQ] = useState('');
  const [opened, setOpened] = useState<string[]>(readOpen);
  const nodes = visibleMenu(model.menu, can);
  const current = activeRoute(pathname, ['/home', ...routesOf(nodes)]);
  const here = sectionsOf(nodes, current);
  const searching = sidebar && q.trim() !== '';
  const shown = searching ? searchMenu(nodes, q) : nodes;
  // Explicit choices are kept ('k' open, '!k' closed); otherwise the current page's sections are open.
  const isOpen = (k: string) => (opened.includes(k) ? true : opened.includes(`!${k}`) ? false : here.includes(k));
  const toggle = (k: string) => {
    const next = [...opened.filter((x) => x !== k && x !== `!${k}`), isOpen(k) ? `!${k}` : k];
    setOpened(next);
    try { localStorage.setItem(STORE, JSON.stringify(next)); } catch { /* private mode */ }
  };
  return (
    <RaMenu>
      <RaMenu.Item to="/home" primaryText="Início" leftIcon={<HomeIcon />} sx={current === '/home' ? active : notActive} aria-current={current === '/home' ? 'page' : undefined} />
      {sidebar && (
        <Box sx={{ px: 1.5, py: 1 }}>
          <TextField size="small" fullWidth value={q} onChange={(e) => setQ(e.target.value)} placeholder="Buscar no menu"
            slotProps={{ htmlInput: { 'aria-label': 'Buscar no menu' }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
            onKeyDown={(e) => { if (e.key === 'Escape') setQ(''); }} />
        </Box>
      )}
      <Items nodes={shown} depth={0} current={current} isOpen={searching ? () => true : isOpen} toggle={toggle} />
      {searching && shown.length === 0 && <Box sx={{ px: 2, py: 1, color: 'text.secondary', fontSize: 14 }}>Nenhum item foi encontrado</Box>}
    </RaMenu>
  );
}
