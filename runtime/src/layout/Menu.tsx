// Side menu from model.json's menu tree, filtered by the user's permissions.
import { ListSubheader } from '@mui/material';
import HomeIcon from '@mui/icons-material/Home';
import { Menu as RaMenu, useSidebarState } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { MenuNode } from '../../../shared/model';
import { useCan } from '../crud/lib/useCan';
import { model } from '../model';
import { activeRoute } from './activeRoute';
import { iconFor } from './icons';

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

function Items({ nodes, depth, current }: { nodes: MenuNode[]; depth: number; current?: string }) {
  const [open] = useSidebarState();
  return (
    <>
      {nodes.map((n) =>
        n.children ? (
          <div key={n.label}>
            {open && (
              <ListSubheader sx={{ lineHeight: '32px', mt: 1, bgcolor: 'transparent', fontWeight: 600, textTransform: 'uppercase', fontSize: 11, letterSpacing: 0.6 }}>
                {n.label}
              </ListSubheader>
            )}
            <Items nodes={n.children} depth={depth + 1} current={current} />
          </div>
        ) : (
          <RaMenu.Item key={n.route} to={n.route!} primaryText={n.label} leftIcon={iconFor(n.icon)} sx={n.route === current ? active : notActive} aria-current={n.route === current ? 'page' : undefined} />
        ),
      )}
    </>
  );
}

export function Menu() {
  const { can } = useCan();
  const { pathname } = useLocation();
  const nodes = visibleMenu(model.menu, can);
  const current = activeRoute(pathname, ['/home', ...routesOf(nodes)]);
  return (
    <RaMenu>
      <RaMenu.Item to="/home" primaryText="Início" leftIcon={<HomeIcon />} sx={current === '/home' ? active : notActive} aria-current={current === '/home' ? 'page' : undefined} />
      <Items nodes={nodes} depth={0} current={current} />
    </RaMenu>
  );
}
