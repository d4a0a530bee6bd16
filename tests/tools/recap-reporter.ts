// A reporter that ends the run with a short recap of what failed: each failed test (file › name: the first line of its
// error) and each unhandled error (its message, where it was thrown, the file that was running). The default reporter
// prints these far above the summary; whoever reads only the end of a long log (CI shows its last lines) sees why the
// run failed.
import path from 'node:path';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

interface ErrorLike { name?: string; message?: string; stack?: string; VITEST_TEST_PATH?: string; VITEST_TEST_NAME?: string }

const firstLine = (s: string | undefined) => (s ?? '').split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? '';

/** The recap's lines (none when nothing failed). */
export function recapLines(failed: { file: string; name: string; error?: ErrorLike }[], unhandled: readonly ErrorLike[], root: string): string[] {
  if (!failed.length && !unhandled.length) return [];
  const rel = (f: string) => path.relative(root, f);
  const out = ['', `== Recapitulação: ${failed.length} teste(s) falharam, ${unhandled.length} erro(s) não tratados`];
  for (const f of failed.slice(0, 30)) out.push(`✗ ${rel(f.file)} › ${f.name}: ${firstLine(f.error?.message)}`);
  if (failed.length > 30) out.push(`… e mais ${failed.length - 30}`);
  for (const e of unhandled.slice(0, 10)) {
    out.push(`! ${e.name ?? 'Error'}: ${firstLine(e.message)}`);
    // The stack's first frames: where it was thrown (node's own frames included: a socket's or a timer's error).
    for (const l of (e.stack ?? '').split('\n').filter((x) => x.trim().startsWith('at ')).slice(0, 4)) out.push(`    ${l.trim()}`);
    if (e.VITEST_TEST_PATH) out.push(`    durante ${rel(e.VITEST_TEST_PATH)}${e.VITEST_TEST_NAME ? ` › ${e.VITEST_TEST_NAME}` : ' (fora de um teste: ganchos ou entre testes)'}`);
  }
  return out;
}

export default class RecapReporter implements Reporter {
  private root = process.cwd();
  onInit(ctx: { config: { root: string } }) { this.root = ctx.config.root; }
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) {
    const failed: { file: string; name: string; error?: ErrorLike }[] = [];
    for (const m of modules) {
      // Errors of the file itself (import, a hook of the file), besides its tests'.
      for (const e of m.errors()) failed.push({ file: m.moduleId, name: '(arquivo)', error: e as ErrorLike });
      for (const t of m.children.allTests()) {
        if (t.result().state === 'failed') failed.push({ file: m.moduleId, name: t.fullName, error: t.result().errors?.[0] as ErrorLike });
      }
    }
    const lines = recapLines(failed, unhandled as readonly ErrorLike[], this.root);
    if (lines.length) process.stderr.write(`${lines.join('\n')}\n`);
  }
}
