/**
 * `labeldesk render --zpl FILE|@-` (issue #33 item 4): one output per label of a ZPL file, named so they sort;
 * PNG at the printer's dpi with bar codes a scanner reads; `--format zpl` the labels' own bytes unchanged.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli';
import { monoPngToBitmap } from '../support/mono-png';
import { zbarValues } from '../support/zbar';

const dir = mkdtempSync(join(tmpdir(), 'ld-render-zpl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LABEL = (n: number) =>
  `^XA^PW406^LL203^FO20,20^A0N,30,30^FDLabel ${n}^FS^FO20,70^BY2^BCN,80,N,N,N^FDPKG-00${n}^FS^XZ\n`;
const FILE = `~DGR:DOT.GRF,1,1,FF\n${LABEL(1)}${LABEL(2)}${LABEL(3)}`;

const dataUrl = (file: string) => `data:image/png;base64,${readFileSync(file).toString('base64')}`;

describe('labeldesk render --zpl', () => {
  it('writes one PNG per label at the label size, each bar code readable', async () => {
    const input = join(dir, 'carrier.zpl');
    writeFileSync(input, FILE);
    const out = join(dir, 'png');
    const r = await cli(['render', '--zpl', input, '--format', 'png', '--out', out]);
    expect(r.stderr).toMatch(/wrote 3 files/);
    expect(r.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toEqual(['carrier-001.png', 'carrier-002.png', 'carrier-003.png']);
    for (const [i, file] of files.entries()) {
      // The dots the printer burns: a 1-bit PNG at the label's size in dots.
      const { width, height } = monoPngToBitmap(dataUrl(join(out, file)));
      expect([width, height]).toEqual([406, 203]);
      expect(zbarValues(join(out, file))).toEqual([`PKG-00${i + 1}`]);
    }
  });

  it('--format zpl gives each label its own bytes unchanged, the download before the first kept with it', async () => {
    const out = join(dir, 'zpl');
    const r = await cli(['render', '--zpl', '@-', '--format', 'zpl', '--out', out], { stdin: FILE });
    expect(r.code).toBe(0);
    const parts = readdirSync(out)
      .sort()
      .map((f) => readFileSync(join(out, f), 'latin1'));
    expect(parts.join('')).toBe(FILE.trimEnd());
    expect(parts[0]?.startsWith('~DGR:DOT.GRF')).toBe(true);
  });

  it('warns about what it cannot draw, names a file that is not there, and wants --out for several labels', async () => {
    const one = await cli(['render', '--zpl', '@-', '--format', 'svg'], {
      stdin: '^XA^QQ^FO1,1^GB5,5,5^FS^XZ',
    });
    expect(one.code).toBe(0);
    expect(one.stderr).toMatch(/\^QQ at byte 3: unknown or unsupported command/);
    expect(one.stdout).toMatch(/^<svg/);
    const missing = await cli(['render', '--zpl', join(dir, 'none.zpl'), '--format', 'png']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/none\.zpl: no such file/);
    const many = await cli(['render', '--zpl', '@-', '--format', 'pdf'], { stdin: FILE });
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/3 labels need --out DIR/);
  });

  it('--label-size sizes a label without ^PW/^LL', async () => {
    const out = join(dir, 'sized');
    const r = await cli(
      ['render', '--zpl', '@-', '--format', 'png', '--label-size', '50x25mm', '--out', out],
      {
        stdin: '^XA^FO10,10^GB50,50,50^FS^XZ',
      },
    );
    expect(r.code).toBe(0);
    const { width, height } = monoPngToBitmap(dataUrl(join(out, readdirSync(out)[0]!)));
    expect([width, height]).toEqual([400, 200]);
  });
});
