// Inactivity warning (spec section 4): a counter grows each second without mouse/keyboard
// activity; at TIME_TO_SHOW a persistent dialog counts down to TIME_TO_DISCONNECT, then logout.
import { useEffect, useState } from 'react';
import { Dialog, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useLogout } from 'react-admin';

export const TIME_TO_DISCONNECT = 6000; // seconds
export const TIME_TO_SHOW = 5995;
const REMEMBER_KEY = 'rastro.remember';

export const inactivityText = (n: number) => `Você esta inativo já faz algum tempo, iremos desconecta-lo em: ${n} segundos`;

export function Inactivity() {
  const [idle, setIdle] = useState(0);
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
    if (!remember && idle >= TIME_TO_DISCONNECT) void logout();
  }, [idle, remember, logout]);
  const open = !remember && idle >= TIME_TO_SHOW && idle < TIME_TO_DISCONNECT;
  return (
    <Dialog open={open} disableEscapeKeyDown>
      <DialogTitle>Inatividade</DialogTitle>
      <DialogContent>
        <Typography>{inactivityText(Math.max(0, TIME_TO_DISCONNECT - idle))}</Typography>
      </DialogContent>
    </Dialog>
  );
}
