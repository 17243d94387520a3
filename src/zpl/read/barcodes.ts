/**
 * ZPL bar code commands → symbols in printer dots, as the printer sizes them: linear symbols from `^BY`'s module
 * width (whole dots) and, for the two-width symbologies, its wide-to-narrow ratio (wide bars rounded to whole
 * dots); 2D symbols from their own module size parameter. Encoding is the engine's (our Code 128 and QR
 * encoders, bwip-js for the rest); ZPL's data conventions (^BC invocation codes, ^BQ's `QA,` prefix, ^BK's
 * start/stop characters) are read here.
 */
import bwipjs from 'bwip-js/generic';
import { encodeQr, type QrEcLevel } from '../../layout/barcode/qr';
import { zplCode128 } from './code128';
import { encodeBarcode } from '../../layout/barcode';

export interface BarcodeDefaults {
  /** `^BY` module width in dots (1–10). */
  module: number;
  /** `^BY` wide-to-narrow ratio (2.0–3.0). */
  ratio: number;
  /** `^BY` bar code height in dots. */
  height: number;
}

export type ZplSymbol =
  | {
      kind: 'linear';
      format: string;
      value: string;
      /** Bar/space widths in dots, bar first. */
      widths: number[];
      height: number;
      /** The interpretation line, and where. */
      text?: { value: string; above: boolean };
      /**
       * EAN/UPC (ISO/IEC 15420): per dark bar, in order, whether it is a guard bar (drawn longer, beside the
       * digits); the digit groups centred over dots [from, to) of the symbol (the leading digit left of it).
       */
      retail?: {
        guards: boolean[];
        digits: Array<{ text: string; from: number; to: number; small: boolean }>;
      };
      problems: string[];
    }
  | {
      kind: 'matrix';
      format: string;
      value: string;
      rows: number;
      cols: number;
      modules: Uint8Array;
      moduleWidth: number;
      moduleHeight: number;
      problems: string[];
    }
  | {
      /** MaxiCode (ISO/IEC 16023): 33 rows of 30 hexagons, odd rows half a module right, a bullseye centre. */
      kind: 'maxicode';
      format: 'maxicode';
      value: string;
      /** Dark modules as row × 30 + column. */
      dark: number[];
      /** Horizontal distance between hexagon centres, in dots. */
      pitch: number;
      problems: string[];
    };

/** The bar code commands this reader draws. */
export const BARCODE_COMMANDS = new Set([
  'B1',
  'B2',
  'B3',
  'B7',
  'B8',
  'B9',
  'BA',
  'BC',
  'BD',
  'BE',
  'BK',
  'BO',
  'B0',
  'BQ',
  'BU',
  'BX',
]);

const yes = (v: string | undefined, fallback: boolean): boolean =>
  v === undefined || v === '' ? fallback : v.toUpperCase() === 'Y';

