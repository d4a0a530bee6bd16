// npm run generate [-- --watch] [--metadata DIR] [--out-server DIR] [--out-runtime DIR] [--runtime-src DIR]
import { watch } from 'node:fs';
import { parseArgs } from 'node:util';
import { MetadataError } from './errors.ts';
import { defaultOptions, generate } from './generate.ts';

const { values } = parseArgs({
  options: {
    watch: { type: 'boolean', default: false },
    metadata: { type: 'string' },
    'out-server': { type: 'string' },
    'out-runtime': { type: 'string' },
    'runtime-src': { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});
const options = {
  ...defaultOptions(),
  ...(values.metadata && { metadata: values.metadata }),
  ...(values['out-server'] && { outServer: values['out-server'] }),
  ...(values['out-runtime'] && { outRuntime: values['out-runtime'] }),
  ...(values['runtime-src'] && { runtimeSrc: values['runtime-src'] }),
};

async function runOnce(): Promise<boolean> {
  const started = Date.now();
  try {
    const r = await generate(options);
    const changed = [...r.server.written, ...r.server.removed, ...r.runtime.written, ...r.runtime.removed].length;
    if (!values.quiet)
      console.log(`[generate] ${r.model.entities.length} entidades; ${changed} arquivo(s) alterado(s) em ${Date.now() - started} ms`);
    return true;
  } catch (e) {
    if (e instanceof MetadataError) {
      console.error(`[generate] metadados inválidos:\n${e.problems.map((p) => `  ${p}`).join('\n')}`);
      return false;
    }
    throw e;
  }
}

if (!values.watch) {
  process.exitCode = (await runOnce()) ? 0 : 1;
} else {
  await runOnce();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  watch(options.metadata, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => { running = running.then(async () => { await runOnce(); }); }, 150);
  });
  console.log(`[generate] observando ${options.metadata}`);
}
