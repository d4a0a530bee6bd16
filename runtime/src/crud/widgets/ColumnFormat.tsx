// Display formats of list columns declared in metadata (`format:` on an entity's or a provider's column; shared/model.ts
// COLUMN_FORMATS), for every register: relativo 'há 2 min', online chip, coordenada with 6 decimals, link, duracao
// (HH:MM:SS), km (one decimal, pt-BR), arquivo (a file a background job produces on demand: ArquivoCell.tsx).
import { useEffect, useState } from 'react';
import { Chip, Tooltip } from '@mui/material';
import { Link } from 'react-router-dom';
import type { ColumnDisplay } from '../../../../shared/model';
import { formatTimestamp } from '../lib/format';
import { ArquivoCell } from './ArquivoCell';

/** A timestamp as PostgreSQL's text ('2026-11-27 06:49:36.6+00', computed columns) or ISO; NaN when not one. */
export function timeOf(d: Date | string | number): number {
  if (typeof d !== 'string') return new Date(d).getTime();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/.exec(d);
  return new Date(m ? `${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}` : d).getTime();
}

/** 'agora', 'há 2 min', 'há 3 h', 'há 5 dias' (future times, clock skew: 'agora'). */
export function relativeTime(d: Date | string | number, now = Date.now()): string {
  const t = timeOf(d);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return 'agora';
  const m = Math.floor(s / 60);
  if (m < 60) return `há ${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `há ${h} h`;
  const days = Math.floor(h / 24);
  if (days < 60) return `há ${days} ${days === 1 ? 'dia' : 'dias'}`;
  const months = Math.floor(days / 30);
  return months < 24 ? `há ${months} ${months === 1 ? 'mês' : 'meses'}` : `há ${Math.floor(days / 365)} anos`;
}

/** Online: the last communication within `minutes`. */
export const isOnline = (d: Date | string | number | null | undefined, minutes: number, now = Date.now()) =>
  d != null && d !== '' && now - timeOf(d) <= minutes * 60_000;

/** Re-renders every 30 s (relative times move on). */
function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => { const t = setInterval(() => setNow(Date.now()), 30_000); return () => clearInterval(t); }, []);
  return now;
}

function Relative({ value }: { value: string }) {
  const now = useNow();
  return <Tooltip title={formatTimestamp(timeOf(value))} enterDelay={300}><span data-format="relativo">{relativeTime(value, now)}</span></Tooltip>;
}

function Online({ value, minutes }: { value: unknown; minutes: number }) {
  const now = useNow();
  const on = isOnline(value as string | null, minutes, now);
  const tip = value ? `Última comunicação: ${formatTimestamp(timeOf(value as string))}` : 'Nenhuma comunicação recebida';
  return (
    <Tooltip title={tip} enterDelay={300}>
      <Chip size="small" data-format="online" data-online={on ? 'sim' : 'não'} label={on ? 'Online' : 'Offline'}
        color={on ? 'success' : 'default'} variant={on ? 'filled' : 'outlined'} />
    </Tooltip>
  );
}

/** Seconds as HH:MM:SS (hours past 99 as they are). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

/** A distance in km with one decimal, pt-BR (12,3). */
export const formatKm = (km: number): string => km.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The cell of a column with a format (null: the column has none; the caller renders the value as usual). */
export function formattedValue(c: ColumnDisplay, value: unknown) {
  if (!c.format) return null;
  if (c.format === 'online') return <Online value={value} minutes={c.onlineMinutes ?? 10} />;
  if (value === null || value === undefined || value === '') return <span />;
  switch (c.format) {
    case 'relativo': return <Relative value={String(value)} />;
    case 'coordenada': return <span data-format="coordenada">{typeof value === 'number' ? value.toFixed(6) : String(value)}</span>;
    case 'duracao': return <span data-format="duracao">{typeof value === 'number' ? formatDuration(value) : String(value)}</span>;
    case 'km': return <span data-format="km">{typeof value === 'number' ? formatKm(value) : String(value)}</span>;
    case 'arquivo': return <ArquivoCell value={String(value)} text={c.linkText ?? 'Baixar'} label={(c as { label?: string }).label} />;
    case 'link': {
      const href = String(value), text = c.linkText ?? 'Abrir';
      const stop = (e: React.MouseEvent) => e.stopPropagation();
      if (/^https?:/.test(href)) return <a href={href} target="_blank" rel="noopener" onClick={stop}>{text}</a>;
      // A file the API serves (e.g. a download route): a plain link the browser fetches with the session cookie.
      if (href.startsWith('/api/')) return <a href={href} download onClick={stop}>{text}</a>;
      return <Link to={href} onClick={stop}>{text}</Link>;
    }
  }
}