const int = (v: string | undefined, fallback: number, min: number, max: number): number => {
  const n = Number.parseInt(v ?? '', 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
};

/**
 * The symbol a bar code field draws. `p` are the command's parameters after the orientation; `data` the field
 * data (hex escapes decoded). Throws an Error whose message is for the user when the data cannot be encoded.
 */
export function zplSymbol(
  name: string,
  p: readonly string[],
  data: string,
  by: BarcodeDefaults,
  dpi: number,
): ZplSymbol {
  const m = by.module;
  const twoWidth = (sbs: number[]) =>
    sbs.map((w) => (w > 1.5 ? Math.max(m + 1, Math.round(m * by.ratio)) : m));
  const modules = (sbs: number[]) => sbs.map((w) => Math.round(w) * m);
  const linear = (
    format: string,
    value: string,
    widths: number[],
    height: number,
    interpretation: boolean,
    above: boolean,
    text = value,
    problems: string[] = [],
  ): ZplSymbol => ({
    kind: 'linear',
    format,
    value,
    widths,
    height,
    ...(interpretation ? { text: { value: text, above } } : {}),
    problems,
  });
  switch (name) {
    case 'BC': {
      // ^BCo,h,f,g,e,m
      const mode = (p[4] ?? 'N').toUpperCase() || 'N';
      const sym = zplCode128(data, mode);
      return linear(
        'code128',
        sym.value,
        modules(sym.sbs),
        int(p[0], by.height, 1, 32000),
        yes(p[1], true),
        yes(p[2], false),
        sym.text,
        sym.problems,
      );
    }
    case 'B3': {
      // ^B3o,e,h,f,g: Code 39, e = mod-43 check digit
      const check = yes(p[0], false);
      const sbs = bwipSbs('code39', data, check ? { includecheck: true } : {});
      return linear(
        'code39',
        data,
        twoWidth(sbs),
        int(p[1], by.height, 1, 32000),
        yes(p[2], true),
        yes(p[3], false),
        `*${data}*`,
      );
    }
    case 'B2': {
      // ^B2o,h,f,g,e: Interleaved 2 of 5, e = mod-10 check digit
      const check = yes(p[3], false);
      const sbs = bwipSbs('interleaved2of5', data, check ? { includecheck: true } : {});
      return linear(
        'itf',
        data,
        twoWidth(sbs),
        int(p[0], by.height, 1, 32000),
        yes(p[1], true),
        yes(p[2], false),
      );
    }
    case 'BA': {
      // ^BAo,h,f,g,e: Code 93
      const sbs = bwipSbs('code93', data, { includecheck: true });
      return linear(
        'code93',
        data,
        modules(sbs),
        int(p[0], by.height, 1, 32000),
        yes(p[1], true),
        yes(p[2], false),
      );
    }
    case 'BK': {
      // ^BKo,e,h,f,g,k,l: Codabar with start k and stop l (default A)
      const start = (p[4] || 'A').toUpperCase();
      const stop = (p[5] || 'A').toUpperCase();
      const sbs = bwipSbs('rationalizedCodabar', `${start}${data}${stop}`, {});
      return linear(
        'codabar',
        data,
        twoWidth(sbs),
        int(p[1], by.height, 1, 32000),
        yes(p[2], true),
        yes(p[3], false),
        `${start}${data}${stop}`,
      );
    }
    case 'B1': {
      const sbs = bwipSbs('code11', data, {});
      return linear(
        'code11',
        data,
        twoWidth(sbs),
        int(p[1], by.height, 1, 32000),
        yes(p[2], true),
        yes(p[3], false),
      );
    }
    case 'BE':
    case 'B8':
    case 'BU':
    case 'B9': {
      // ^BEo,h,f,g (EAN-13), ^B8 (EAN-8), ^BUo,h,f,g,e (UPC-A), ^B9o,h,f,g,e (UPC-E): the check digit is computed.
      const bcid = name === 'BE' ? 'ean13' : name === 'B8' ? 'ean8' : name === 'BU' ? 'upca' : 'upce';
      const digits = { ean13: 12, ean8: 7, upca: 11, upce: 7 }[bcid];
      const body = data.replace(/\D/g, '').slice(0, digits).padStart(digits, '0');
      const value = body + gs1Check(bcid === 'upce' ? upceToUpca(body) : body);
      const geometry = encodeBarcode(bcid, value);
      if (geometry.kind !== 'linear') throw new Error('the encoder returned no symbol.');
      const q = geometry.quietLeft;
      const widths: number[] = [];
      let at = q;
      for (const [start, w] of geometry.bars) {
        if (widths.length) widths.push((start - at) * m);
        widths.push(w * m);
        at = start + w;
      }
      const hri = yes(p[1], true);
      const above = yes(p[2], false);
      const symbol = linear(bcid, geometry.value, widths, int(p[0], by.height, 1, 32000), hri, above);
      if (symbol.kind === 'linear' && hri && !above && geometry.retail) {
        symbol.retail = {
          guards: geometry.retail.roles.map((r) => r === 'guard'),
          digits: geometry.retail.digits
            .filter((d) => !d.above)
            .map((d) => ({ text: d.text, from: (d.from - q) * m, to: (d.to - q) * m, small: d.small })),
        };
      }
      return symbol;
    }
    case 'BQ': {
      // ^BQo,model,mag,ecc,mask; data "QA,text": error correction, input mode, comma.
      const mag = int(p[1], dpi >= 600 ? 6 : dpi >= 300 ? 3 : 2, 1, 100);
      const head = /^([HQML])([AM]),/i.exec(data);
      const level = ((head?.[1] ?? p[2] ?? 'Q').toUpperCase() || 'Q') as QrEcLevel;
      const text = head ? data.slice(head[0].length) : data;
      const qr = encodeQr(text, 'HQML'.includes(level) ? level : 'Q');
      if (!qr) throw new Error('too long for a QR code.');
      return {
        kind: 'matrix',
        format: 'qrcode',
        value: text,
        rows: qr.size,
        cols: qr.size,
        modules: qr.modules,
        moduleWidth: mag,
        moduleHeight: mag,
        problems: [],
      };
    }
    case 'BX': {
      // ^BXo,h,s,c,r,f,g,a: Data Matrix ECC 200, h = module size in dots.
      const h = int(p[0], Math.max(1, Math.round(dpi / 100)), 1, 100);
      const cols = int(p[2], 0, 0, 144);
      const rows = int(p[3], 0, 0, 144);
      const opts = cols && rows ? { columns: cols, rows } : {};
      return bwipMatrix('datamatrix', data, opts, h, h);
    }
    case 'B7': {
      // ^B7o,h,s,c,r,t: PDF417, h = row height in dots, s = security level, c columns.
      const h = int(p[0], by.height > 0 ? Math.max(1, Math.round(by.height / 10)) : 3 * m, 1, 1000);
      const opts: Record<string, number> = {};
      const s = int(p[1], -1, 0, 8);
      if (s >= 0) opts.eclevel = s;
      const c = int(p[2], 0, 1, 30);
      if (c) opts.columns = c;
      return bwipMatrix('pdf417', data, opts, m, h, true);
    }
    case 'BO':
    case 'B0': {
      // ^B0a,b,c,d,e,f,g: Aztec, b = magnification.
      const mag = int(p[0], dpi >= 300 ? 3 : 2, 1, 10);
      return bwipMatrix('azteccode', data, {}, mag, mag);
    }
    case 'BD':
      return maxiCode(p, data, dpi);
    default:
      throw new Error(`bar code ^${name} is not drawn.`);
  }
}

/** MaxiCode's nominal module pitch: the symbol is 28.14 mm wide (30½ modules) in ISO/IEC 16023. */
const MAXICODE_PITCH_MM = 28.14 / 30.5;

/**
 * ^BDm,n,t: MaxiCode mode m (2–6, default 2), symbol n of t (structured append). In modes 2 and 3 the field
 * data starts with the high-priority message: three digits of class of service, three of country code, then
 * the postal code (mode 2: 5 digits and a 4-digit extension, 0000 when there is none; mode 3: 6 characters);
 * the rest is the low-priority message, often `[)>` RS `01` GS `yy`… as carriers send it. The encoder wants
 * postal code, country and class as the first GS-separated fields, after that header when there is one.
 */
function maxiCode(p: readonly string[], data: string, dpi: number): ZplSymbol {
  const mode = int(p[0], 2, 2, 6);
  const n = int(p[1], 1, 1, 8);
  const t = int(p[2], 1, 1, 8);
  let text = data;
  if (mode === 2 || mode === 3) {
    const hpm =
      mode === 2 ? /^(\d{3})(\d{3})(\d{5})(\d{4})?/.exec(data) : /^(\d{3})(\d{3})([0-9A-Z ]{6})/i.exec(data);
    if (!hpm) {
      throw new Error(
        mode === 2
          ? 'mode 2 data must start with 3 digits of class, 3 of country and a 9-digit postal code.'
          : 'mode 3 data must start with 3 digits of class, 3 of country and a 6-character postal code.',
      );
    }
    const [all, service, country, post, ext] = hpm as unknown as [string, string, string, string, string?];
    const postcode = mode === 2 ? `${post}${ext ?? ''}` : post;
    const rest = data.slice(all.length);
    // eslint-disable-next-line no-control-regex -- RS and GS are the header's separators
    const header = /^\[\)>\x1e01\x1d\d{2}/.exec(rest);
    const fields = `${postcode}\x1d${country}\x1d${service}\x1d`;
    text = header ? `${header[0]}${fields}${rest.slice(header[0].length)}` : `${fields}${rest}`;
  }
  const options: Record<string, unknown> = { bcid: 'maxicode', text, mode };
  if (t > 1) options.sam = `${Math.min(n, t)}${t}`;
  const result = bwipjs.raw(options as unknown as Parameters<typeof bwipjs.raw>[0]) as unknown;
  const first = (Array.isArray(result) ? result[0] : undefined) as { pixs?: number[] } | undefined;
  if (!first?.pixs) throw new Error('the encoder returned no symbol.');
  return {
    kind: 'maxicode',
    format: 'maxicode',
    value: text,
    dark: first.pixs,
    pitch: (MAXICODE_PITCH_MM * dpi) / 25.4,
    problems: [],
  };
}

function bwipSbs(bcid: string, text: string, opts: Record<string, unknown>): number[] {
  const result = bwipjs.raw({ bcid, text, ...opts }) as unknown;
  const first = (Array.isArray(result) ? result[0] : undefined) as { sbs?: number[] } | undefined;
  if (!first?.sbs) throw new Error('the encoder returned no symbol.');
  return first.sbs;
}

function bwipMatrix(
  bcid: string,
  text: string,
  opts: Record<string, unknown>,
  moduleWidth: number,
  moduleHeight: number,
  pdf417 = false,
): ZplSymbol {
  const result = bwipjs.raw({ bcid, text, ...opts }) as unknown;
  const first = (Array.isArray(result) ? result[0] : undefined) as
    { pixs?: number[]; pixx?: number; pixy?: number } | undefined;
  if (!first?.pixs || !first.pixx) throw new Error('the encoder returned no symbol.');
  const cols = first.pixx;
  // PDF417: bwip-js lists each row once; ZPL's row height is ^B7's h, not BWIPP's 3 modules.
  const rows = pdf417 ? first.pixs.length / cols : (first.pixy ?? first.pixs.length / cols);
  const modules = new Uint8Array(rows * cols);
  for (let i = 0; i < modules.length; i++) modules[i] = first.pixs[i] ? 1 : 0;
  return {
    kind: 'matrix',
    format: bcid,
    value: text,
    rows,
    cols,
    modules,
    moduleWidth,
    moduleHeight,
    problems: [],
  };
}

function gs1Check(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** UPC-E (number system + 6 digits) expanded to the UPC-A its check digit is computed over. */
function upceToUpca(e: string): string {
  const ns = e[0] ?? '0';
  const d = e.slice(1);
  const last = d[5] ?? '0';
  let body: string;
  if ('012'.includes(last)) body = `${d.slice(0, 2)}${last}0000${d.slice(2, 5)}`;
  else if (last === '3') body = `${d.slice(0, 3)}00000${d.slice(3, 5)}`;
  else if (last === '4') body = `${d.slice(0, 4)}00000${d[4] ?? '0'}`;
  else body = `${d.slice(0, 5)}0000${last}`;
  return ns + body;
}
