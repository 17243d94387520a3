/**
 * The zlib compressor for PDF streams (/FlateDecode is a zlib stream, RFC 1950). Injected like the `:Z64:`
 * one in src/zpl/gfa.ts so Node can pass native zlib; the default is fflate, which runs anywhere.
 */
import { zlibSync } from 'fflate';

/** bytes → a zlib stream. */
export type Deflate = (bytes: Uint8Array) => Uint8Array;

/**
 * fflate at level 6 for content streams: on a label's content (mostly barcode and glyph operators) it is within
 * a few per cent of level 9 in size at a fraction of the time.
 */
export const fflateDeflate: Deflate = (bytes) => zlibSync(bytes, { level: 6 });
