/**
 * The Print screen's ZPL file (issue #33): a file too large or not ZPL is refused before it is read, in a
 * sentence; an opened file shows its first label; a second Print while the first is sent is not a second print.
 */
import { describe, expect, it } from 'vitest';
import { ZPL_FILE_MAX_BYTES, type ZplFileView } from '../../src/ipc/contract';
import { createZplStore, type PickedFile } from '../../renderer/src/store/zpl';
import { JOB, createFakeApi, deferred } from './fake-api';

const FILE: ZplFileView = {
  token: 'a'.repeat(32),
  fileName: 'carrier.zpl',
  labels: [1, 2, 3].map((number) => ({
    number,
    widthDots: 812,
    heightDots: 1218,
    size: '4 × 6 in',
    summary: `PARCEL ${number}`,
    copies: 1,
  })),
  warnings: [],
  settings: null,
  printerCommands: null,
  dpiMismatch: null,
};

/** A picked file that records whether it was read. */
function picked(name: string, size: number, text = '^XA^XZ'): PickedFile & { read: boolean } {
  const file = {
    name,
    size,
    read: false,
    async arrayBuffer() {
      file.read = true;
      return new TextEncoder().encode(text).buffer as ArrayBuffer;
    },
  };
  return file;
}

function setup() {
  const api = createFakeApi();
  const tracked: number[] = [];
  const store = createZplStore(api, { trackJob: (job) => tracked.push(job.id), saveFile: () => undefined });
  api.on('zpl.open', () => FILE);
  api.on('zpl.label', () => ({
    dataUrl: 'data:image/png;base64,',
    dpi: 203,
    dpiAssumed: false,
    widthDots: 812,
    heightDots: 1218,
    labelWidthDots: 812,
    labelHeightDots: 1218,
    cut: null,
  }));
  return { api, store, tracked };
}

describe('the ZPL file store', () => {
  it('refuses a file over the budget, or not ZPL, without reading it', async () => {
    const { api, store } = setup();
    const big = picked('huge.zpl', ZPL_FILE_MAX_BYTES + 1);
    await store.getState().open(big);
    expect(big.read).toBe(false);
    expect(store.getState().error?.message).toMatch(
      /^huge\.zpl is 8\.0 MB; a ZPL file is at most 8 MB: not opened\.$/,
    );
    const sheet = picked('rows.csv', 10);
    await store.getState().open(sheet);
    expect(sheet.read).toBe(false);
    expect(store.getState().error?.message).toBe(
      'rows.csv is not a ZPL file (.zpl, .prn or .txt): not opened.',
    );
    expect(api.callsTo('zpl.open')).toEqual([]);
  });

  it('opens a file and shows its first label for the chosen printer', async () => {
    const { api, store } = setup();
    await store.getState().setPrinter('1');
    await store.getState().open(picked('carrier.zpl', 6, '^XA^XZ'));
    expect(api.callsTo('zpl.open')).toEqual([
      { fileName: 'carrier.zpl', base64: btoa('^XA^XZ'), printer: '1' },
    ]);
    expect(store.getState().file?.labels).toHaveLength(3);
    expect(api.callsTo('zpl.label').at(-1)).toEqual({ token: FILE.token, number: 1, printer: '1' });
    expect(store.getState().raster?.dpi).toBe(203);
  });

  it('prints once when Print is pressed again while the first is sent', async () => {
    const { api, store, tracked } = setup();
    await store.getState().setPrinter('1');
    await store.getState().open(picked('carrier.zpl', 6));
    const answer = deferred<{ job: typeof JOB; message: string }>();
    api.on('zpl.print', () => answer.promise);
    const first = store.getState().print();
    const second = store.getState().print();
    answer.resolve({ job: JOB, message: '3 labels of carrier.zpl sent to Dock Zebra.' });
    await Promise.all([first, second]);
    expect(api.callsTo('zpl.print')).toEqual([
      { token: FILE.token, printer: '1', copies: 1, keepSettings: false, asIs: false },
    ]);
    expect(tracked).toEqual([JOB.id]);
    expect(store.getState().message).toBe('3 labels of carrier.zpl sent to Dock Zebra.');
  });
});
