import { useCallback } from 'react';
import { usePermissions } from 'react-admin';
import { canEnter } from '../../api/authProvider';

// (permissionKey) => boolean, with the wiki/dev rule; false while permissions load.
export function useCan() {
  const { permissions, isPending } = usePermissions<string[]>();
  const can = useCallback((key: string) => !isPending && canEnter(key, permissions), [permissions, isPending]);
  return { can, isPending };
}
