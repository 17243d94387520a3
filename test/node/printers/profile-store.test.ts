import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfileStore, PROFILES_FILE_NAME } from '../../../src/node/printers/profile-store';
import { PrinterProfileError } from '../../../src/printers/profiles';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-profiles-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const profile = (uri: string, dpi = 203) => ({
  uri,
  name: uri,
  dpi,
  dpiSource: 'detected' as const,
  printWidthDots: 832,
});

describe('profile store', () => {
  it('saves per canonical URI, finds by any spelling, replaces and removes', async () => {
    const data = join(dir, 'a', 'nested');
    const store = createProfileStore(data);
    expect(await store.list()).toEqual([]);
    await store.put(profile('tcp://Dock7'));
    await store.put(profile('usb://0a5f:0181'));
    await store.put({ ...profile('tcp://dock7:9100', 300), darkness: 18 });
    expect((await store.list()).map((p) => [p.uri, p.dpi])).toEqual([
      ['usb://0a5f:0181', 203],
      ['tcp://dock7:9100', 300],
    ]);
    expect((await store.get('TCP://DOCK7'))?.darkness).toBe(18);
    expect(await store.remove('tcp://dock7')).toBe(true);
    expect(await store.remove('tcp://dock7')).toBe(false);
    expect(JSON.parse(readFileSync(join(data, PROFILES_FILE_NAME), 'utf8'))).toMatchObject({
      version: 2,
      profiles: [{ uri: 'usb://0a5f:0181' }],
    });
  });

  it("a version 1 file (media type a default never sent) is read as the printer's own media, and written as version 2", async () => {
    const data = join(dir, 'v1');
    mkdirSync(data, { recursive: true });
    const old = { ...profile('tcp://dock9'), mediaType: 'gap', darkness: 20 };
    writeFileSync(join(data, PROFILES_FILE_NAME), JSON.stringify({ version: 1, profiles: [old] }));
    const store = createProfileStore(data);
    const read = await store.get('tcp://dock9');
    expect(read).toMatchObject({ darkness: 20, dpi: 203 });
    expect(read?.mediaType).toBeUndefined();
    // A media type chosen now is kept, in a version 2 file.
    await store.put({ ...read!, mediaType: 'gap' });
    expect((await createProfileStore(data).get('tcp://dock9'))?.mediaType).toBe('gap');
    expect(JSON.parse(readFileSync(join(data, PROFILES_FILE_NAME), 'utf8')).version).toBe(2);
  });

  it('concurrent puts all land (writes are serialised), and no temp file is left behind', async () => {
    const data = join(dir, 'b');
    const store = createProfileStore(data);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put(profile(`tcp://10.0.0.${i + 1}`))));
    expect(await store.list()).toHaveLength(20);
    expect(readdirSync(data)).toEqual([PROFILES_FILE_NAME]);
  });

  it('refuses an invalid profile and reports a broken file with its path', async () => {
    const data = join(dir, 'c');
    const store = createProfileStore(data);
    await expect(store.put({ ...profile('tcp://a'), darkness: 99 })).rejects.toBeInstanceOf(
      PrinterProfileError,
    );
    mkdirSync(data, { recursive: true });
    writeFileSync(store.path, '{"version":1,"profiles":[{"uri":"tcp://a"}]}');
    await expect(store.list()).rejects.toThrow(/printer-profiles\.json: profiles\[0\]\.name: is required/);
    writeFileSync(store.path, '{oops');
    await expect(store.get('tcp://a')).rejects.toThrow(/printer-profiles\.json: not valid JSON/);
  });
});
