/**
 * The default zlib compressor for PDF streams (/FlateDecode is a zlib stream), where no native one is injected
 * through the `Deflate` port (src/render/deflate.ts).
 */
import { zlibSync } from 'fflate';
import type { Deflate } from '../../deflate';

export type { Deflate };

/**
 * fflate at level 6 for content streams: on a label's content (mostly barcode and glyph operators) it is within
 * a few per cent of level 9 in size at a fraction of the time.
 */
export const fflateDeflate: Deflate = (bytes) => zlibSync(bytes, { level: 6 });
