// App-bar company picker: POST /api/auth/empresa/{id}, then reload session, permissions and data.
import { useEffect, useState } from 'react';
import { MenuItem, Select } from '@mui/material';
import BusinessIcon from '@mui/icons-material/Business';
import { useNotify, useRefresh } from 'react-admin';
import { fetchSession, resetPermissions } from '../api/authProvider';
import { call } from '../api/http';
import { session } from '../api/session';

export function useSession() {
  const [u, setU] = useState(session.get());
  useEffect(() => {
    const off = session.subscribe(setU);
    return () => void off();
  }, []);
  return u;
}

/** Switches the active company (server first), then reloads session, permissions and data. */
export function useSwitchCompany() {
  const refresh = useRefresh();
  const notify = useNotify();
  return async (id: number) => {
    try {
      await call(`/api/auth/empresa/${id}`, { method: 'POST', body: '{}' });
      session.patch({ empresaAtiva: id });
      resetPermissions();
      await fetchSession();
      refresh();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
  };
}

export function CompanyPicker() {
  const user = useSession();
  const change = useSwitchCompany();
  if (!user || user.empresas.length === 0) return null;
  return (
    <Select
      size="small"
      value={user.empresaAtiva ?? ''}
      onChange={(e) => void change(Number(e.target.value))}
      disabled={user.empresas.length < 2}
      inputProps={{ 'aria-label': 'Empresa' }}
      renderValue={(v) => (
        <span style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <BusinessIcon fontSize="small" />
          {user.empresas.find((e) => e.id === v)?.fantasia ?? ''}
        </span>
      )}
      sx={{
        color: 'inherit', mr: 1, minWidth: 200, maxWidth: 320, '.MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255,255,255,.4)' },
        '&:hover .MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255,255,255,.8)' }, '.MuiSvgIcon-root': { color: 'inherit' },
        '&.Mui-disabled .MuiSelect-select': { WebkitTextFillColor: 'rgba(255,255,255,.9)' },
      }}
    >
      {user.empresas.map((e) => (
        <MenuItem key={e.id} value={e.id}>
          {e.fantasia}
        </MenuItem>
      ))}
    </Select>
  );
}
