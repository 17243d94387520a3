import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTransport } from '../../../src/node/printers/file';
import { queryStatus } from '../../../src/printers/query';
import { PrinterNotFound, PrinterRefused, PrinterUnsupported } from '../../../src/printers/transport';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('file:// transport', () => {
  it('writes the job bytes, replacing the file on each open', async () => {
    const path = join(dir, 'out.zpl');
    for (const job of ['^XA^FDfirst^FS^XZ\n', '^XA^FDsecond ü^FS^XZ\n']) {
      const t = createFileTransport({ scheme: 'file', path });
      await t.open();
      await t.write(job);
      await t.close();
    }
    expect(readFileSync(path, 'utf8')).toBe('^XA^FDsecond ü^FS^XZ\n');
  });

  it('typed errors: missing folder, a folder as the file; no status', async () => {
    await expect(
      createFileTransport({ scheme: 'file', path: join(dir, 'no/such/dir/out.zpl') }).open(),
    ).rejects.toBeInstanceOf(PrinterNotFound);
    await expect(createFileTransport({ scheme: 'file', path: dir }).open()).rejects.toBeInstanceOf(
      PrinterRefused,
    );
    const t = createFileTransport({ scheme: 'file', path: join(dir, 's.zpl') });
    await expect(t.request()).rejects.toBeInstanceOf(PrinterUnsupported);
    expect((await queryStatus(t)).state).toBe('unknown');
  });
});
