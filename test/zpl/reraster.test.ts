/**
 * Re-rasterising a ZPL file at another dpi (src/zpl/reraster.ts): each label keeps its physical size and its bar
 * codes still scan (zbarimg on the dots that would be printed), turned or not, up and down in resolution; the
 * label's ^PQ copies and the settings kept travel with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundledFonts } from '../../src/node/fonts';
import { nodeOutputPorts } from '../../src/node/render-ports';
import { planZplPrint } from '../../src/zpl/print-plan';
import { rerasterZplLabels } from '../../src/zpl/reraster';
import { scanZplJob } from '../support/barcode-label';
import { decodeZpl } from '../support/zpl-decode';

const dir = mkdtempSync(join(tmpdir(), 'ld-reraster-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ports = nodeOutputPorts(loadBundledFonts());
const bytes = (s: string) => new TextEncoder().encode(s);

function reraster(zpl: string, fromDpi: number, toDpi: number, keepSettings = false) {
  const input = bytes(zpl);
  const plan = planZplPrint(input, { keepSettings });
  return rerasterZplLabels(input, plan, {
    fromDpi,
    toDpi,
    fonts: ports.fonts,
    toMonoBitmap: ports.toMonoBitmap,
    maxWidthDots: Math.round(4.2 * toDpi),
    ...(ports.deflate ? { deflate: ports.deflate } : {}),
  });
}

const text = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString('latin1');

describe('rerasterZplLabels', () => {
  const cases = [
    ['Code 128 with ^BY3', '^BY3^FO40,40^BCN,150,Y,N,N^FD1Z999AA100000042^FS', ['1Z999AA100000042']],
    ['Code 128 turned 90°', '^BY2^FO100,40^BCR,150,N,N,N^FDPARCEL-0042^FS', ['PARCEL-0042']],
    ['Code 39 (two widths, ratio 2.5)', '^BY2,2.5^FO40,40^B3N,N,120,N,N^FDABC-123^FS', ['ABC-123']],
    ['QR code', '^FO40,40^BQN,2,4^FDQA,https://example.com/t/42^FS', ['https://example.com/t/42']],
  ] as const;
  for (const [name, field, values] of cases) {
    for (const [from, to] of [
      [203, 300],
      [300, 203],
      [203, 600],
    ] as const) {
      it(`${name}: ${from} → ${to} dpi keeps the size and scans`, () => {
        const zpl = `^XA^PW${Math.round(4 * from)}^LL${Math.round(3 * from)}${field}^XZ`;
        const { labels, warnings } = reraster(zpl, from, to);
        expect(warnings).toEqual([]);
        const job = text(labels[0]);
        const decoded = decodeZpl(job);
        expect([decoded.printWidth, decoded.labelLength]).toEqual([4 * to, 3 * to]);
        expect(scanZplJob(job, dir, `${name.replace(/\W+/g, '-')}-${from}-${to}`)).toEqual(values);
      });
    }
  }

  it('keeps ^PQ copies and the settings kept, inside the label where they were written', () => {
    const { labels } = reraster('~SD25\r\n^XA^PR4^PW812^LL406^FO10,10^GB100,100,4^FS^PQ3^XZ', 203, 300, true);
    expect(text(labels[0])).toMatch(
      /^~SD25\n\^XA\n\^PR4\n\^PW1200\n\^LL600\n\^FO0,0\^GFA,[^]*\^PQ3\n\^XZ\n$/,
    );
  });

  it('names what the reader cannot draw: it is missing from the label', () => {
    const { warnings } = reraster(
      '^XA^PW812^FO10,10^GB50,50,2^FS^FO100,10^GFC,8,8,1,00000000^FS^XZ',
      203,
      300,
    );
    expect(warnings.map((w) => [w.label, w.warning.command])).toEqual([[1, '^GF']]);
  });

  it('a serialised label prints each copy with its own number (one format per copy, not ^PQ of the first)', () => {
    const zpl = '^XA^PW812^LL406^BY3^FO40,40^BCN,150,Y,N,N^SNPKG-0001,1,Y^FS^PQ3^XZ';
    const { labels } = reraster(zpl, 203, 300);
    const job = text(labels[0]);
    const formats = job.split('^XZ\n').filter((f) => f.includes('^XA'));
    expect(formats).toHaveLength(3);
    expect(job).not.toMatch(/\^PQ/);
    expect(formats.map((f, n) => scanZplJob(`${f}^XZ\n`, dir, `serial-${n}`))).toEqual([
      ['PKG-0001'],
      ['PKG-0002'],
      ['PKG-0003'],
    ]);
  });
});
