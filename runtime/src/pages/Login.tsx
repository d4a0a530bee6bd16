// /login: user + password against POST /api/auth/login.
import { useState } from 'react';
import { Box, Button, Card, CardContent, CircularProgress, TextField, Typography } from '@mui/material';
import { useLogin, useNotify } from 'react-admin';

export function LoginPage() {
  const login = useLogin();
  const notify = useNotify();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
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
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'linear-gradient(135deg, #063447 0%, #0b4f6c 55%, #3d7a96 100%)' }}>
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
        </CardContent>
      </Card>
    </Box>
  );
}
