/**
 * "Print to file" printers through the IPC contract (what a compromised renderer or a web-mode token holder
 * can send): only into the folder the user chose, checked on real paths — `..` and symbolic links do not lead
 * out — and the folder itself is never set from a payload. Real files and links in a temp folder.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { plainCipher } from '../../../main/app/secret-store';
import { dispatch } from '../../../main/app/dispatch';
import type { ChannelName, PrinterView, RequestOf } from '../../../src/ipc/contract';

let dir: string;
let folder: string;
let outside: string;
const opened: AppServices[] = [];

async function start(extra: { filePrinterFolder?: string; chooseFolder?: () => Promise<string | null> }) {
  const services = await createAppServices({
    dataDir: mkdtempSync(join(dir, 'data-')),
    shell: 'web',
    version: 'test',
    cipher: plainCipher,
    ...extra,
  });
  opened.push(services);
  return <C extends ChannelName>(channel: C, request: RequestOf<C>) => dispatch(services, channel, request);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-file-printers-'));
  folder = join(dir, 'labels');
  mkdirSync(join(folder, 'sub'), { recursive: true });
  outside = join(dir, 'precious.txt');
  writeFileSync(outside, 'keep me');
  symlinkSync(outside, join(folder, 'link-out.zpl'));
  symlinkSync(dir, join(folder, 'up'));
  symlinkSync(join(dir, 'nowhere.zpl'), join(folder, 'dangling.zpl'));
  writeFileSync(join(dir, 'real.zpl'), '');
  writeFileSync(join(folder, 'sub', 'in.zpl'), '');
  symlinkSync(join(folder, 'sub', 'in.zpl'), join(folder, 'link-in.zpl'));
});

afterAll(async () => {
  for (const s of opened) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('file printers through the contract', () => {
  it('are refused with a sentence pointing to Settings while no folder is chosen', async () => {
    const call = await start({});
    const answer = await call('printers.save', { name: 'Out', uri: `file://${join(dir, 'out.zpl')}` });
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'invalid', field: 'uri', action: 'settings' },
    });
    expect(!answer.ok && answer.error.message).toMatch(
      /^Printer address: .*Folder for file printers.*Settings/,
    );
    expect((await call('printers.list', {})).ok && (await call('printers.list', {}))).toMatchObject({
      result: [],
    });
  });

  it('write inside the chosen folder, and print there', async () => {
    const call = await start({ filePrinterFolder: folder });
    const settings = await call('settings.get', {});
    expect(settings).toMatchObject({ ok: true, result: { filePrinterFolder: folder } });
    for (const path of [
      join(folder, 'dock.zpl'),
      join(folder, 'sub', 'deep.zpl'),
      join(folder, 'link-in.zpl'),
    ]) {
      const answer = await call('printers.save', { name: 'Inside', uri: `file://${path}` });
      expect(answer.ok || answer.error.message).toBe(true);
    }
    const saved = await call('printers.save', {
      name: 'Dock file',
      uri: `file://${join(folder, 'print.zpl')}`,
    });
    if (!saved.ok) throw new Error(saved.error.message);
    const printed = await call('print.submit', {
      ref: { source: 'bundled', name: 'shipping-4x6' },
      values: {
        ship_to_name: 'Grace Hopper',
        ship_to_address: '1 Navy Yard',
        tracking: '1Z999AA10123456784',
      },
      copies: 1,
      printer: (saved.result as PrinterView).id,
    });
    expect(printed.ok || printed.error.message).toBe(true);
    await expect
      .poll(() => existsSync(join(folder, 'print.zpl')) && readFileSync(join(folder, 'print.zpl'), 'latin1'))
      .toContain('^XA');
  });

  it('never lead out of the folder: .., a link to a file or a folder outside, a dangling link, a device', async () => {
    const call = await start({ filePrinterFolder: folder });
    const attempts = [
      outside,
      join(folder, '..', 'precious.txt'),
      join(folder, 'link-out.zpl'),
      join(folder, 'up', 'precious.txt'),
      join(folder, 'dangling.zpl'),
      join(folder, 'missing-dir', 'x.zpl'),
      '/dev/null',
    ];
    for (const path of attempts) {
      const answer = await call('printers.save', { name: 'Sneaky', uri: `file://${path}` });
      expect(answer, path).toMatchObject({ ok: false, error: { code: 'invalid', field: 'uri' } });
      expect(!answer.ok && answer.error.message, path).toMatch(/^Printer address: /);
    }
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(existsSync(join(dir, 'nowhere.zpl'))).toBe(false);
    // Nor can an existing printer be moved out.
    const ok = await call('printers.save', { name: 'Fine', uri: `file://${join(folder, 'fine.zpl')}` });
    if (!ok.ok) throw new Error(ok.error.message);
    const moved = await call('printers.save', {
      id: (ok.result as PrinterView).id,
      name: 'Fine',
      uri: `file://${outside}`,
    });
    expect(moved).toMatchObject({ ok: false, error: { field: 'uri' } });
  });

  it('take the folder only from main: a payload cannot set it', async () => {
    const call = await start({});
    const sneaky = await call('settings.update', { filePrinterFolder: '/' } as RequestOf<'settings.update'>);
    expect(sneaky).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await call('settings.get', {})).toMatchObject({ result: { filePrinterFolder: null } });
    // Web mode has no folder dialog: it says how to set one.
    const chosen = await call('settings.chooseFilePrinterFolder', {});
    expect(chosen).toMatchObject({ ok: false, error: { code: 'invalid', field: 'filePrinterFolder' } });
    expect(!chosen.ok && chosen.error.message).toContain('--file-printer-folder');
  });

  it("use the folder main's dialog picked (its real path), and keep the old one when cancelled", async () => {
    const picks: (string | null)[] = [join(folder, 'up', 'labels'), null];
    const call = await start({ chooseFolder: async () => picks.shift() ?? null });
    expect(await call('settings.chooseFilePrinterFolder', {})).toMatchObject({
      ok: true,
      result: { filePrinterFolder: folder },
    });
    expect(await call('settings.chooseFilePrinterFolder', {})).toMatchObject({
      result: { filePrinterFolder: folder },
    });
  });
});
