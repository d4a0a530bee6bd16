// The report PDF's table writer: pages numbered "i de n", the column titles on every page, the title and the
// parameters on the first, long texts wrapping in their column, numbers right-aligned; what the PDF says is read back.
import { describe, expect, it } from 'vitest';
import { pdfTable, type PdfTableColumn } from './pdf-table.ts';
import { pdfPages } from './pdf.kit.ts';

const COLS: PdfTableColumn[] = [{ title: 'Ativo', right: false }, { title: 'Endereço', right: false }, { title: 'Distância (km)', right: true }];
const H = { title: 'Relatório de Viagem — Detalhado', empresa: 'Transportes Exemplo', geradoEm: '29/11/2026 09:00:00', parametros: [['Período', '01/11/2026 00:00:00 até 30/11/2026 23:59:59'], ['Ativos', 'Todos']] as [string, string][] };

async function pdf(rows: string[][], batch = 100): Promise<Buffer> {
  async function* batches() { for (let i = 0; i < rows.length; i += batch) yield rows.slice(i, i + batch); }
  const parts: Uint8Array[] = [];
  for await (const c of pdfTable(COLS, H, batches())) parts.push(c);
  return Buffer.concat(parts);
}

describe('report PDF table', () => {
  it('300 rows over numbered pages: titles on each, heading and parameters on the first, every row once and in order', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => [`Caminhão ${String(i + 1).padStart(3, '0')}`, `Rua ${i + 1}, São Paulo`, `${i},50`]);
    const buf = await pdf(rows);
    expect(buf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(buf.toString('latin1')).toMatch(/\/MediaBox \[0 0 841\.89 595\.28\]/);
    const pages = pdfPages(buf);
    const n = pages.length;
    expect(n).toBeGreaterThan(5);
    pages.forEach((p, i) => {
      expect(p).toContain(`Página ${i + 1} de ${n}`);
      expect(p).toContain('Transportes Exemplo');
      expect(p).toContain('Gerado em 29/11/2026 09:00:00');
      expect(p).toContain('AtivoEndereçoDistância (km)');
    });
    expect(pages[0]).toContain('Relatório de Viagem — Detalhado'.replace('—', '\x97'));
    expect(pages[0]).toContain('Período: 01/11/2026 00:00:00 até 30/11/2026 23:59:59');
    expect(pages.slice(1).some((p) => p.includes('Período:'))).toBe(false);
    const all = pages.join('');
    const seen = rows.map((r) => all.indexOf(r[0]!));
    expect(seen.every((x) => x >= 0)).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(all).toContain('Rua 300, São Paulo299,50');
  });

  it('a text wider than the page wraps in its column; nothing found says so', async () => {
    const long = 'Avenida Marginal do Rio Tietê, pista expressa, sentido Castelo Branco, próximo à ponte das Bandeiras — São Paulo, SP, Brasil, ' .repeat(3).trim();
    const buf = await pdf([['Caminhão 1', long, '12,00']]);
    const [page] = pdfPages(buf);
    // the words come back in order (over several lines), the page is one
    expect(page!.replace(/\s+/g, '')).toContain(long.replaceAll('—', '\x97').replace(/\s+/g, ''));
    expect(page).toContain('Página 1 de 1');
    expect(pdfPages(await pdf([]))[0]).toContain('Nenhum item foi encontrado');
  });
});
