// /login: user + password against POST /api/auth/login.
import { useState } from 'react';
import { Box, Button, Card, CardContent, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Link, TextField, Typography } from '@mui/material';
import { useLogin, useNotify } from 'react-admin';
import { fullHeight } from '../layout/zoom';

export function LoginPage() {
  const login = useLogin();
  const notify = useNotify();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [recover, setRecover] = useState<string | null>(null);
  const sendRecover = async () => {
    try {
      const body = recover!.includes('@') ? { email: recover } : { login: recover };
      const { msg } = await fetch('/api/auth/recover', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
      notify(msg || 'Se o usuário existir e tiver e-mail cadastrado, enviaremos as instruções para alterar a senha.', { type: 'info', autoHideDuration: 6000 });
      setRecover(null);
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    }
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await login({ username, password });
    } catch (err) {
      notify((err as Error)?.message || 'Usuário ou senha inválidos', { type: 'error', autoHideDuration: 3000 });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ minHeight: fullHeight(), display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'linear-gradient(135deg, #063447 0%, #0b4f6c 55%, #3d7a96 100%)' }}>
      <Card sx={{ width: 380, maxWidth: '92vw' }}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h4" sx={{ fontWeight: 700, color: 'primary.main', textAlign: 'center' }}>
            Rastro
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', mb: 3 }}>
            Telemetria de frotas
          </Typography>
          <Box component="form" onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
            <TextField label="Usuário" name="login" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} required fullWidth size="medium" />
            <TextField label="Senha" name="senha" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required fullWidth size="medium" />
            <Button type="submit" variant="contained" size="large" disabled={busy} sx={{ mt: 2 }}>
              {busy ? <CircularProgress size={22} color="inherit" /> : 'Entrar'}
            </Button>
          </Box>
          <Box sx={{ textAlign: 'center', mt: 2 }}>
            <Link component="button" type="button" variant="body2" onClick={() => setRecover(username)}>
              Esqueci minha senha
            </Link>
          </Box>
        </CardContent>
      </Card>
      <Dialog open={recover !== null} onClose={() => setRecover(null)} maxWidth="xs" fullWidth>
        <DialogTitle>Recuperar senha</DialogTitle>
        <DialogContent>
          <TextField label="Usuário ou e-mail" fullWidth autoFocus value={recover ?? ''} onChange={(e) => setRecover(e.target.value)} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRecover(null)}>Fechar</Button>
          <Button variant="contained" disabled={!recover?.trim()} onClick={() => void sendRecover()}>Confirmar</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
