// /home: the operator's overview. Each group of numbers comes from its own call (GET /api/home/...), made only when
// the user holds the key of the list its cards open: the fleet now (modules/inicio: moving / stopped / off / without
// communication, refreshed by the socket's `estado_frota` push and when the next vehicle falls silent), today (distance,
// alarms), what waits (commands, devices pending registration); then, for administrators, the registers' counters
// by menu section (GET /api/home/resumo), zeros de-emphasised. The user's shortcuts come first (layout/Atalhos.tsx).
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Box, Card, CardActionArea, CardContent, Grid, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { Link } from 'react-router-dom';
import { call } from '../api/http';
import { useCan } from '../crud/lib/useCan';
import { useSession } from '../layout/CompanyPicker';
import { onPush } from '../layout/Realtime';
import { AtalhosHome } from '../layout/Atalhos';

interface Count { key: string; label: string; total: number; route?: string; secao?: string }
interface Frota {
  emMovimento: number; parado: number; desligado: number; semComunicacao: number; total: number;
  distanciaHoje: number; alarmesHoje: number; semComunicacaoMin: number; proximaMudanca: string | null;
}

const MONITORAMENTO = '/rel/ges/gestao_a_vista/monitoramento';
const FILA = '/adm/con/controle';
const PENDENTES = '/adm/cfg/equipamentos/pendentes';
const fmt = (n: number, digits = 0) => n.toLocaleString('pt-BR', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Register counters grouped by their menu section, in the order the server gives. */
export function bySection(counts: Count[]): [string, Count[]][] {
  const out = new Map<string, Count[]>();
  for (const c of counts) {
    const k = c.secao || 'Outros';
    if (!out.has(k)) out.set(k, []);
    out.get(k)!.push(c);
  }
  return [...out.entries()];
}

function Stat({ id, value, label, hint, to, color }: { id: string; value: string | null; label: string; hint?: string; to?: string; color?: string }) {
  const body = (
    <CardContent sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
      <Box sx={{ width: 6, alignSelf: 'stretch', borderRadius: 1, bgcolor: color ?? 'primary.main' }} />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h4" sx={{ fontWeight: 700, lineHeight: 1.1 }} data-testid={`card-${id}`}>{value ?? '…'}</Typography>
        <Typography sx={{ fontWeight: 500 }}>{label}</Typography>
        {hint && <Typography variant="caption" color="text.secondary">{hint}</Typography>}
      </Box>
    </CardContent>
  );
  return (
    <Grid size={{ xs: 12, sm: 6, md: 3 }}>
      <Card sx={{ height: '100%' }}>
        {to ? <CardActionArea component={Link} to={to} sx={{ height: '100%' }} data-card={id}>{body}</CardActionArea> : body}
      </Card>
    </Grid>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mb: 3 }}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ textTransform: 'uppercase', letterSpacing: 0.6, mb: 1 }}>{title}</Typography>
      <Grid container spacing={2}>{children}</Grid>
    </Box>
  );
}

