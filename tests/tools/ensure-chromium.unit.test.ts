import { describe, expect, it } from 'vitest';
import { ChromiumMissing, DEFAULT_CHROMIUM, ensureChromium, type Deps } from './ensure-chromium.ts';

function fake(o: { present?: string[]; isRoot?: boolean; installWorks?: boolean }) {
  const present = new Set(o.present ?? []);
  const calls: string[] = [];
  const deps: Deps = {
    exists: (p) => present.has(p),
    isRoot: o.isRoot ?? true,
    run: (cmd, args) => {
      calls.push([cmd, ...args].join(' '));
      if (args[0] === 'install' && o.installWorks !== false) present.add(DEFAULT_CHROMIUM);
      return o.installWorks === false && args[0] === 'install' ? 100 : 0;
    },
    log: () => undefined,
  };
  return { deps, calls };
}

describe('ensureChromium', () => {
  it('answers the installed Debian chromium without installing', () => {
    const { deps, calls } = fake({ present: [DEFAULT_CHROMIUM, '/usr/bin/apt-get'] });
    expect(ensureChromium({}, deps)).toBe(DEFAULT_CHROMIUM);
    expect(calls).toEqual([]);
  });

  it('installs Debian chromium as root when missing', () => {
    const { deps, calls } = fake({ present: ['/usr/bin/apt-get'] });
    expect(ensureChromium({}, deps)).toBe(DEFAULT_CHROMIUM);
    expect(calls).toEqual(['apt-get update', 'apt-get install -y chromium']);
  });

  it('stops with a clear message when it cannot install (not root, no apt-get, failed install)', () => {
    expect(() => ensureChromium({}, fake({ present: ['/usr/bin/apt-get'], isRoot: false }).deps)).toThrow(/Chromium não encontrado em \/usr\/bin\/chromium; os testes de navegador precisam dele e não são pulados\.\nInstale como root/);
    expect(() => ensureChromium({}, fake({ present: [] }).deps)).toThrow(/não tem apt-get/);
    const failed = fake({ present: ['/usr/bin/apt-get'], installWorks: false });
    expect(() => ensureChromium({}, failed.deps)).toThrow(ChromiumMissing);
    expect(failed.calls).toEqual(['apt-get update', 'apt-get install -y chromium']);
  });

  it('never installs over an explicit CHROMIUM_PATH', () => {
    const { deps, calls } = fake({ present: [DEFAULT_CHROMIUM, '/usr/bin/apt-get'] });
    expect(() => ensureChromium({ CHROMIUM_PATH: '/opt/nada/chrome' }, deps)).toThrow('Chromium não encontrado em CHROMIUM_PATH=/opt/nada/chrome');
    expect(calls).toEqual([]);
    const ok = fake({ present: ['/opt/chrome'] });
    expect(ensureChromium({ CHROMIUM_PATH: '/opt/chrome' }, ok.deps)).toBe('/opt/chrome');
  });
});
