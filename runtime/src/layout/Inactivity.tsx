// Inactivity warning (spec section 4): a counter grows each second without mouse/keyboard
// activity; at the warning threshold a persistent dialog counts down to the sign-out, then logout. Thresholds: the
// company's parameter sessao.inatividade_segundos (sent with the session), else the spec's TIME_TO_*.
import { useEffect, useState } from 'react';
import { Dialog, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useLogout } from 'react-admin';
import { session } from '../api/session';

export const TIME_TO_DISCONNECT = 6000; // seconds
export const TIME_TO_SHOW = 5995;
const REMEMBER_KEY = 'rastro.remember';

export const inactivityText = (n: number) => `Você esta inativo já faz algum tempo, iremos desconecta-lo em: ${n} segundos`;

export function Inactivity() {
  const [idle, setIdle] = useState(0);
  const [limits, setLimits] = useState(() => session.get()?.inatividade);
  useEffect(() => { const off = session.subscribe((u) => setLimits(u?.inatividade)); return () => { off(); }; }, []);
  const disconnect = limits?.desconectar ?? TIME_TO_DISCONNECT;
  const show = limits?.aviso ?? TIME_TO_SHOW;
  const logout = useLogout();
  useEffect(() => {
    const reset = () => setIdle(0);
    const events = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart'] as const;
    events.forEach((e) => window.addEventListener(e, reset, { passive: true }));
    const t = setInterval(() => setIdle((n) => n + 1), 1000);
    return () => {
      clearInterval(t);
      events.forEach((e) => window.removeEventListener(e, reset));
    };
  }, []);
  const remember = localStorage.getItem(REMEMBER_KEY) === '1';
  useEffect(() => {
    if (!remember && idle >= disconnect) void logout();
  }, [idle, remember, logout, disconnect]);
  const open = !remember && idle >= show && idle < disconnect;
  return (
    <Dialog open={open} disableEscapeKeyDown>
      <DialogTitle>Inatividade</DialogTitle>
      <DialogContent>
        <Typography>{inactivityText(Math.max(0, disconnect - idle))}</Typography>
      </DialogContent>
    </Dialog>
  );
}
