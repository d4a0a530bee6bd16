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
