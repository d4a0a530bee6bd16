// A report as a PDF table, written page by page with pdfkit (the engine under pdfmake): pdfmake lays the whole
// document out as one tree before writing a byte (548 MB for the 10,000 rows the PDF allows); here only the pages'
// content is kept (a few KB each, bufferPages) so that the footer can say "Página i de n" once the last page is known.
// A4 landscape; every page: the company and when it was generated at the top, the page number at the bottom, the
// column titles repeated; the first page: the title and the parameters. Column widths from the titles and the first
// batch of rows, laid out as a browser's automatic table (fitWidths); long texts wrap in their column.
import PDFDocument from 'pdfkit';

export interface PdfTableColumn {
  title: string;
  /** numbers and durations: right-aligned */
  right: boolean;
}
export interface PdfTableHeading { title: string; empresa: string; geradoEm: string; parametros: [string, string][] }

const PAGE = { w: 841.89, h: 595.28 };
const MARGIN = { left: 28, top: 44, right: 28, bottom: 36 };
const FONT = 'Helvetica', BOLD = 'Helvetica-Bold';
const SIZE = 8;
const PAD_X = 4, PAD_Y = 2.5;
const MIN_WIDTH = 36;
const tick = () => new Promise<void>((res) => setImmediate(res));

type Doc = InstanceType<typeof PDFDocument>;

/** Widths that fit the page, as a browser's automatic table layout: each column between its longest word (min) and
 *  its widest cell on one line (max); when the maxima do not fit, every column gets its min and the room left is
 *  shared in proportion to what each would still take (long texts wrap, dates and numbers stay whole). */
function fitWidths(doc: Doc, cols: PdfTableColumn[], sample: string[][]): number[] {
  const avail = PAGE.w - MARGIN.left - MARGIN.right;
  const min: number[] = [], max: number[] = [];
  cols.forEach((c, i) => {
    let lo = MIN_WIDTH - 2 * PAD_X, hi = 0;
    const measure = (t: string, whole: boolean) => {
      if (whole) hi = Math.max(hi, doc.widthOfString(t));
      for (const word of t.split(/\s+/)) if (word) lo = Math.max(lo, doc.widthOfString(word));
    };
    // a title may wrap to its longest word: the room goes to the data ("Velocidade média (km/h)" over "24,7")
    doc.font(BOLD).fontSize(SIZE);
    measure(c.title, !sample.length);
    doc.font(FONT);
    for (const r of sample) if (r[i]) measure(r[i]!, true);
    min.push(Math.ceil(lo) + 2 * PAD_X);
    max.push(Math.ceil(Math.max(hi, lo)) + 2 * PAD_X);
  });
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  if (sum(max) <= avail) return max;
  if (sum(min) >= avail) return min.map((m) => (m * avail) / sum(min));
  const room = (avail - sum(min)) / (sum(max) - sum(min));
  return min.map((m, i) => m + (max[i]! - m) * room);
}

