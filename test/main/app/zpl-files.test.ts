/**
 * ZPL files in the app through the IPC contract (issue #33 items 3 and 4): `zpl.open` reads a carrier's file
 * (its labels, their sizes, its settings in words), `zpl.label` is the printer view (1-bit at the printer's dpi),
 * `zpl.print` sends each label's own bytes through the job queue (the file's settings out unless kept; two
 * calls at once are one print), `zpl.export` writes a PDF of every label; payloads are parsed and budgeted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import { ZPL_FILE_MAX_BYTES } from '../../../src/ipc/contract';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { ipcCalls } from '../../support/ipc-calls';
import { monoPngToBitmap } from '../../support/mono-png';

let dir: string;
let services: AppServices;
let zebra: ZebraEmulator;

const { call, refused } = ipcCalls(() => services);

const LABEL = (tracking: string) =>
  `^XA^PR4^PW406^LL203^FO10,10^GB386,183,2^FS^FO20,20^A0N,30,30^FD${tracking}^FS^FO20,70^BY2^BCN,80,N,N,N^FD${tracking}^FS^XZ\n`;
const FILE = `~SD25\n${LABEL('TRK-001')}${LABEL('TRK-002')}`;
const b64 = (text: string) => Buffer.from(text).toString('base64');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-zpl-files-'));
  zebra = await startZebraEmulator({ dpi: 203 });
  services = await createAppServices({
    dataDir: dir,
    shell: 'web',
    version: 'test',
    cipher: plainCipher,
    printers: [{ id: 1, uri: zebra.uri, name: 'Dock Zebra' }],
  });
});

afterAll(async () => {
  await services.close();
  await zebra.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves once the emulator holds `count` labels (the emulator tells when a job arrives). */
