// Starts the render worker from the TypeScript sources (vitest, `tsx src/cli/labeldesk.ts`): tsx, a
// devDependency, compiles render-worker.ts for this thread. The bundled CLI starts dist/render-worker.mjs
// instead (render-pool.ts, renderWorkerEntry).
import { tsImport } from 'tsx/esm/api';

await tsImport('./render-worker.ts', import.meta.url);
