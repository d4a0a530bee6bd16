// /perfil: the signed-in user's own profile (nome, e-mail: PUT /api/usuario/perfil) and password (POST
// /api/auth/changepwd with the current one; every session of the user ends, so the user signs in again).
import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Divider, Stack, TextField, Typography } from '@mui/material';
import { Title, useLogout, useNotify } from 'react-admin';
import { call } from '../../../runtime/src/api/http';
import { PanelHeader } from '../../../runtime/src/crud/widgets/PanelHeader';

interface Perfil { login: string; nome: string; email: string | null }

export default function PerfilScreen() {
  const notify = useNotify();
  const logout = useLogout();
  const [perfil, setPerfil] = useState<Perfil>();
  const [error, setError] = useState<string>();
  const [senha, setSenha] = useState({ senhaAtual: '', novaSenha: '', confirmacao: '' });
  const [senhaError, setSenhaError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => { call<Perfil>('/api/usuario/perfil').then(setPerfil, (e: Error) => setError(e.message)); }, []);

  const salvar = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      setPerfil(await call<Perfil>('/api/usuario/perfil', { method: 'PUT', body: JSON.stringify({ nome: perfil!.nome, email: perfil!.email ?? '' }) }));
      notify('Perfil salvo', { type: 'success', autoHideDuration: 3000 });
    } catch (err) {
      setError((err as Error).message);
    } finally { setBusy(false); }
  };
  const alterarSenha = async (e: React.FormEvent) => {
    e.preventDefault();
    setSenhaError(undefined);
    if (senha.novaSenha !== senha.confirmacao) return setSenhaError('A confirmação não confere com a nova senha');
    setBusy(true);
    try {
      await call('/api/auth/changepwd', { method: 'POST', body: JSON.stringify(senha) });
      notify('Senha alterada com sucesso. Entre novamente com a nova senha.', { type: 'success', autoHideDuration: 5000 });
      await logout();
    } catch (err) {
      setSenhaError((err as Error).message);
    } finally { setBusy(false); }
  };

  return (
    <Card sx={{ m: 2, maxWidth: 720 }}>
      <Title title="Meu perfil" />
      <CardContent>
        <PanelHeader title="Meu perfil" />
        {!perfil ? (error ? <Alert severity="error">{error}</Alert> : <Typography color="text.secondary">Aguarde montando dados...</Typography>) : (
          <Stack component="form" onSubmit={salvar} spacing={2} sx={{ mt: 2 }}>
            <TextField label="Login" value={perfil.login} disabled />
            <TextField label="Nome" required value={perfil.nome} onChange={(e) => setPerfil({ ...perfil, nome: e.target.value })} />
            <TextField label="E-mail" type="email" value={perfil.email ?? ''} onChange={(e) => setPerfil({ ...perfil, email: e.target.value })} />
            {error && <Alert severity="error">{error}</Alert>}
            <Box><Button type="submit" variant="contained" disabled={busy}>Salvar</Button></Box>
          </Stack>
        )}
        <Divider sx={{ my: 3 }} />
        <Typography variant="h6" component="h2">Alterar senha</Typography>
        <Typography variant="body2" color="text.secondary">Ao alterar a senha, todas as suas sessões são encerradas e é preciso entrar novamente.</Typography>
        <Stack component="form" onSubmit={alterarSenha} spacing={2} sx={{ mt: 2 }}>
          <TextField label="Senha atual" type="password" autoComplete="current-password" required value={senha.senhaAtual} onChange={(e) => setSenha({ ...senha, senhaAtual: e.target.value })} />
          <TextField label="Nova senha" type="password" autoComplete="new-password" required value={senha.novaSenha} onChange={(e) => setSenha({ ...senha, novaSenha: e.target.value })} />
          <TextField label="Confirmar senha" type="password" autoComplete="new-password" required value={senha.confirmacao} onChange={(e) => setSenha({ ...senha, confirmacao: e.target.value })} />
          {senhaError && <Alert severity="error">{senhaError}</Alert>}
          <Box><Button type="submit" variant="outlined" disabled={busy}>Alterar senha</Button></Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
