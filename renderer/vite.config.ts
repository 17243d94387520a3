import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `import.meta.dirname`, not node:path: lint keeps Node built-ins out of renderer/.
const root = import.meta.dirname;

/**
 * The renderer's build: root `renderer/`, output `dist/renderer`, relative base so the Electron shell can serve
 * it from app://labeldesk/ (main/electron/app-protocol.ts) and web mode from any path.
 */
export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  // zod with its JIT off, for every chunk and the preview worker (src/lib/zod.ts says why).
  resolve: { alias: [{ find: /^zod$/, replacement: `${root}/src/lib/zod.ts` }] },
  build: {
    outDir: `${root}/../dist/renderer`,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
});
