/**
 * Our QR encoder (src/layout/barcode/qr/): what a user checks is that the printed symbol scans as the value,
 * so random values (ASCII, multi-byte UTF-8, digits, alphanumerics; 1–500 characters; every EC level) are
 * placed on a 300-dpi dot grid, drawn, and read back with zbarimg. Its tables are checked against ZXing's, and
 * its version and level against bwip-js, which it replaced for QR codes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QRCodeDecoderErrorCorrectionLevel, QRCodeVersion } from '@zxing/library';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BarcodeValueError,
  encodeBarcode,
  placeBarcode,
  type BarcodeGeometry,
  type MatrixGeometry,
} from '../../../src/layout/barcode';
import { bwipRaw } from '../../../src/layout/barcode/bwip';
import { encodeQr, type QrEcLevel } from '../../../src/layout/barcode/qr';
import {
  alignmentCentres,
  ecBlocks,
  ecCodewordsPerBlock,
  totalCodewords,
} from '../../../src/layout/barcode/qr/tables';
import { drawRects } from '../../support/draw-rects';
import { writeGreyPgm } from '../../support/pgm';
import { zbarDecodeFilesAsync } from '../../support/zbar';

const dir = mkdtempSync(join(tmpdir(), 'labeldesk-qr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LEVELS: readonly QrEcLevel[] = ['L', 'M', 'Q', 'H'];
const DPI = 300;
const DOTS_PER_MODULE = 3;

function matrix(g: BarcodeGeometry): MatrixGeometry {
  if (g.kind !== 'matrix') throw new Error(`expected a matrix symbol for ${g.format}`);
  return g;
}

/** The symbol as a user gets it: encoded, placed on a 300-dpi dot grid at 3 dots a module, written as PGM. */
function writeSymbol(name: string, value: string, level: QrEcLevel): string {
  const g = matrix(encodeBarcode('qrcode', value, { qrErrorCorrection: level }));
  const side = (g.cols + 2 * g.quietZone) * DOTS_PER_MODULE;
  const { node } = placeBarcode(g, { x: 0, y: 0, width: side, height: side }, { unit: 'dots', dpi: DPI });
  const image = drawRects(node.rects, side, side, 10);
  const path = join(dir, `${name}.pgm`);
  writeGreyPgm(path, image.width, image.height, image.grey);
  return path;
}

interface Sample {
  value: string;
  level: QrEcLevel;
}

/**
 * zbarimg's reading of each sample, in order. ASCII values are read in one zbarimg run per 50 images (its XML
 * output). Others are read one image per run as raw bytes (`--raw -Sbinary`), then as UTF-8: zbarimg 0.23's
 * XML base64-encodes non-ASCII data with sign-extended bytes, and without `binary` it guesses a character set
 * for data without an ECI, reading short UTF-8 values as Shift JIS (bwip-js's symbols read the same way).
 */
async function scan(samples: readonly Sample[], prefix: string): Promise<string[][]> {
  const paths = samples.map((s, i) => writeSymbol(`${prefix}-${i}`, s.value, s.level));
  const read = new Map<string, string[]>();
  const ascii = paths.filter((_, i) => /^[\x20-\x7e]*$/.test(samples[i]?.value ?? ''));
  for (let i = 0; i < ascii.length; i += 50) {
    const found = await zbarDecodeFilesAsync(ascii.slice(i, i + 50));
    for (const [p, symbols] of found)
      read.set(
        p,
        symbols.map((d) => d.value),
      );
  }
  const others = paths.filter((p) => !read.has(p));
  for (let i = 0; i < others.length; i += 4) {
    const chunk = others.slice(i, i + 4);
    const values = await Promise.all(chunk.map(zbarRaw));
    chunk.forEach((p, k) => read.set(p, values[k] ?? []));
  }
  return paths.map((p) => read.get(p) ?? []);
}

/** One image through `zbarimg --raw -Sbinary`: the symbol's bytes as UTF-8 ([] when none is found). */
function zbarRaw(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('zbarimg', ['-q', '--raw', '-Sbinary', path], { encoding: 'buffer' }, (error, stdout) => {
      // zbarimg exits 4 when no symbol was found; it ends the data with a newline.
      if (error && error.code !== 4) reject(error);
      else resolve(error ? [] : [stdout.toString('utf8').replace(/\n$/, '')]);
    });
  });
}

