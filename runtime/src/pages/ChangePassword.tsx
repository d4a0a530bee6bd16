// /alterar_senha/:id (public): the link of the recovery e-mail; new password + confirmation.
import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useNavigate, useParams } from 'react-router-dom';
import { call } from '../api/http';
import { fullHeight } from '../layout/zoom';

export function ChangePassword() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [valid, setValid] = useState<boolean | null>(null);
  const [nova, setNova] = useState('');
  const [confirmacao, setConfirmacao] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    call<{ valido: boolean }>(`/api/auth/token_valido?token=${encodeURIComponent(id)}`).then(
      (p) => setValid(!!p?.valido),
      () => setValid(false),
    );
  }, [id]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (nova !== confirmacao) return setError('A confirmação não confere com a nova senha');
    setBusy(true);
    try {
      await call('/api/auth/changepwd', { method: 'POST', body: JSON.stringify({ token: id, novaSenha: nova, confirmacao }) });
      setDone('Senha alterada com sucesso');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ minHeight: fullHeight(), display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'linear-gradient(135deg, #063447 0%, #0b4f6c 55%, #3d7a96 100%)' }}>
      <Card sx={{ width: 400, maxWidth: '92vw' }}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h5" sx={{ fontWeight: 700, color: 'primary.main', mb: 2 }}>
            Alterar senha
          </Typography>
          {valid === null ? (
            <Typography color="text.secondary">Aguarde montando dados...</Typography>
          ) : done ? (
            <>
              <Alert severity="success">{done}</Alert>
              <Button sx={{ mt: 2 }} variant="contained" onClick={() => navigate('/login')}>Entrar</Button>
            </>
          ) : !valid ? (
            <>
              <Alert severity="error">Link de recuperação inválido ou expirado</Alert>
              <Button sx={{ mt: 2 }} onClick={() => navigate('/login')}>Voltar</Button>
            </>
          ) : (
            <Box component="form" onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
              <TextField label="Nova senha" type="password" autoComplete="new-password" required value={nova} onChange={(e) => setNova(e.target.value)} />
              <TextField label="Confirmar senha" type="password" autoComplete="new-password" required value={confirmacao} onChange={(e) => setConfirmacao(e.target.value)} />
              {error && <Alert severity="error">{error}</Alert>}
              <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 1 }}>Salvar</Button>
            </Box>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
