// Taking and closing an alarm (the console /tlm/evt/console_de_alarmes). An alarm is an event of telemetria.evento
// whose event-library entry (biblioteca_evento, by key) has a risk; its id is `serial|fix time in ms|code`.
//  - POST /api/alarmes/assumir { id }: one treatment row (tratamento_alarme, unique per company and alarm) with the
//    user and time; a second take answers 409 naming who holds it. Another company's alarm: 404.
//  - POST /api/alarmes/liberar { id }: the taker gives it back (e.g. end of shift): open again for anyone to take.
//  - POST /api/alarmes/encerrar { id, tratamento }: the taker writes what was done and closes it (user and time).
// Every step is appended to the row's `passos` ({ acao, usuarioId, usuario, em[, tratamento] }).
// After each step the serial is published on the latest-state bus, so every console of the company (any API
// process) gets the alarm's row again through the live push of the provider `alarme` (server/realtime/live.ts).
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { biblioteca_evento as bib, tratamento_alarme as ta, usuario as us } from '../../../server/generated/columns.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { companySql, qParams, scopeSql } from '../../../server/tenancy/scope.ts';
import { publicarSerial } from './publicar.ts';
import { requestEm } from '../../../server/db/context.ts';

export const MSG = {
  naoEncontrado: 'Alarme não encontrado',
  jaAssumido: (nome: string) => `Este alarme já foi assumido por ${nome}`,
  jaEncerrado: 'Este alarme já foi encerrado',
  naoAssumido: 'Assuma o alarme antes de encerrá-lo',
  naoAssumidoLiberar: 'Este alarme não está em tratamento',
  deOutroLiberar: (nome: string) => `Este alarme está em tratamento por ${nome}; só quem o assumiu pode liberá-lo`,
  deOutro: (nome: string) => `Este alarme está em tratamento por ${nome}; só quem o assumiu pode encerrá-lo`,
  tratamentoObrigatorio: 'O campo Tratamento é obrigatório',
  idInvalido: 'Identificador de alarme inválido',
};

export interface AlarmeId { serial: string; ms: number; code: string; id: string }

export function parseAlarmeId(v: unknown): AlarmeId {
  if (typeof v !== 'string' || v.length > 200) throw badRequest(MSG.idInvalido);
  const m = /^(.+)\|(\d{1,15})\|([^|]+)$/.exec(v);
  if (!m) throw badRequest(MSG.idInvalido);
  return { serial: m[1]!, ms: Number(m[2]), code: m[3]!, id: v };
}

async function body(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const b = await c.req.json().catch(() => null);
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('Corpo da requisição inválido');
  return b as Record<string, unknown>;
}

const exec = (c: Context<AppEnv>, sql: string, values: unknown[]) =>
  requestEm(c).getConnection().execute(sql, values) as Promise<Record<string, unknown>[]>;

/** The company's alarm event of this id (with its library label and risk), or 404. */
async function alarmeDaEmpresa(c: Context<AppEnv>, a: AlarmeId) {
  const p = qParams();
  const at = new Date(a.ms);
  const rows = await exec(c, `SELECT e.serial, e.fix_time, e.code, e.key, e.ativo_id, b.${bib.risk} AS risco,
      coalesce(nullif(b.${bib.description}, ''), nullif(e.description, ''), e.key) AS descricao
    FROM telemetria.evento e
    JOIN LATERAL (SELECT x.${bib.risk}, x.${bib.description} FROM ${bib.table} x WHERE x.${bib.event} = e.key AND x.${bib.risk} IS NOT NULL
      ORDER BY CASE x.${bib.risk} WHEN 'alto' THEN 0 WHEN 'médio' THEN 1 ELSE 2 END, x.${bib.id} LIMIT 1) b ON true
    WHERE ${companySql('e', c.get('session').empresaAtiva, p)} AND e.serial = ${p.add(a.serial)} AND e.code = ${p.add(a.code)}
      AND e.fix_time >= ${p.add(new Date(a.ms - 1))} AND e.fix_time < ${p.add(new Date(at.getTime() + 1))}
      AND (extract(epoch FROM e.fix_time) * 1000)::bigint = ${p.add(a.ms)}`, p.values);
  if (!rows.length) throw new HttpError(404, MSG.naoEncontrado);
  return rows[0]!;
}

