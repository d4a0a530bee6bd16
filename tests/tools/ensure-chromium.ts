// Browser tests need Chromium. `npm test` (first step) and the e2e global setup call this: on a Debian machine
// as root it installs Debian's chromium when missing; anywhere else it stops at once with a clear message and a
// non-zero exit. Browser tests are never skipped.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export interface Deps {
  exists: (p: string) => boolean;
  isRoot: boolean;
  /** Runs a command with inherited output; answers its exit code. */
  run: (cmd: string, args: string[]) => number;
  log: (m: string) => void;
}

const realDeps = (): Deps => ({
  exists: (p) => { try { fs.accessSync(p, fs.constants.X_OK); return true; } catch { return false; } },
  isRoot: process.getuid?.() === 0,
  run: (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status ?? 1,
  log: (m) => console.log(m),
});

export class ChromiumMissing extends Error {}

/** Answers the Chromium executable the browser tests use (CHROMIUM_PATH or Debian's), installing it when it may. */
export function ensureChromium(env: NodeJS.ProcessEnv = process.env, deps: Deps = realDeps()): string {
  const explicit = env.CHROMIUM_PATH;
  const exe = explicit || DEFAULT_CHROMIUM;
  if (deps.exists(exe)) return exe;
  if (explicit) throw new ChromiumMissing(`Chromium não encontrado em CHROMIUM_PATH=${explicit}. Corrija o caminho ou remova a variável para usar o chromium do Debian (${DEFAULT_CHROMIUM}).`);
  const hasApt = deps.exists('/usr/bin/apt-get');
  if (!deps.isRoot || !hasApt) {
    throw new ChromiumMissing([
      `Chromium não encontrado em ${DEFAULT_CHROMIUM}; os testes de navegador precisam dele e não são pulados.`,
      !hasApt ? 'Esta máquina não tem apt-get: instale o Chromium e indique-o em CHROMIUM_PATH.' : 'Instale como root: apt-get update && apt-get install -y chromium (ou indique outro executável em CHROMIUM_PATH).',
    ].join('\n'));
  }
  deps.log('Chromium ausente: instalando o chromium do Debian (apt-get install -y chromium) para os testes de navegador…');
  if (deps.run('apt-get', ['update']) !== 0 || deps.run('apt-get', ['install', '-y', 'chromium']) !== 0 || !deps.exists(DEFAULT_CHROMIUM)) {
    throw new ChromiumMissing(`A instalação do chromium falhou (apt-get update && apt-get install -y chromium); os testes de navegador não podem rodar. Instale-o e rode de novo.`);
  }
  deps.log(`Chromium instalado em ${DEFAULT_CHROMIUM}.`);
  return DEFAULT_CHROMIUM;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    ensureChromium();
  } catch (e) {
    console.error(e instanceof ChromiumMissing ? e.message : e);
    process.exit(1);
  }
}
