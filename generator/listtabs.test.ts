// Metadata `listTabs`: sibling registers shown as tabs above each other's lists (/adm/bib/pontuacao_de_eventos).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';

describe('listTabs', () => {
  it('normalizes the scoring tabs in order, labels defaulting to the plural', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const tabs = m.entities.filter((e) => e.listTabs?.group === 'pontuacao_de_eventos').sort((a, b) => a.listTabs!.order - b.listTabs!.order);
    expect(tabs.map((e) => [e.route, e.listTabs!.label])).toEqual([
      ['/adm/bib/pontuacao_de_eventos', 'Pontuação de eventos'],
      ['/adm/bib/pontuacao_de_eventos/pontuacao_avancada', 'Pontuação avançada'],
      ['/adm/bib/pontuacao_de_eventos/rag', 'RAG'],
      ['/adm/bib/pontuacao_de_eventos/analise_de_risco', 'Análise de risco'],
    ]);
  });
});