/** The EC level and mask in a symbol's format information (the copy around the top-left finder). */
function formatInfo(modules: ArrayLike<number>, size: number): { level: QrEcLevel; mask: number } {
  const at = (x: number, y: number): number => (modules[y * size + x] ? 1 : 0);
  const positions: Array<[number, number]> = [
    [8, 0],
    [8, 1],
    [8, 2],
    [8, 3],
    [8, 4],
    [8, 5],
    [8, 7],
    [8, 8],
    [7, 8],
    [5, 8],
    [4, 8],
    [3, 8],
    [2, 8],
    [1, 8],
    [0, 8],
  ];
  const bits = positions.reduce((acc, [x, y], i) => acc | (at(x, y) << i), 0) ^ 0x5412;
  const level = (['M', 'L', 'H', 'Q'] as const)[bits >>> 13] ?? 'M';
  return { level, mask: (bits >>> 10) & 7 };
}

// Blank values are refused before encoding; zbarimg's XML (the ASCII path of scan) would cut a value at "]]>".
const usable = (s: string): boolean => s.trim() !== '' && !s.includes(']]>');
const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 500 });
const alphanumerics = fc.string({
  unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'),
  minLength: 1,
  maxLength: 500,
});
const ascii = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 500 });
const unicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 });
// Mixed: digit runs inside text exercise the segment changes.
const mixed = fc
  .array(fc.oneof(digits, alphanumerics, ascii, unicode), { minLength: 2, maxLength: 4 })
  .map((parts) => parts.join('').slice(0, 500));

function samples(arb: fc.Arbitrary<string>, n: number, seed: number): Sample[] {
  return fc.sample(fc.record({ value: arb.filter(usable), level: fc.constantFrom(...LEVELS) }), {
    numRuns: n,
    seed,
  });
}

describe('random values scan back as typed (zbarimg, 300 dpi, fixed fast-check seeds)', () => {
  it.each([
    ['printable ASCII', ascii, 80, 1],
    ['UTF-8 multi-byte text', unicode, 60, 2],
    ['digits only (numeric mode)', digits, 50, 3],
    ['QR alphanumerics (alphanumeric mode)', alphanumerics, 50, 4],
    ['mixed segments', mixed, 60, 5],
  ] as const)(
    '%s',
    async (_name, arb, n, seed) => {
      const cases = samples(arb, n, seed);
      const read = await scan(cases, `random-${seed}`);
      const wrong = cases.flatMap((c, i) =>
        read[i]?.length === 1 && read[i]?.[0] === c.value ? [] : [{ ...c, read: read[i] }],
      );
      expect(wrong).toEqual([]);
    },
    120_000,
  );
});

describe('capacity: the largest value of a version fits it and scans; one more goes up a version', () => {
  // ISO/IEC 18004 table 7: [version, level, mode, capacity in characters].
  const limits: Array<[number, QrEcLevel, 'digits' | 'alphanumerics' | 'bytes', number]> = [
    [1, 'M', 'bytes', 14],
    [1, 'H', 'digits', 17],
    [2, 'Q', 'alphanumerics', 29],
    [9, 'L', 'bytes', 230],
    [10, 'M', 'digits', 513],
    [40, 'L', 'bytes', 2953],
    [40, 'M', 'alphanumerics', 3391],
    [40, 'Q', 'digits', 3993],
    [40, 'H', 'bytes', 1273],
    [40, 'L', 'alphanumerics', 4296],
    [40, 'H', 'digits', 3057],
    [40, 'L', 'digits', 7089],
  ];
  const fill = (mode: string, n: number): string =>
    (mode === 'digits' ? '8675309' : mode === 'alphanumerics' ? 'LABELDESK 42 ' : 'label desk? ')
      .repeat(Math.ceil(n / 5))
      .slice(0, n);

  it.each(limits)(
    'version %i-%s, %s: %i',
    async (version, level, mode, n) => {
      const value = fill(mode, n);
      expect(encodeQr(value, level)?.version).toBe(version);
      if (version < 40) expect(encodeQr(value + value.slice(-1), level)?.version).toBe(version + 1);
      else {
        // Over version 40, bwip-js words the error for the user, as before.
        expect(() => encodeBarcode('qrcode', value + '8', { qrErrorCorrection: level })).toThrow(
          BarcodeValueError,
        );
      }
      expect(await scan([{ value, level }], `limit-${version}-${level}-${mode}`)).toEqual([[value]]);
    },
    60_000,
  );
});

