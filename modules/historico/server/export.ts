// The replay's track as a file (pure): pt-BR CSV (';', decimal comma, dd/MM/yyyy HH:mm:ss in the caller's time zone,
// BOM, formula guard), GPX 1.1 (events as waypoints, one track per asset) and KML 2.2 (a line per asset, events as
// placemarks). Every text is XML-escaped.
import type { Ponto } from './routes.ts';

export interface TrackExport {
  descricao: string;
  placa: string | null;
  pontos: Ponto[];
  eventos: { t: number; descricao: string; lat: number | null; lon: number | null }[];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yyyy HH:mm:ss of an instant in a time zone. */
export function dataHora(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const decimal = (v: number | null, digits?: number) => v == null ? '' : (digits === undefined ? String(v) : v.toFixed(digits)).replace('.', ',');

function csvCell(s: string): string {
  // spreadsheet formula guard (a negative decimal is a number, not a formula), then quoting
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-\d+(,\d+)?$/.test(s) ? `'${s}` : s;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const CSV_HEADER = ['Ativo', 'Placa', 'Data', 'Latitude', 'Longitude', 'Velocidade (km/h)', 'Direção', 'Ignição', 'RPM'];

export function trackCsv(tracks: TrackExport[], timeZone: string): string {
  const lines = [CSV_HEADER.map(csvCell).join(';')];
  for (const t of tracks) {
    for (const p of t.pontos) {
      lines.push([t.descricao, t.placa ?? '', dataHora(p[0], timeZone), decimal(p[1], 6), decimal(p[2], 6), decimal(p[3]), decimal(p[6]),
        p[5] == null ? '' : p[5] ? 'Ligada' : 'Desligada', decimal(p[4])].map(csvCell).join(';'));
    }
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}

/** Text for XML content and attribute values. */
export const xml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!)
  // characters XML 1.0 does not allow
  // eslint-disable-next-line no-control-regex
  .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');

const nome = (t: TrackExport) => (t.placa ? `${t.descricao} (${t.placa})` : t.descricao);
const iso = (ms: number) => new Date(ms).toISOString();

export function trackGpx(tracks: TrackExport[], periodo: { inicio: string; fim: string }): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="Rastro" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
    + ' xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
    `<metadata><name>Histórico de rastreamento</name><time>${xml(periodo.inicio)}</time></metadata>`];
  // GPX order: waypoints before tracks
  for (const t of tracks) {
    for (const e of t.eventos) {
      if (e.lat == null || e.lon == null) continue;
      out.push(`<wpt lat="${e.lat}" lon="${e.lon}"><time>${iso(e.t)}</time><name>${xml(e.descricao)}</name><desc>${xml(nome(t))}</desc><type>evento</type></wpt>`);
    }
  }
  for (const t of tracks) {
    out.push(`<trk><name>${xml(nome(t))}</name><trkseg>`);
    for (const p of t.pontos) {
      out.push(`<trkpt lat="${p[1]}" lon="${p[2]}"><time>${iso(p[0])}</time>${p[3] == null ? '' : `<desc>Velocidade: ${decimal(p[3])} km/h</desc>`}</trkpt>`);
    }
    out.push('</trkseg></trk>');
  }
  out.push('</gpx>', '');
  return out.join('\n');
}

export function trackKml(tracks: TrackExport[], periodo: { inicio: string; fim: string }, timeZone: string): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<kml xmlns="http://www.opengis.net/kml/2.2">', '<Document>',
    `<name>Histórico de rastreamento</name><description>${xml(`${dataHora(Date.parse(periodo.inicio), timeZone)} até ${dataHora(Date.parse(periodo.fim), timeZone)}`)}</description>`,
    '<Style id="trajeto"><LineStyle><color>ffd27619</color><width>4</width></LineStyle></Style>'];
  for (const t of tracks) {
    out.push(`<Folder><name>${xml(nome(t))}</name>`);
    if (t.pontos.length) {
      out.push(`<Placemark><name>${xml(nome(t))}</name><styleUrl>#trajeto</styleUrl>`
        + `<TimeSpan><begin>${iso(t.pontos[0]![0])}</begin><end>${iso(t.pontos[t.pontos.length - 1]![0])}</end></TimeSpan>`
        + `<LineString><tessellate>1</tessellate><coordinates>${t.pontos.map((p) => `${p[2]},${p[1]},0`).join(' ')}</coordinates></LineString></Placemark>`);
    }
    for (const e of t.eventos) {
      if (e.lat == null || e.lon == null) continue;
      out.push(`<Placemark><name>${xml(e.descricao)}</name><description>${xml(dataHora(e.t, timeZone))}</description>`
        + `<TimeStamp><when>${iso(e.t)}</when></TimeStamp><Point><coordinates>${e.lon},${e.lat},0</coordinates></Point></Placemark>`);
    }
    out.push('</Folder>');
  }
  out.push('</Document>', '</kml>', '');
  return out.join('\n');
}
