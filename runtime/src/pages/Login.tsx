// /login: user + password against POST /api/auth/login. Rendered outside react-admin (App.tsx) so the first
// load stays small: no react-admin import here; the auth provider (and with it react-admin) loads on submit.
import { useState } from 'react';
import { Box, Button, Card, CardContent, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Link, TextField, Typography } from '@mui/material';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { useLocation, useNavigate } from 'react-router-dom';
import { fullHeight } from '../layout/zoom';

// The palette and the few overrides of theme.ts the form uses (theme.ts builds on react-admin's theme).
const loginTheme = createTheme({
  palette: { mode: 'light', primary: { main: '#0b4f6c', light: '#3d7a96', dark: '#063447', contrastText: '#ffffff' }, error: { main: '#c62828' } },
  shape: { borderRadius: 8 },
  typography: { fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif' },
  components: { MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none', fontWeight: 600 } } } },
});

type Message = { text: string; type: 'error' | 'info' } | null;

export function LoginPage() {
  return (
    <ThemeProvider theme={loginTheme}>
      <LoginForm />
    </ThemeProvider>
  );
}

function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const [message, setMessage] = useState<Message>(null);
  const notify = (text: string, o: { type: 'error' | 'info'; autoHideDuration?: number }) => {
    setMessage({ text, type: o.type });
    if (o.autoHideDuration) setTimeout(() => setMessage((m) => (m?.text === text ? null : m)), o.autoHideDuration);
  };
  const login = async (credentials: { username: string; password: string }) => {
    const { authProvider } = await import('../api/authProvider');
    await authProvider.login(credentials);
    // Back to the page that sent here (react-admin's redirect state), else the home screen.
    const st = location.state as { nextPathname?: string; nextSearch?: string } | null;
    const next = st?.nextPathname && st.nextPathname !== '/login' ? `${st.nextPathname}${st.nextSearch ?? ''}` : '/home';
    navigate(next, { replace: true });
  };
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
      {message && (
        <Typography role="alert" sx={{ position: 'fixed', bottom: 24, left: '50%', transform: 'translateX(-50%)', px: 2, py: 1.5, borderRadius: 1, color: '#fff', bgcolor: message.type === 'error' ? 'error.main' : 'primary.main', boxShadow: 3, maxWidth: '92vw' }}>
          {message.text}
        </Typography>
      )}
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