describe('the same symbol size and level as bwip-js', () => {
  // Values whose segmentation is not in doubt (one mode throughout), so the version is fixed by the spec.
  const values = [
    'HELLO WORLD',
    '4006381333931',
    'https://example.com/label?id=abc',
    'SHIP TO: ADA LOVELACE 12 ST JAMES SQ LONDON SW1Y 4JH',
    'Grüße aus Köln – 日本語のラベル',
    'x'.repeat(600),
  ];
  it.each(values.flatMap((v) => LEVELS.map((level) => [v, level] as const)))('%s at %s', (value, level) => {
    const ours = encodeQr(value, level)!;
    const theirs = bwipRaw('qrcode', value, { qrErrorCorrection: level });
    if (theirs.kind !== 'matrix') throw new Error('bwip-js gave no matrix');
    expect(ours.size).toBe(theirs.cols);
    // Both raise the level as far as the symbol still holds the value.
    expect(formatInfo(ours.modules, ours.size).level).toBe(formatInfo(theirs.pixs, theirs.cols).level);
    expect(formatInfo(ours.modules, ours.size).level).toBe(ours.level);
  });

  it('raises the level as far as the version still holds the value, as bwip-js does', () => {
    // 11 alphanumerics: version 1 at L, which also holds them at Q (16) but not at H (10).
    const hello = encodeQr('HELLO WORLD', 'L')!;
    expect([hello.version, hello.level]).toEqual([1, 'Q']);
    expect(formatInfo(hello.modules, hello.size).level).toBe('Q');
    expect(encodeQr('HELLO WORLD', 'H')).toMatchObject({ version: 2, level: 'H' });
  });

  it('defaults to level M like bwip-js did, with the 4-module quiet zone', () => {
    const value = 'https://labeldesk.example/track/1Z999AA10123456784';
    const g = matrix(encodeBarcode('qrcode', value));
    expect(g.modules).toEqual(matrix(encodeBarcode('qrcode', value, { qrErrorCorrection: 'M' })).modules);
    // Through our encoder, not bwip-js.
    expect(g.modules).toEqual(encodeQr(value, 'M')!.modules);
    const theirs = bwipRaw('qrcode', value, {});
    if (theirs.kind !== 'matrix') throw new Error('bwip-js gave no matrix');
    expect([g.cols, formatInfo(g.modules, g.cols).level]).toEqual([
      theirs.cols,
      formatInfo(theirs.pixs, theirs.cols).level,
    ]);
    expect(g.quietZone).toBe(4);
  });
});

describe('tables agree with ZXing', () => {
  const zxingLevel = {
    L: QRCodeDecoderErrorCorrectionLevel.L,
    M: QRCodeDecoderErrorCorrectionLevel.M,
    Q: QRCodeDecoderErrorCorrectionLevel.Q,
    H: QRCodeDecoderErrorCorrectionLevel.H,
  };
  it('codewords, blocks and alignment pattern centres for versions 1–40', () => {
    for (let version = 1; version <= 40; version++) {
      const zx = QRCodeVersion.getVersionForNumber(version);
      expect(totalCodewords(version)).toBe(zx.getTotalCodewords());
      expect(alignmentCentres(version)).toEqual([...zx.getAlignmentPatternCenters()]);
      for (const level of LEVELS) {
        const blocks = zx.getECBlocksForLevel(zxingLevel[level]);
        expect([ecCodewordsPerBlock(version, level), ecBlocks(version, level)]).toEqual([
          blocks.getECCodewordsPerBlock(),
          blocks.getNumBlocks(),
        ]);
      }
    }
  });
});
