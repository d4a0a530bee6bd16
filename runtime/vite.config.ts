import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

// node_modules/{pkg}/ for any of the packages (scoped names allowed).
const nm = (...pkgs: string[]) =>
  new RegExp(`node_modules[\\\\/](${pkgs.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('/', '[\\\\/]')).join('|')})[\\\\/]`);
const generated = fileURLToPath(new URL('./src/generated', import.meta.url));
// The app is built from the generator's output only (no hand-kept copy to fall back on).
if (!existsSync(path.join(generated, 'index.ts'))) {
  throw new Error('[rastro] runtime/src/generated ausente: execute npm run generate (npm run build e npm start já o fazem)');
}

/** Build-time compression: every text asset of the output gets .br (quality 11) and .gz (level 9) beside it,
 *  written only when smaller; the server picks one by Accept-Encoding (server/app/static.ts). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'rastro-precompress',
    apply: 'build',
    configResolved(c) { outDir = path.resolve(c.root, c.build.outDir); },
    closeBundle() {
      const walk = (d: string): string[] => readdirSync(d).flatMap((f) => {
        const p = path.join(d, f);
        return statSync(p).isDirectory() ? walk(p) : [p];
      });
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json|txt|map|wasm)$/.test(file)) continue;
        const raw = readFileSync(file);
        if (raw.length < 512) continue;
        const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@rastro/generated': generated },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    // Vendor chunks (cached across releases, loaded in parallel); leaflet and rjsf stay out of the first load
    // because only lazy screens import them. A group also takes the dependencies of what it matches, so the
    // groups of the first load come first (priority) and keep their shared dependencies.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor-react', test: nm('react', 'react-dom', 'scheduler', 'react-router', 'react-router-dom', 'cookie', 'set-cookie-parser'), priority: 50 },
            { name: 'vendor-leaflet', test: nm('leaflet', 'react-leaflet', '@react-leaflet', 'supercluster', 'kdbush'), priority: 30 },
            { name: 'vendor-rjsf', test: nm('@rjsf', 'ajv', 'ajv-formats', 'ajv-i18n', 'fast-uri', 'json-schema-traverse', 'json-schema-merge-allof', 'compute-lcm', 'compute-gcd', 'jsonpointer', 'markdown-to-jsx'), priority: 20 },
            { name: 'vendor-mui-icons', test: nm('@mui/icons-material'), priority: 44 },
            // @mui/material split by who loads it (entriesAware): /login takes only the components of its form;
            // the rest goes with the lazy react-admin app. Subgroups under 16 KB merge into a neighbour (the lazy
            // pieces of the list — payload form, pickers, questionnaire — would otherwise cut it into many tiny files).
            { name: 'vendor-mui-material', test: nm('@mui/material'), priority: 46, entriesAware: true, entriesAwareMergeThreshold: 16_000 },
            { name: 'vendor-mui', test: nm('@mui/system', '@mui/utils', '@mui/styled-engine', '@mui/private-theming', '@mui/types', '@mui/core-downloads-tracker', '@emotion', '@popperjs', 'react-transition-group', 'stylis', 'clsx', 'prop-types', 'react-is', 'hoist-non-react-statics'), priority: 45 },
            { name: 'vendor-socket', test: nm('socket.io-client', 'engine.io-client', 'socket.io-parser', 'engine.io-parser', '@socket.io'), priority: 35 },
            { name: 'vendor-react-admin', test: nm('react-admin', 'ra-core', 'ra-ui-materialui', 'ra-data-simple-rest', 'ra-i18n-polyglot', 'ra-language-portuguese', 'ra-language-english', '@tanstack', 'react-hook-form', 'lodash', 'node-polyglot', 'query-string', 'react-error-boundary', 'react-dropzone', 'inflection', 'jsonexport', 'dompurify', 'date-fns'), priority: 40 },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: true },
      '/socket_server': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: true, ws: true },
    },
  },
});
