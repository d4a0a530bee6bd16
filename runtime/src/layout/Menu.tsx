// Side menu from model.json's menu tree, filtered by the user's permissions.
import { ListSubheader } from '@mui/material';
import HomeIcon from '@mui/icons-material/Home';
import { Menu as RaMenu, useSidebarState } from 'react-admin';
import type { MenuNode } from '../../../generator/model';
import { useCan } from '../crud/useCan';
import { model } from '../model';
import { iconFor } from './icons';

export function visibleMenu(nodes: MenuNode[], can: (k: string) => boolean): MenuNode[] {
  return nodes
    .map((n) => (n.children ? { ...n, children: visibleMenu(n.children, can) } : n))
    .filter((n) => (n.children ? n.children.length > 0 : !!n.route && (!n.permission || can(n.permission))));
}

function Items({ nodes, depth }: { nodes: MenuNode[]; depth: number }) {
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
            <Items nodes={n.children} depth={depth + 1} />
          </div>
        ) : (
          <RaMenu.Item key={n.route} to={n.route!} primaryText={n.label} leftIcon={iconFor(n.icon)} />
        ),
      )}
    </>
  );
}

export function Menu() {
  const { can } = useCan();
  return (
    <RaMenu>
      <RaMenu.Item to="/home" primaryText="Início" leftIcon={<HomeIcon />} />
      <Items nodes={visibleMenu(model.menu, can)} depth={0} />
    </RaMenu>
  );
}