async function labelsArrived(count: number): Promise<void> {
  while (zebra.jobs.length < count) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('zpl.open', () => {
  it('lists the labels with their sizes and first text, and names the settings in words', async () => {
    const file = await call('zpl.open', { fileName: 'carrier.zpl', base64: b64(FILE), printer: '1' });
    expect(file.labels.map((l) => [l.number, l.size, l.summary, l.widthDots, l.heightDots])).toEqual([
      [1, '2 × 1 in', 'TRK-001', 406, 203],
      [2, '2 × 1 in', 'TRK-002', 406, 203],
    ]);
    expect(file.settings).toMatch(/~SD25 \(darkness\)/);
    expect(file.settings).toMatch(/\^PR4 \(print speed\)/);
    expect(file.warnings.join('\n')).toMatch(/taken out unless you keep the file's printer settings/);
  });

  it('refuses a file without a label with a sentence, and one over the budget before reading it', async () => {
    const none = await refused('zpl.open', { fileName: 'notes.txt', base64: b64('hello') });
    expect(none.message).toBe('notes.txt has no label in it (no ^XA…^XZ): there is nothing to print.');
    const big = await refused('zpl.open', {
      fileName: 'huge.zpl',
      base64: 'A'.repeat(Math.ceil(ZPL_FILE_MAX_BYTES / 3) * 4 + 4),
    });
    expect(big.code).toBe('bad-request');
  });
});

describe('zpl.label and zpl.export', () => {
  it('draws each label 1-bit at the dpi, and exports every label as one PDF', async () => {
    const { token } = await call('zpl.open', { fileName: 'carrier.zpl', base64: b64(FILE) });
    const view = await call('zpl.label', { token, number: 2 });
    expect(view).toMatchObject({ dpi: 203, dpiAssumed: true, widthDots: 406, heightDots: 203, cut: null });
    const dots = monoPngToBitmap(view.dataUrl);
    expect(dots.data.some((byte) => byte !== 0)).toBe(true);
    expect((await refused('zpl.label', { token, number: 3 })).message).toBe('carrier.zpl has no label 3.');
    const pdf = await call('zpl.export', { token, format: 'pdf' });
    expect(pdf.fileName).toBe('carrier.pdf');
    expect(Buffer.from(pdf.base64, 'base64').toString('latin1')).toMatch(/\/Count 2\b/);
  });

  it('says a file no longer open must be opened again', async () => {
    const gone = await refused('zpl.label', { token: '0'.repeat(32), number: 1 });
    expect(gone.message).toBe('This ZPL file is no longer open: open it again.');
  });
});

describe('zpl.print', () => {
  it('prints each label once as its own bytes, the settings out; two calls at once are one job', async () => {
    const before = zebra.jobs.length;
    const { token } = await call('zpl.open', { fileName: 'carrier.zpl', base64: b64(FILE), printer: '1' });
    const request = { token, printer: '1', copies: 1, keepSettings: false };
    const [a, b] = await Promise.all([call('zpl.print', request), call('zpl.print', request)]);
    expect(a.job.id).toBe(b.job.id);
    expect(a.job.template).toBe('carrier.zpl');
    expect(a.job.labelCount).toBe(2);
    await labelsArrived(before + 2);
    const received = zebra.jobs.slice(before).map((j) => j.zpl);
    expect(received.map((z) => /\^FD(TRK-\d+)\^FS/.exec(z)?.[1])).toEqual(['TRK-001', 'TRK-002']);
    for (const z of received) expect(z).not.toMatch(/~SD|\^PR/);
    // History says what is on it: the first label's field texts.
    const listed = (await call('jobs.list', {})).find((j) => j.id === a.job.id);
    expect(listed?.onIt).toEqual([{ label: 'Text', value: 'TRK-001' }]);
  });

  it('keeps the settings when asked', async () => {
    const before = zebra.jobs.length;
    const { token } = await call('zpl.open', { fileName: 'kept.zpl', base64: b64(LABEL('TRK-009')) });
    await call('zpl.print', { token, printer: '1', copies: 1, keepSettings: true });
    await labelsArrived(before + 1);
    expect(zebra.jobs[before]!.zpl).toMatch(/\^PR4/);
  });

  it('remembers the choice for the printer when asked: its view says so, and its profile lets printer commands through only if saved', async () => {
    const view = async () => (await call('printers.list', {})).find((p) => p.id === '1');
    expect((await view())?.zplKeepSettings).toBeUndefined();
    const { token } = await call('zpl.open', { fileName: 'kept.zpl', base64: b64(LABEL('TRK-010')) });
    await call('zpl.print', { token, printer: '1', copies: 1, keepSettings: true, remember: true });
    expect((await view())?.zplKeepSettings).toBe(true);
    // Not remembered: the saved choice stays.
    const printed = zebra.jobs.length;
    const again = await call('zpl.open', { fileName: 'other.zpl', base64: b64(LABEL('TRK-011')) });
    await call('zpl.print', { token: again.token, printer: '1', copies: 1, keepSettings: false });
    expect((await view())?.zplKeepSettings).toBe(true);
    await labelsArrived(printed + 1);
    // A command that reaches beyond the label (~JR, a reset) is taken out: the profile does not allow those.
    const before = zebra.jobs.length;
    const reset = await call('zpl.open', { fileName: 'reset.zpl', base64: b64(`~JR\n${LABEL('TRK-012')}`) });
    await call('zpl.print', { token: reset.token, printer: '1', copies: 1, keepSettings: true });
    await labelsArrived(before + 1);
    expect(zebra.jobs[before]!.zpl).toMatch(/TRK-012/);
    expect(zebra.jobs[before]!.zpl).not.toMatch(/~JR/);
    // Back to the default for the tests after this one.
    const last = zebra.jobs.length;
    await call('zpl.print', { token, printer: '1', copies: 1, keepSettings: false, remember: true });
    await labelsArrived(last + 1);
    expect((await view())?.zplKeepSettings).toBe(false);
  });
});

describe('a file made for another dpi', () => {
  /** 4 × 6 in at 300 dpi: 1218 × 1800 dots, on the emulator's 203-dpi, 4 in printer. */
  const AT_300 =
    '^XA^PW1218^LL1800^FO30,30^GB1158,1740,6^FS^FO90,450^BY4^BCN,300,N,N,N^FD1Z300DPI0001^FS^XZ\n';

  it('is said so, and printed re-rasterised at the printer’s dpi unless sent as is', async () => {
    await call('printers.save', { id: '1', name: 'Dock Zebra', uri: zebra.uri, dpi: 203 });
    const file = await call('zpl.open', { fileName: 'big.zpl', base64: b64(AT_300), printer: '1' });
    expect(file.dpiMismatch).toMatchObject({ fileDpi: 300, printerDpi: 203 });
    expect(file.warnings.join('\n')).toMatch(/big\.zpl was made for 300 dpi .* prints at 203 dpi/);

    const before = zebra.jobs.length;
    await call('zpl.print', { token: file.token, printer: '1', copies: 1, keepSettings: false });
    await labelsArrived(before + 1);
    // Redrawn: one graphic at the printer's dpi, not the file's bar code command.
    expect(zebra.jobs[before]!.zpl).toMatch(/\^GFA/);
    expect(zebra.jobs[before]!.zpl).not.toMatch(/\^BC/);

    await call('zpl.print', { token: file.token, printer: '1', copies: 1, keepSettings: false, asIs: true });
    await labelsArrived(before + 2);
    expect(zebra.jobs[before + 1]!.zpl).toBe(AT_300.trimEnd());
  });
});
