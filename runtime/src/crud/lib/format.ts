// Display formats: DD-MM-YYYY dates, pt-BR timestamps, 'Sem informação' when missing.
const pad = (n: number) => String(n).padStart(2, '0');

export function formatDate(d: Date | string | null | undefined): string {
  if (!d) return 'Sem informação';
  const x = typeof d === 'string' ? (/^\d{4}-\d{2}-\d{2}$/.test(d) ? new Date(`${d}T00:00:00`) : new Date(d)) : d;
  if (Number.isNaN(x.getTime())) return String(d);
  return `${pad(x.getDate())}-${pad(x.getMonth() + 1)}-${x.getFullYear()}`;
}

export function formatDateTime(d: Date | string | null | undefined): string {
  if (!d) return 'Sem informação';
  const x = typeof d === 'string' ? new Date(d) : d;
  if (Number.isNaN(x.getTime())) return String(d);
  return `${formatDate(x)} ${pad(x.getHours())}:${pad(x.getMinutes())}:${pad(x.getSeconds())}`;
}

const WEEKDAYS = ['domingo', 'segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado'];
const MONTHS = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'];

// Timestamp display of spec section 9: weekday, day month year at HH:mm:ss, Portuguese (local time).
// e.g. 'segunda-feira, 23 de novembro de 2026 às 11:55:22'; 'Sem informação' when missing.
export function formatTimestamp(d: Date | string | number | null | undefined): string {
  if (d == null || d === '') return 'Sem informação';
  const x = d instanceof Date ? d : new Date(d);
  if (Number.isNaN(x.getTime())) return 'Sem informação';
  return `${WEEKDAYS[x.getDay()]}, ${x.getDate()} de ${MONTHS[x.getMonth()]} de ${x.getFullYear()} às ${pad(x.getHours())}:${pad(x.getMinutes())}:${pad(x.getSeconds())}`;
}
