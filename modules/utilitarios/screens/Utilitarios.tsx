// Utilitários (/adm/sis/integracao/utilitarios): CEP → endereço (GET /api/util/cep/{cep}), valor por extenso
// (GET /api/util/extenso/{valor}) and, with the key adm.sis.integracao.utilitarios.placas, the vehicle data of a plate
// (GET /api/wkd/adm/api_placas/consulta/{placa}). Each card asks on Enter or its button and shows the answer or the
// server's pt-BR message.
import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, Stack, Table, TableBody, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { call } from '../../../runtime/src/api/http';
import { useCan } from '../../../runtime/src/crud/lib/useCan';

type Answer<T> = { ok: T } | { erro: string } | undefined;

function useAsk<T>(path: (v: string) => string) {
  const [answer, setAnswer] = useState<Answer<T>>();
  const [busy, setBusy] = useState(false);
  const ask = async (v: string) => {
    if (!v.trim()) return;
    setBusy(true);
    try { setAnswer({ ok: await call<T>(path(v.trim())) }); } catch (e) { setAnswer({ erro: (e as Error).message }); } finally { setBusy(false); }
  };
  return { answer, busy, ask };
}

function Consulta<T>({ title, label, placeholder, help, path, render, testId }: {
  title: string; label: string; placeholder: string; help: string; path: (v: string) => string; render: (x: T) => ReactNode; testId: string;
}) {
  const [value, setValue] = useState('');
  const { answer, busy, ask } = useAsk<T>(path);
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent>
        <Typography variant="h6" gutterBottom>{title}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>{help}</Typography>
        <Stack direction="row" spacing={1} alignItems="flex-start">
          <TextField size="small" label={label} placeholder={placeholder} value={value} onChange={(e) => setValue(e.target.value)}
            onKeyDown={(e) => { if (e.key === 'Enter') void ask(value); }} sx={{ minWidth: 220 }} />
          <Button variant="contained" disabled={busy || !value.trim()} onClick={() => void ask(value)}>Consultar</Button>
        </Stack>
        <Box sx={{ mt: 2 }}>
          {answer && 'erro' in answer && <Alert severity="warning">{answer.erro}</Alert>}
          {answer && 'ok' in answer && render(answer.ok)}
        </Box>
      </CardContent>
    </Card>
  );
}

const Fields = ({ rows }: { rows: [string, string | undefined][] }) => (
  <Table size="small"><TableBody>
    {rows.filter(([, v]) => v).map(([k, v]) => <TableRow key={k}><TableCell sx={{ width: 180, color: 'text.secondary' }}>{k}</TableCell><TableCell>{v}</TableCell></TableRow>)}
  </TableBody></Table>
);

interface Cep { cep: string; logradouro: string; complemento: string; bairro: string; localidade: string; uf: string; estado: string; ibge: string; ddd: string; fonte: string }
interface Extenso { valor: number; extenso: string }
interface Veiculo { placa: string; formato: string; marca: string; modelo: string; ano: string; anoModelo: string; cor: string; municipio: string; uf: string; situacao: string; chassi: string }

export default function UtilitariosScreen() {
  const { can } = useCan();
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Utilitários" />
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>Utilitários</Typography>
      <Stack spacing={2} sx={{ maxWidth: 900 }}>
        <Consulta<Cep> testId="util-cep" title="Endereço pelo CEP" label="CEP" placeholder="01001-000"
          help="O endereço do CEP pelo serviço configurado; sem ele, a UF e a capital pela faixa do CEP."
          path={(v) => `/util/cep/${encodeURIComponent(v)}`}
          render={(c) => (
            <>
              {c.fonte === 'tabela' && <Chip size="small" color="warning" label="Serviço de CEP indisponível: UF pela faixa do CEP" sx={{ mb: 1 }} />}
              <Fields rows={[['CEP', c.cep], ['Logradouro', c.logradouro], ['Complemento', c.complemento], ['Bairro', c.bairro],
                ['Cidade', c.localidade], ['UF', c.uf && `${c.uf} — ${c.estado}`], ['Código IBGE', c.ibge], ['DDD', c.ddd]]} />
            </>
          )} />
        <Consulta<Extenso> testId="util-extenso" title="Valor por extenso" label="Valor" placeholder="1234,50"
          help="O valor em reais escrito por extenso, como nas notas e faturas."
          path={(v) => `/util/extenso/${encodeURIComponent(v)}`}
          render={(x) => <Typography sx={{ fontSize: 18 }} data-testid="extenso-texto">{x.extenso}</Typography>} />
        {can('adm.sis.integracao.utilitarios.placas') && (
          <Consulta<Veiculo> testId="util-placa" title="Consulta de placa" label="Placa" placeholder="ABC1D23"
            help="Os dados do veículo pela placa (formato antigo ABC1234 ou Mercosul ABC1D23) no serviço configurado."
            path={(v) => `/wkd/adm/api_placas/consulta/${encodeURIComponent(v)}`}
            render={(v) => <Fields rows={[['Placa', `${v.placa} (${v.formato === 'mercosul' ? 'Mercosul' : 'formato antigo'})`], ['Marca', v.marca], ['Modelo', v.modelo],
              ['Ano', [v.ano, v.anoModelo].filter(Boolean).join('/')], ['Cor', v.cor], ['Município', v.municipio && `${v.municipio}/${v.uf}`], ['Situação', v.situacao], ['Chassi', v.chassi]]} />} />
        )}
      </Stack>
    </Box>
  );
}
