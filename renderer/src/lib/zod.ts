/**
 * `zod` as the renderer's build resolves it (renderer/vite.config.ts aliases the bare specifier here): zod with
 * its JIT turned off before any schema exists. zod decides at schema creation whether to compile a parser with
 * `new Function`, and the renderer's CSP allows no eval (even zod's probe for it is reported as a violation).
 * An import placed first in main.tsx did this until the schemas moved into a chunk shared with lazy chunks, which
 * is evaluated before main.tsx's own body; a module every `zod` import goes through runs first whatever the
 * chunking. Interpreted parsing is fast enough for the contract's payloads and the preview's checks.
 */
import * as z from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
