// How a report cell reads in pt-BR (the screen's table, the PDF and the CSV): dates DD/MM/YYYY, durations HH:MM:SS,
// numbers with a decimal comma and the column's decimals.
import type { ReportColumnMeta } from './relatorio.ts';

/** Column header with its unit: 'Distância (km)'. */
export const columnTitle = (c: Pick<ReportColumnMeta, 'label' | 'unit'>) => (c.unit ? `${c.label} (${c.unit})` : c.label);

const pad = (n: number) => String(n).padStart(2, '0');
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
export const dateBr = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v.slice(8, 10)}/${v.slice(5, 7)}/${v.slice(0, 4)}` : v);

export function dateTimeBr(v: string | Date, timeZone: string): string {
  const d = typeof v === 'string' ? new Date(v) : v;
  if (Number.isNaN(d.getTime())) return String(v);
  return new Intl.DateTimeFormat('pt-BR', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(d).replace(',', '');
}

/** A cell as text. `plain`: numbers without thousands separators (CSV: spreadsheets read '1234,56'). */
export function cellText(c: ReportColumnMeta, v: unknown, o: { timeZone: string; plain?: boolean }): string {
  if (v === null || v === undefined || v === '') return '';
  switch (c.type) {
    case 'date': return dateBr(String(v));
    case 'datetime': return dateTimeBr(String(v), o.timeZone);
    case 'duration': return duration(Number(v));
    case 'integer': return o.plain ? String(v) : Number(v).toLocaleString('pt-BR');
    case 'number': {
      const n = Number(v), d = c.decimals ?? 2;
      return o.plain ? n.toFixed(d).replace('.', ',') : n.toLocaleString('pt-BR', { minimumFractionDigits: d, maximumFractionDigits: d });
    }
    default: return String(v);
  }
}
