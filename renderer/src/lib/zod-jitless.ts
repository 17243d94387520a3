/**
 * Imported first by main.tsx, before any schema exists: zod decides at schema creation whether to compile a
 * parser with `new Function`, and the renderer's CSP allows no eval (even zod's probe for it is reported as
 * a violation). Interpreted parsing is fast enough for the contract's payloads.
 */
import { z } from 'zod';

z.config({ jitless: true });