/** The company's treatment row of this alarm with the takers' names, or null. */
async function tratamento(c: Context<AppEnv>, a: AlarmeId) {
  const p = qParams();
  const rows = await exec(c, `SELECT t.${ta.id} AS id, t.${ta.situacao} AS situacao, t.${ta.assumidoPor} AS "assumidoPorId",
      t.${ta.assumidoPorNome} AS "assumidoPor", t.${ta.assumidoEm} AS "assumidoEm", t.${ta.tratamento} AS tratamento,
      t.${ta.encerradoPor} AS "encerradoPorId", t.${ta.encerradoEm} AS "encerradoEm", t.${ta.passos} AS passos
    FROM ${ta.table} t
    WHERE ${scopeSql(entityByKey('tratamento_alarme')!, c.get('session'), 't', p)} AND t.${ta.alarme} = ${p.add(a.id)}`, p.values);
  return rows[0] ?? null;
}

/** The caller's name (the register of users, in the request's ambiente). */
async function nomeDoUsuario(c: Context<AppEnv>): Promise<string> {
  const s = c.get('session');
  const p = qParams();
  const r = await exec(c, `SELECT u.${us.nome} AS nome FROM ${us.table} u WHERE u.${us.id} = ${p.add(s.usuarioId)} AND ${scopeSql(entityByKey('usuario')!, s, 'u', p)}`, p.values);
  return String(r[0]?.nome ?? s.login);
}

