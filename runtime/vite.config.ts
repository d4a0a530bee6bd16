import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
const generated = fileURLToPath(new URL('./src/generated', import.meta.url));
const fixtures = fileURLToPath(new URL('./src/fixtures', import.meta.url));

// The app reads the generator's output; the hand-made fixture is only a fallback
// while `npm run generate` has not produced runtime/src/generated yet.
const useGenerated = existsSync(`${generated}/index.ts`);
if (!useGenerated) console.warn('[rastro] runtime/src/generated missing: using runtime/src/fixtures');

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  resolve: {
    alias: { '@rastro/generated': useGenerated ? generated : fixtures },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: true },
      '/socket_server': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: true, ws: true },
    },
  },
});
