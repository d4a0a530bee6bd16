// The text a PDF shows, in drawing order: the hex strings of its (deflated) content streams' TJ/Tj operators, as
// pdfkit writes them with the standard fonts (WinAnsi ≈ latin1). Enough to assert what a report's PDF says.
import { inflateSync } from 'node:zlib';

/** The text of each content stream that draws text (one per page, in order). */
export function pdfPages(buf: Buffer): string[] {
  const pages: string[] = [];
  const s = buf.toString('latin1');
  for (const m of s.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = s.indexOf('endstream', start);
    let data: string;
    try { data = inflateSync(buf.subarray(start, end)).toString('latin1'); } catch { continue; }
    const out: string[] = [];
    for (const t of data.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hex = t[1] !== undefined ? [...t[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => x[1]).join('') : t[2];
      out.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
    if (out.length) pages.push(out.join(''));
  }
  return pages;
}

export const pdfText = (buf: Buffer): string => pdfPages(buf).join('');
