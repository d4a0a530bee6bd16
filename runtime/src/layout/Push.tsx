// Cloud messages in this browser (modules/mensagens): registers the service worker (/sw.js) and, once the user has
// allowed notifications, subscribes to Web Push with the server's VAPID key (GET /api/cloudMessage/vapid, POST
// /api/cloudMessage/inscricao, the company's default topics). The app-bar button asks for the permission (browsers
// require a click); it is hidden where push is unsupported, already allowed or refused.
import { useEffect, useState } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import NotificationsActiveOutlinedIcon from '@mui/icons-material/NotificationsActiveOutlined';
import { useNotify } from 'react-admin';
import { call } from '../api/http';
import { useSession } from './CompanyPicker';

const supported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

async function subscribe(): Promise<void> {
  const reg = await navigator.serviceWorker.register('/sw.js');
  const { publicKey } = await call<{ publicKey: string }>('/api/cloudMessage/vapid');
  const key = Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0));
  const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  const j = sub.toJSON();
  await call('/api/cloudMessage/inscricao', { method: 'POST', body: JSON.stringify({ endpoint: j.endpoint, keys: j.keys, navegador: navigator.userAgent.slice(0, 400) }) });
}

export function PushButton() {
  const empresa = useSession()?.empresaAtiva;
  const notify = useNotify();
  const [perm, setPerm] = useState(() => (supported() ? Notification.permission : 'denied'));
  // Allowed already: (re)subscribe in the active company, quietly.
  useEffect(() => {
    if (supported() && perm === 'granted' && empresa != null) subscribe().catch(() => undefined);
  }, [perm, empresa]);
  if (perm !== 'default') return null;
  const ask = async () => {
    const p = await Notification.requestPermission();
    setPerm(p);
    if (p === 'granted') notify('Este navegador receberá as mensagens do sistema', { type: 'success' });
  };
  return (
    <Tooltip title="Receber mensagens do sistema neste navegador" enterDelay={1000}>
      <IconButton color="inherit" aria-label="Receber mensagens do sistema neste navegador" onClick={() => void ask()}>
        <NotificationsActiveOutlinedIcon />
      </IconButton>
    </Tooltip>
  );
}
