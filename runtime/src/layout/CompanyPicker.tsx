// App-bar company picker: POST /api/auth/empresa/{id}, then reload session, permissions and data. The app bar's
// select (AppBarSelect) and the switch (useSessionSwitch) serve the ambiente picker too.
import { useEffect, useState, type ReactNode } from 'react';
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

/** Moves the session (server first: POST `path`), then reloads session, permissions and data. */
export function useSessionSwitch() {
  const refresh = useRefresh();
  const notify = useNotify();
  return async (path: string, after?: () => void) => {
    try {
      await call(path, { method: 'POST', body: '{}' });
      after?.();
      resetPermissions();
      await fetchSession();
      refresh();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
  };
}

/** Switches the active company. */
export function useSwitchCompany() {
  const go = useSessionSwitch();
  return (id: number) => go(`/api/auth/empresa/${id}`, () => session.patch({ empresaAtiva: id }));
}

/** A select of the app bar (white on the bar's colour): an icon and the chosen item's label. */
export function AppBarSelect({ label, icon, value, items, onChange, disabled, minWidth, maxWidth }: {
  label: string; icon: ReactNode; value: number | ''; items: { id: number; label: string }[]; onChange: (id: number) => void;
  disabled?: boolean; minWidth: number; maxWidth: number;
}) {
  return (
    <Select
      size="small"
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      disabled={disabled}
      inputProps={{ 'aria-label': label }}
      renderValue={(v) => (
        <span style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          {icon}
          {items.find((i) => i.id === v)?.label ?? ''}
        </span>
      )}
      sx={{
        color: 'inherit', mr: 1, minWidth, maxWidth, '.MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255,255,255,.4)' },
        '&:hover .MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255,255,255,.8)' }, '.MuiSvgIcon-root': { color: 'inherit' },
        '&.Mui-disabled .MuiSelect-select': { WebkitTextFillColor: 'rgba(255,255,255,.9)' },
      }}
    >
      {items.map((i) => (
        <MenuItem key={i.id} value={i.id}>
          {i.label}
        </MenuItem>
      ))}
    </Select>
  );
}

export function CompanyPicker() {
  const user = useSession();
  const change = useSwitchCompany();
  if (!user || user.empresas.length === 0) return null;
  return (
    <AppBarSelect label="Empresa" icon={<BusinessIcon fontSize="small" />} value={user.empresaAtiva ?? ''} minWidth={200} maxWidth={320}
      items={user.empresas.map((e) => ({ id: e.id, label: e.fantasia }))} onChange={(id) => void change(id)} disabled={user.empresas.length < 2} />
  );
}
