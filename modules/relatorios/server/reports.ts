// A report request against its declaration (model.relatorios, metadata kind relatorio): the family and kind, the
// parameters checked by the kind's JSON Schema (the same the screen's form uses), the columns among the allowed ones,
// and its rows read by the read engine (server/read/provider.ts: the declared SQL, the company condition of the
// session's company, ORDER BY and LIMIT/OFFSET in SQL).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProviderMeta } from '../../../shared/model.ts';
import type { ReportColumnMeta, ReportFamilyMeta, ReportKindMeta } from '../../../shared/relatorio.ts';
import type { Session } from '../../../server/app/env.ts';
import { getModel } from '../../../server/core/registry.ts';
import { HttpError, badRequest } from '../../../server/http/envelope.ts';
import { readDeclared, readDeclaredBatches } from '../../../server/read/provider.ts';
import { compile, messages } from '../../../server/crud/validation.ts';

export interface ReportRequest {
  familia: string;
  tipo: string;
  /** The form's values: { periodo: { inicio, fim }, ativos?: number[], … } */
  params: Record<string, unknown>;
  /** Column names (default: the kind's default columns). */
  colunas?: string[];
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /** IANA time zone of dates and hours (default America/Sao_Paulo). */
  fuso?: string;
}

export interface ResolvedReport {
  family: ReportFamilyMeta;
  kind: ReportKindMeta;
  columns: ReportColumnMeta[];
  /** Values bound to the SQL's {param:x}. */
  bind: Record<string, unknown>;
  sort: { field: string; order: 'ASC' | 'DESC' };
  fuso: string;
}

export const DEFAULT_FUSO = 'America/Sao_Paulo';

export const families = (): ReportFamilyMeta[] => getModel().relatorios ?? [];

export function findReport(familia: string, tipo: string): { family: ReportFamilyMeta; kind: ReportKindMeta } {
  const family = families().find((f) => f.key === familia);
  const kind = family?.tipos.find((t) => t.key === tipo);
  if (!family || !kind) throw new HttpError(404, 'Relatório não encontrado');
  return { family, kind };
}

function checkFuso(fuso: string | undefined): string {
  const tz = fuso || DEFAULT_FUSO;
  try { new Intl.DateTimeFormat('pt-BR', { timeZone: tz }); } catch { throw badRequest(`Fuso horário inválido: ${tz}`); }
  return tz;
}

/** The parameters checked by the kind's schema (pt-BR messages), then the period's order and length. */
export function checkParams(family: ReportFamilyMeta, kind: ReportKindMeta, raw: unknown): Record<string, unknown> {
  const params = raw ?? {};
  if (typeof params !== 'object' || Array.isArray(params)) throw badRequest('Parâmetros do relatório inválidos');
  const v = compile(`relatorio:${family.key}.${kind.key}`, kind.schema);
  if (!v(params)) {
    const errs = messages(v.errors ?? [], kind.schema, { fields: [] } as never);
    throw new HttpError(400, errs[0]?.message ?? 'Parâmetros do relatório inválidos', errs, 'Erro de validação');
  }
  const p = params as Record<string, unknown>;
  const periodo = kind.params.find((x) => x.type === 'periodo')!;
  const { inicio, fim } = p.periodo as { inicio: string; fim: string };
  const a = Date.parse(inicio), b = Date.parse(fim);
  if (!(b > a)) throw badRequest('Período inválido: o fim deve ser depois do início');
  if (b - a > periodo.maxDias! * 86_400_000 + 60_000) throw badRequest(`O período máximo deste relatório é de ${periodo.maxDias} dias`);
  return p;
}

export function checkColumns(kind: ReportKindMeta, names: string[] | undefined): ReportColumnMeta[] {
  if (names === undefined) return kind.columns.filter((c) => c.default);
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw badRequest('Colunas inválidas');
  if (!names.length) throw badRequest('Escolha ao menos uma coluna');
  return [...new Set(names)].map((n) => {
    const c = kind.columns.find((x) => x.name === n);
    if (!c) throw badRequest(`Coluna não permitida neste relatório: ${n}`);
    return c;
  });
}

/** The request checked against the declaration: 404 unknown report, 400 bad parameters/columns/sort. */
export function resolveReport(req: ReportRequest): ResolvedReport {
  const { family, kind } = findReport(req.familia, req.tipo);
  const params = checkParams(family, kind, req.params);
  const columns = checkColumns(kind, req.colunas);
  const sort = req.sort ?? kind.sort;
  if (!kind.columns.some((c) => c.sortable && c.name === sort.field)) throw badRequest(`Campo de ordenação desconhecido: ${sort.field}`);
  const fuso = checkFuso(req.fuso);
  const bind: Record<string, unknown> = { fuso };
  for (const p of kind.params) {
    const v = params[p.name];
    if (p.type === 'periodo') {
      const per = v as { inicio: string; fim: string };
      bind.inicio = new Date(per.inicio).toISOString();
      bind.fim = new Date(per.fim).toISOString();
    } else if (p.type === 'registros') {
      bind[p.name] = Array.isArray(v) && v.length ? v : null;
    } else {
      bind[p.name] = v ?? p.default;
    }
  }
  return { family, kind, columns, bind, sort: { field: sort.field, order: sort.order === 'DESC' ? 'DESC' : 'ASC' }, fuso };
}

const providers = new Map<string, ProviderMeta>();
/** The kind as a declared provider of the read engine (its columns, sort and SQL). */
export function providerOf(family: ReportFamilyMeta, kind: ReportKindMeta): ProviderMeta {
  const key = `relatorio.${family.key}.${kind.key}`;
  let p = providers.get(key);
  if (!p || p.sql !== kind.sql) {
    p = {
      key, file: family.file, area: family.area, label: `${family.label}: ${kind.label}`, one: false, permission: [family.permission],
      scope: 'empresa', params: [], filters: [], calls: [], sort: kind.sort, sql: kind.sql,
      columns: kind.columns.map((c) => ({ name: c.name, label: c.label, type: c.type === 'datetime' ? 'datetime' : 'string', sortable: c.sortable, default: c.default })),
    };
    providers.set(key, p);
  }
  return p;
}

/** One page of the report's rows and the total, in the session's company. */
export async function readReport(em: EntityManager, session: Session, r: ResolvedReport, offset: number, limit: number): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const meta = providerOf(r.family, r.kind);
  const { rows, total } = await readDeclared(em, meta, meta.sql!, { params: r.bind as Record<string, string | number>, filter: {}, sort: r.sort, offset, limit }, session.empresaAtiva);
  const pick = picker(r);
  return { rows: rows.map(pick), total };
}

const picker = (r: ResolvedReport) => {
  const names = new Set(['id', ...r.columns.map((c) => c.name)]);
  return (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).filter(([k]) => names.has(k)));
};

/** All of the report's rows in batches (one statement through a cursor: exports), in the session's company. */
export async function* readReportBatches(em: EntityManager, session: Session, r: ResolvedReport): AsyncGenerator<Record<string, unknown>[]> {
  const meta = providerOf(r.family, r.kind);
  const pick = picker(r);
  for await (const rows of readDeclaredBatches(em, meta, meta.sql!, { params: r.bind as Record<string, string | number>, filter: {}, sort: r.sort }, session.empresaAtiva)) yield rows.map(pick);
}
