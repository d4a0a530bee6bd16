// App-bar ambiente picker, beside the company picker: shown only when the user may enter more than one ambiente
// (GET /api/adm/ambiente/lista). Choosing one: POST /api/adm/ambiente/seleciona/{id} (the server opens the user's
// first company there), then session, permissions and data reload, as after a company switch.
import { useEffect, useState } from 'react';
import DomainIcon from '@mui/icons-material/Domain';
import { call } from '../api/http';
import { AppBarSelect, useSession, useSessionSwitch } from './CompanyPicker';

interface Ambiente { id: number; descricao: string; atual: boolean }

export function AmbientePicker() {
  const user = useSession();
  const go = useSessionSwitch();
  const [lista, setLista] = useState<Ambiente[]>([]);
  const key = user ? `${user.id}:${user.ambienteId ?? ''}` : '';
  useEffect(() => {
    if (!key) return setLista([]);
    let alive = true;
    call<Ambiente[]>('/api/adm/ambiente/lista').then((l) => { if (alive) setLista(Array.isArray(l) ? l : []); }, () => { if (alive) setLista([]); });
    return () => { alive = false; };
  }, [key]);
  if (!user || lista.length < 2) return null;
  const atual = lista.find((a) => a.atual)?.id ?? user.ambienteId ?? '';
  return (
    <AppBarSelect label="Ambiente" icon={<DomainIcon fontSize="small" />} value={atual} minWidth={160} maxWidth={260}
      items={lista.map((a) => ({ id: a.id, label: a.descricao }))} onChange={(id) => void go(`/api/adm/ambiente/seleciona/${id}`)} />
  );
}
