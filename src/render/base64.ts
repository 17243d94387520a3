/**
 * Base64 without Node's Buffer, so src/render stays usable in the browser (data: URLs for SVG images,
 * image sources for pdfkit).
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (RFC 4648, with padding) of `bytes`. */
export function bytesToBase64(bytes: Uint8Array): string {
  const out: string[] = [];
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out.push(
      (ALPHABET[(n >> 18) & 63] ?? '') +
        (ALPHABET[(n >> 12) & 63] ?? '') +
        (ALPHABET[(n >> 6) & 63] ?? '') +
        (ALPHABET[n & 63] ?? ''),
    );
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = ((bytes[i] ?? 0) << 16) | (rest === 2 ? (bytes[i + 1] ?? 0) << 8 : 0);
    out.push(
      (ALPHABET[(n >> 18) & 63] ?? '') +
        (ALPHABET[(n >> 12) & 63] ?? '') +
        (rest === 2 ? (ALPHABET[(n >> 6) & 63] ?? '') : '=') +
        '=',
    );
  }
  return out.join('');
}

/** `data:<mime>;base64,...` for embedding bytes in SVG or handing them to pdfkit. */
export function dataUrl(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${bytesToBase64(bytes)}`;
}
