/**
 * Value → module geometry, once per (format, value, options): the live preview calls this on every keystroke,
 * so results are kept in a small LRU. QR codes and Code 128 come from our own encoders (qr/, code128.ts),
 * everything else from bwip-js.
 */
import { bwipRaw, type RawSymbol } from './bwip';
import { encodeCode128 } from './code128';
import { BarcodeValueError } from '../../model/barcode/errors';
import { formatLabel, quietZone, type BarcodeFormat } from '../../model/barcode/formats';
import { DEFAULT_QR_ERROR_CORRECTION, type BarcodeGeometry, type EncodeOptions } from './geometry';
import { LruCache } from '../lru';
import { encodeQr } from './qr';
import { prepareValue, type PreparedValue } from '../../model/barcode/values';
import { ADDON_QUIET_RIGHT, retailLayout } from './retail';

const CACHE_SIZE = 64;
/**
 * ITF-14's wide elements in modules. bwip-js draws them 2X wide whatever its ratio options say, below the 2.25 to
 * 3.0 wide-to-narrow ratio GS1 asks of ITF-14 (target 2.5); 3X is in the range and keeps every element whole
 * modules (2.5 would need an even number of dots per module).
 */
export const ITF14_WIDE = 3;
const cache = new LruCache<string, BarcodeGeometry>(CACHE_SIZE);

/**
 * Encode `value` as `format` into module geometry (bars or a module matrix, quiet zones included).
 * Results are cached and shared: treat them as read-only.
 *
 * @throws BarcodeValueError when the value cannot be encoded; its message is for the user.
 */
export function encodeBarcode(
  format: BarcodeFormat,
  value: string,
  options: EncodeOptions = {},
): BarcodeGeometry {
  const key = cacheKey(format, value, options);
  const hit = cache.get(key);
  if (hit) return hit;
  const prepared = prepareValue(format, value);
  const geometry = toGeometry(format, prepared, rawSymbol(format, prepared.bwipText, options));
  cache.set(key, geometry);
  return geometry;
}

/**
 * Check `value` for `format` and return it normalised: what the symbol will carry (a 12-digit EAN-13 gets its
 * check digit, ISBN/ISMN/ISSN become their 13-digit EAN). Runs the encoder, so capacity and GS1 rules are
 * checked too; the encoding is cached for the render that follows.
 *
 * @throws BarcodeValueError naming the problem (wrong check digit with the expected one, letters in EAN, ...).
 */
export function validateBarcodeValue(
  format: BarcodeFormat,
  value: string,
  options: EncodeOptions = {},
): string {
  return encodeBarcode(format, value, options).value;
}

/** Forget cached encodings (tests, memory pressure). */
export function clearBarcodeCache(): void {
  cache.clear();
}

function cacheKey(format: BarcodeFormat, value: string, o: EncodeOptions): string {
  // Fixed field order so equal options give equal keys; \u0000 cannot be confused with option text.
  return [
    format,
    o.qrErrorCorrection,
    o.pdf417ErrorCorrection,
    o.pdf417Columns,
    o.dataMatrixShape,
    value,
  ].join('\u0000');
}

/**
 * QR codes through our encoder: bwip-js takes 3–6 ms a symbol (its masks run in a PostScript emulation), ours
 * about 0.2 ms for a shipping label's URL. A value too long for version 40 goes to bwip-js, whose error bwip.ts
 * words for the user (it fails the same way; it could only fit more through Kanji mode, which we do not use).
 * Code 128 likewise: bwip-js takes 0.1–0.2 ms for a tracking number, ours the same bars in 2–10 µs; a value
 * over BWIPP's 500 characters goes to bwip-js for its error. GS1-128 and GS1 QR stay with bwip-js (FNC1, AI lint).
 */
function rawSymbol(format: BarcodeFormat, text: string, options: EncodeOptions): RawSymbol {
  if (format === 'qrcode') {
    const qr = encodeQr(text, options.qrErrorCorrection ?? DEFAULT_QR_ERROR_CORRECTION);
    if (qr) return { kind: 'matrix', pixs: qr.modules, cols: qr.size, rows: qr.size };
  }
  if (format === 'code128') {
    const sbs = encodeCode128(text);
    if (sbs) return { kind: 'linear', sbs };
  }
  return bwipRaw(format, text, options);
}

function toGeometry(format: BarcodeFormat, prepared: PreparedValue, raw: RawSymbol): BarcodeGeometry {
  const base = { format, value: prepared.value, humanReadable: prepared.value };
  const qz = quietZone(format);
  switch (raw.kind) {
    case 'linear': {
      const bars: Array<readonly [number, number]> = [];
      let x = qz.left;
      let end = qz.left;
      raw.sbs.forEach((w, i) => {
        // bwip-js widths are whole modules for every linear format we offer; round guards float noise.
        const width = format === 'itf14' && Math.round(w) === 2 ? ITF14_WIDE : Math.round(w);
        if (i % 2 === 0 && width > 0) {
          bars.push([x, width]);
          end = x + width;
        }
        x += width;
      });
      if (bars.length === 0) throw noSymbol(format);
      const retail = retailLayout(format, prepared.value, bars, qz.left);
      // An add-on ends the symbol with its own, narrower quiet zone (ISO/IEC 15420: 5X).
      const quietRight = retail?.roles.includes('addon') ? ADDON_QUIET_RIGHT : qz.right;
      // The symbol ends with its last bar; a trailing space in sbs is not part of it.
      return {
        ...base,
        kind: 'linear',
        bars,
        quietLeft: qz.left,
        quietRight,
        totalModules: end + quietRight,
        ...(retail ? { retail } : {}),
      };
    }
    case 'matrix': {
      // PDF417: bwip-js lists each row once and reports the height with rows repeated (row height 3X).
      const listed = raw.cols > 0 ? raw.pixs.length / raw.cols : 0;
      const repeat = listed > 0 ? raw.rows / listed : 0;
      if (!Number.isInteger(listed) || !Number.isInteger(repeat) || repeat < 1) throw noSymbol(format);
      const modules = new Uint8Array(raw.rows * raw.cols);
      for (let r = 0; r < raw.rows; r++) {
        const from = Math.floor(r / repeat) * raw.cols;
        for (let c = 0; c < raw.cols; c++) modules[r * raw.cols + c] = raw.pixs[from + c] ? 1 : 0;
      }
      return { ...base, kind: 'matrix', rows: raw.rows, cols: raw.cols, modules, quietZone: qz.left };
    }
  }
}

const noSymbol = (format: BarcodeFormat): BarcodeValueError =>
  new BarcodeValueError(
    format,
    'invalid',
    `${formatLabel(format)}: the encoder returned no symbol for this value.`,
  );