/** The PDF's bytes, in chunks: `rows` gives each row's cell texts, batch by batch. */
export async function* pdfTable(cols: PdfTableColumn[], h: PdfTableHeading, rows: AsyncIterable<string[][]>): AsyncGenerator<Uint8Array> {
  const doc = new PDFDocument({
    size: 'A4', layout: 'landscape', bufferPages: true, autoFirstPage: false, compress: true,
    margins: MARGIN, info: { Title: h.title, Author: h.empresa, Creator: 'Rastro' },
  });
  const out: Buffer[] = [];
  doc.on('data', (b: Buffer) => out.push(b));
  const ended = new Promise<void>((res, rej) => { doc.on('end', () => res()); doc.on('error', rej); });

  const bottom = PAGE.h - MARGIN.bottom;
  let widths: number[] | null = null;
  let y = 0;

  /** Height of a row of texts in the widths (one line unless a text is wider than its column). */
  const rowHeight = (texts: string[], font: string) => {
    doc.font(font).fontSize(SIZE);
    let lines = 1;
    texts.forEach((t, i) => {
      const inner = widths![i]! - 2 * PAD_X;
      if (t && doc.widthOfString(t) > inner) lines = Math.max(lines, Math.round(doc.heightOfString(t, { width: inner }) / doc.currentLineHeight(true)));
    });
    return lines * doc.currentLineHeight(true) + 2 * PAD_Y;
  };
  const drawRow = (texts: string[], font: string, fill?: string, height = rowHeight(texts, font)) => {
    const total = widths!.reduce((a, b) => a + b, 0);
    if (fill) doc.rect(MARGIN.left, y, total, height).fill(fill);
    doc.fillColor('#000000').font(font).fontSize(SIZE);
    let x = MARGIN.left;
    texts.forEach((t, i) => {
      const inner = widths![i]! - 2 * PAD_X;
      if (t) doc.text(t, x + PAD_X, y + PAD_Y, { width: inner, align: cols[i]!.right ? 'right' : 'left', lineBreak: true });
      x += widths![i]!;
    });
    y += height;
    doc.moveTo(MARGIN.left, y).lineTo(MARGIN.left + total, y).lineWidth(fill ? 1 : 0.5).strokeColor(fill ? '#000000' : '#aaaaaa').stroke();
  };
  const header = () => drawRow(cols.map((c) => c.title), BOLD, '#eeeeee');
  const newPage = () => { doc.addPage(); y = MARGIN.top; };
  /** A row, on a new page (titles repeated) when it does not fit. */
  const row = (texts: string[]) => {
    const height = rowHeight(texts, FONT);
    if (y + height > bottom) { newPage(); header(); }
    drawRow(texts, FONT, undefined, height);
  };

  newPage();
  doc.font(BOLD).fontSize(14).text(h.title, MARGIN.left, y, { lineBreak: false });
  y += 20;
  for (const [k, v] of h.parametros) {
    const width = PAGE.w - MARGIN.left - MARGIN.right;
    doc.fontSize(9).font(BOLD).text(`${k}: `, MARGIN.left, y, { width, continued: true }).font(FONT).text(v, { width });
    y = doc.y;
  }
  y += 8;
  let any = false;
  for await (const batch of rows) {
    if (!widths) { widths = fitWidths(doc, cols, batch.slice(0, 500)); header(); }
    for (const r of batch) { row(r); any = true; }
    await tick();
  }
  if (!widths) { widths = fitWidths(doc, cols, []); header(); }
  if (!any) {
    const total = widths.reduce((a, b) => a + b, 0);
    doc.font(FONT).fontSize(SIZE).text('Nenhum item foi encontrado', MARGIN.left, y + PAD_Y, { width: total, align: 'center' });
  }

  // every page's top and bottom lines, now that the number of pages is known (inside the margins: no page is added)
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const saved = doc.page.margins;
    doc.page.margins = { top: 0, bottom: 0, left: 0, right: 0 };
    const inner = PAGE.w - MARGIN.left - MARGIN.right;
    doc.font(BOLD).fontSize(9).fillColor('#000000').text(h.empresa, MARGIN.left, 18, { width: inner / 2, lineBreak: false });
    doc.font(FONT).text(`Gerado em ${h.geradoEm}`, MARGIN.left + inner / 2, 18, { width: inner / 2, align: 'right', lineBreak: false });
    doc.fontSize(8).text(`Página ${i - start + 1} de ${count}`, MARGIN.left, PAGE.h - MARGIN.bottom + 12, { width: inner, align: 'center', lineBreak: false });
    doc.page.margins = saved;
  }
  doc.end();
  await ended;
  // pdfkit has written everything by now (its pages were buffered): hand it out in chunks of 64 KB
  for (const b of out) for (let i = 0; i < b.length; i += 1 << 16) yield new Uint8Array(b.subarray(i, i + (1 << 16)));
}
