import { describe, expect, it } from 'vitest';
import { withPush, type TarefaPush } from './Tarefas';

const t = (estado: TarefaPush['estado'], progresso: number, versao: string): TarefaPush =>
  ({ id: 7, descricao: 'Recalcular viagens', estado, progresso, mensagem: null, resultado: estado === 'concluido' ? 'feito' : null, erro: null, versao });

describe('the jobs panel', () => {
  it('keeps the newest push of a job whatever order the pushes arrive in', () => {
    const start = t('executando', 0, '1795860669000001');
    const half = t('executando', 50, '1795860669000200');
    const done = t('concluido', 100, '1795860669000300');
    let l = withPush([], start);
    l = withPush(l, done);
    l = withPush(l, half); // late
    l = withPush(l, start); // later still
    expect(l).toEqual([done]);
    expect(withPush(withPush([], start), half)).toEqual([half]);
  });

  it('never takes a job back from an end to running, even without versions', () => {
    const done = { ...t('concluido', 100, ''), versao: undefined };
    expect(withPush([done], { ...t('executando', 0, ''), versao: undefined })).toEqual([done]);
    const failed = t('falhou', 40, '20');
    expect(withPush([failed], t('executando', 30, '10'))).toEqual([failed]);
  });

  it('adds other jobs beside the ones it holds', () => {
    const other = { ...t('na_fila', 0, '5'), id: 8 };
    expect(withPush([t('executando', 10, '4')], other).map((x) => x.id)).toEqual([7, 8]);
  });
});