export function Home() {
  const user = useSession();
  const { can, isPending } = useCan();
  const empresaAtiva = user?.empresaAtiva;
  const verFrota = can('rel.ges.gestao_a_vista.monitoramento');
  const verComandos = can('adm.cfg.equipamentos.fila_processamento.lista');
  const verPendentes = can('adm.cfg.equipamentos.pendentes.lista');
  const [frota, setFrota] = useState<Frota | null>(null);
  const [comandos, setComandos] = useState<number | null>(null);
  const [pendentes, setPendentes] = useState<number | null>(null);
  const [counts, setCounts] = useState<Count[] | null>(null);

  const loadFrota = useCallback(() => {
    if (verFrota) call('/api/home/frota').then((p) => setFrota(p as Frota), () => undefined);
  }, [verFrota]);

  useEffect(() => {
    if (isPending) return;
    setFrota(null); setComandos(null); setPendentes(null);
    loadFrota();
    if (verComandos) call('/api/home/comandos').then((p) => setComandos(Number((p as { pendentes: number }).pendentes)), () => undefined);
    if (verPendentes) call('/api/home/pendentes').then((p) => setPendentes(Number((p as { equipamentos: number }).equipamentos)), () => undefined);
    call('/api/home/resumo').then((p) => setCounts(((p as { contagens?: Count[] })?.contagens) ?? []), () => setCounts([]));
  }, [empresaAtiva, isPending, verFrota, verComandos, verPendentes, loadFrota]);

  // Pushed: a device of this company reported (ultimo_estado changed).
  useEffect(() => onPush('estado_frota', (p) => {
    const e = Number((p as { empresaId?: number } | undefined)?.empresaId);
    if (!Number.isFinite(e) || e === empresaAtiva) loadFrota();
  }), [empresaAtiva, loadFrota]);

  // Nothing is written when a vehicle falls silent: read again when the next one does.
  useEffect(() => {
    if (!frota?.proximaMudanca) return;
    const ms = Math.max(1000, Date.parse(frota.proximaMudanca) - Date.now() + 1000);
    if (ms > 2 ** 31 - 1) return;
    const t = setTimeout(loadFrota, ms);
    return () => clearTimeout(t);
  }, [frota?.proximaMudanca, loadFrota]);

  const empresa = user?.empresas.find((e) => e.id === empresaAtiva)?.fantasia;
  const v = (n: number | undefined) => (frota && n !== undefined ? fmt(n) : null);
  const janela = frota?.semComunicacaoMin ?? 10;
  const groups = bySection(counts ?? []);
  return (
    <Box>
      <Title title="Início" />
      <Typography variant="h5" sx={{ fontWeight: 600, mt: 1 }}>
        Bem-vindo ao Rastro{user?.nome ? `, ${user.nome}` : ''}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {empresa ? `Resumo da empresa ${empresa}` : 'Resumo da empresa ativa'}
      </Typography>
      <AtalhosHome />
      {verFrota && (
        <Group title={frota ? `Frota agora (${fmt(frota.total)} veículos)` : 'Frota agora'}>
          <Stat id="emMovimento" value={v(frota?.emMovimento)} label="Em movimento" hint="Ignição ligada e velocidade acima de 0" to={`${MONITORAMENTO}/em_movimento`} color="success.main" />
          <Stat id="parado" value={v(frota?.parado)} label="Parados" hint="Ignição ligada, velocidade 0" to={`${MONITORAMENTO}/parados`} color="warning.main" />
          <Stat id="desligado" value={v(frota?.desligado)} label="Desligados" hint="Ignição desligada" to={`${MONITORAMENTO}/desligados`} color="error.main" />
          <Stat id="semComunicacao" value={v(frota?.semComunicacao)} label="Sem comunicação" hint={`Sem relatório há mais de ${janela} min`} to={`${MONITORAMENTO}/sem_comunicacao`} color="grey.500" />
        </Group>
      )}
      {(verFrota || verComandos || verPendentes) && (
        <Group title="Hoje e pendências">
          {verFrota && <Stat id="distanciaHoje" value={frota ? `${fmt(frota.distanciaHoje, 1)} km` : null} label="Distância percorrida hoje" hint="Desde 0 h, pelas posições recebidas"
            to={`${MONITORAMENTO}/todos?sort=distanciaHoje&order=DESC`} />}
          {verFrota && <Stat id="alarmesHoje" value={v(frota?.alarmesHoje)} label="Alarmes hoje" hint="Eventos pontuados desde 0 h" to={`${MONITORAMENTO}/com_alarme`} color="error.dark" />}
          {verComandos && <Stat id="comandosPendentes" value={comandos === null ? null : fmt(comandos)} label="Comandos pendentes" hint="Aguardando envio ou resposta"
            to={`${FILA}?filter=${encodeURIComponent(JSON.stringify({ status: ['pendente', 'enviado'] }))}`} color="info.main" />}
          {verPendentes && <Stat id="equipamentosPendentes" value={pendentes === null ? null : fmt(pendentes)} label="Equipamentos pendentes de cadastro" hint="Seriais que enviam mensagens sem cadastro"
            to={PENDENTES} color="secondary.main" />}
        </Group>
      )}
      {groups.length > 0 && (
        <Box component="section" aria-label="Cadastros" sx={{ mt: 1 }}>
          <Typography variant="subtitle2" color="text.secondary" sx={{ textTransform: 'uppercase', letterSpacing: 0.6, mb: 1 }}>Cadastros</Typography>
          <Grid container spacing={2}>
            {groups.map(([secao, items]) => (
              <Grid key={secao} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
                <Card sx={{ height: '100%' }} data-secao={secao}>
                  <CardContent sx={{ pb: '12px !important' }}>
                    <Typography variant="subtitle2" sx={{ fontWeight: 600, mb: 0.5 }}>{secao}</Typography>
                    {items.map((c) => (
                      <Box key={c.key} component={c.route ? Link : 'div'} to={c.route} data-count={c.key}
                        sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, py: 0.25, color: c.total ? 'text.primary' : 'text.disabled', textDecoration: 'none', '&:hover': { textDecoration: c.route ? 'underline' : 'none' } }}>
                        <span>{c.label}</span>
                        <Box component="span" sx={{ fontWeight: c.total ? 700 : 400 }} data-testid={`count-${c.key}`}>{fmt(c.total)}</Box>
                      </Box>
                    ))}
                  </CardContent>
                </Card>
              </Grid>
            ))}
          </Grid>
        </Box>
      )}
      {!isPending && !verFrota && !verComandos && !verPendentes && counts?.length === 0 && (
        <Typography color="text.secondary">Nenhum item foi encontrado</Typography>
      )}
    </Box>
  );
}