export function alarmeRoutes(api: Hono<AppEnv>) {
  const spec = { permission: ['tlm.evt.console_de_alarmes' as const], scope: 'empresa' as const };

  route(api, 'post', '/alarmes/assumir', spec, async (c) => {
    const a = parseAlarmeId((await body(c)).id);
    const s = c.get('session');
    const ev = await alarmeDaEmpresa(c, a);
    const nome = await nomeDoUsuario(c);
    const p = qParams();
    const passo = (JSON.stringify([{ acao: 'assumido', usuarioId: s.usuarioId, usuario: nome, em: new Date().toISOString() }]));
    // a released alarm is taken again on the same row (its steps go on)
    const ins = await exec(c, `INSERT INTO ${ta.table} AS t (${COLS.join(', ')}, ${ta.passos})
      VALUES (${[s.empresaAtiva, a.id, a.serial, ev.fix_time, a.code, ev.key, ev.descricao, ev.risco, ev.ativo_id, 'assumido', s.usuarioId, nome].map((v) => p.add(v)).join(', ')}, now(), now(), now(), ${p.add(passo)}::jsonb)
      ON CONFLICT (${ta.empresaId}, ${ta.alarme}) DO UPDATE SET ${ta.situacao} = 'assumido', ${ta.assumidoPor} = excluded.${ta.assumidoPor},
        ${ta.assumidoPorNome} = excluded.${ta.assumidoPorNome}, ${ta.assumidoEm} = now(), ${ta.updatedAt} = now(),
        ${ta.passos} = coalesce(t.${ta.passos}, '[]'::jsonb) || excluded.${ta.passos}
        WHERE t.${ta.situacao} = 'liberado'
      RETURNING t.${ta.id} AS id`, p.values);
    if (!ins.length) {
      const t = await tratamento(c, a);
      throw new HttpError(409, t?.situacao === 'encerrado' ? MSG.jaEncerrado : MSG.jaAssumido(String(t?.assumidoPor ?? 'outro usuário')), t);
    }
    await publicarSerial(c, s.empresaAtiva, a.serial);
    return ok(c, await tratamento(c, a), 'Alarme assumido');
  });

  route(api, 'post', '/alarmes/encerrar', spec, async (c) => {
    const b = await body(c);
    const a = parseAlarmeId(b.id);
    const texto = typeof b.tratamento === 'string' ? b.tratamento.trim() : '';
    if (!texto) throw badRequest(MSG.tratamentoObrigatorio);
    if (texto.length > 2000) throw badRequest('O campo Tratamento deve ter no máximo 2000 caracteres');
    const s = c.get('session');
    await alarmeDaEmpresa(c, a);
    const nome = await nomeDoUsuario(c);
    const p = qParams();
    const passo = (JSON.stringify([{ acao: 'encerrado', usuarioId: s.usuarioId, usuario: nome, em: new Date().toISOString(), tratamento: texto }]));
    const up = await exec(c, `UPDATE ${ta.table} t SET ${ta.situacao} = 'encerrado', ${ta.tratamento} = ${p.add(texto)},
        ${ta.encerradoPor} = ${p.add(s.usuarioId)}, ${ta.encerradoEm} = now(), ${ta.updatedAt} = now(),
        ${ta.passos} = coalesce(t.${ta.passos}, '[]'::jsonb) || ${p.add(passo)}::jsonb
      WHERE ${scopeSql(entityByKey('tratamento_alarme')!, s, 't', p)} AND t.${ta.alarme} = ${p.add(a.id)}
        AND t.${ta.situacao} = 'assumido' AND t.${ta.assumidoPor} = ${p.add(s.usuarioId)} RETURNING t.${ta.id}`, p.values);
    if (!up.length) {
      const t = await tratamento(c, a);
      if (!t || t.situacao === 'liberado') throw new HttpError(409, MSG.naoAssumido);
      if (t.situacao === 'encerrado') throw new HttpError(409, MSG.jaEncerrado, t);
      throw new HttpError(409, MSG.deOutro(String(t.assumidoPor ?? 'outro usuário')), t);
    }
    await publicarSerial(c, s.empresaAtiva, a.serial);
    return ok(c, await tratamento(c, a), 'Alarme encerrado');
  });

  route(api, 'post', '/alarmes/liberar', spec, async (c) => {
    const a = parseAlarmeId((await body(c)).id);
    const s = c.get('session');
    await alarmeDaEmpresa(c, a);
    const nome = await nomeDoUsuario(c);
    const p = qParams();
    const passo = (JSON.stringify([{ acao: 'liberado', usuarioId: s.usuarioId, usuario: nome, em: new Date().toISOString() }]));
    const up = await exec(c, `UPDATE ${ta.table} t SET ${ta.situacao} = 'liberado', ${ta.updatedAt} = now(),
        ${ta.passos} = coalesce(t.${ta.passos}, '[]'::jsonb) || ${p.add(passo)}::jsonb
      WHERE ${scopeSql(entityByKey('tratamento_alarme')!, s, 't', p)} AND t.${ta.alarme} = ${p.add(a.id)}
        AND t.${ta.situacao} = 'assumido' AND t.${ta.assumidoPor} = ${p.add(s.usuarioId)} RETURNING t.${ta.id}`, p.values);
    if (!up.length) {
      const t = await tratamento(c, a);
      if (!t || t.situacao === 'liberado') throw new HttpError(409, MSG.naoAssumidoLiberar);
      if (t.situacao === 'encerrado') throw new HttpError(409, MSG.jaEncerrado, t);
      throw new HttpError(409, MSG.deOutroLiberar(String(t.assumidoPor ?? 'outro usuário')), t);
    }
    await publicarSerial(c, s.empresaAtiva, a.serial);
    return ok(c, await tratamento(c, a), 'Alarme liberado');
  });
}

const COLS = [ta.empresaId, ta.alarme, ta.serial, ta.dataEvento, ta.codigo, ta.evento, ta.descricao, ta.risco, ta.ativo,
  ta.situacao, ta.assumidoPor, ta.assumidoPorNome, ta.assumidoEm, ta.createdAt, ta.updatedAt];
