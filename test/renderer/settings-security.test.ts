/**
 * The Settings stores' side of the security settings: the folder for file printers comes from main's dialog
 * (its refusal shown by that card, not as a hosted-API error), and the API secret's session-only choice is
 * sent as the patch says.
 */
import { describe, expect, it } from 'vitest';
import { IpcError } from '../../src/ipc/errors';
import type { SettingsView } from '../../src/ipc/contract';
import { createStores } from '../../renderer/src/store';
import { createFakeApi } from './fake-api';

const setup = () => {
  const api = createFakeApi();
  const stores = createStores(api, { saveFile: () => undefined, printSvg: () => undefined });
  return { api, stores };
};

const view = (over: Partial<SettingsView>): SettingsView => ({
  apiBaseUrl: null,
  apiKey: null,
  hasSecret: false,
  secretKept: null,
  secretStorageProblem: null,
  siteUrl: null,
  siteKey: null,
  hasSiteSecret: false,
  siteSecretKept: null,
  filePrinterFolder: null,
  mode: 'local',
  defaultPrinter: null,
  lastPrinter: null,
  confirmCopiesAbove: 50,
  keepCopiesAfterPrint: false,
  recentTemplates: [],
  pinnedTemplates: [],
  ...over,
});

describe('security settings', () => {
  it("takes the folder for file printers from main's dialog", async () => {
    const { api, stores } = setup();
    api.on('settings.chooseFilePrinterFolder', () => view({ filePrinterFolder: '/home/ada/labels' }));
    await stores.connection.getState().chooseFilePrinterFolder();
    expect(stores.connection.getState().settings?.filePrinterFolder).toBe('/home/ada/labels');
    expect(api.callsTo('settings.chooseFilePrinterFolder')).toEqual([{}]);
  });

  it('shows a refusal on the folder card, not as a hosted API error', async () => {
    const { api, stores } = setup();
    api.on('settings.chooseFilePrinterFolder', () => {
      throw new IpcError(
        'invalid',
        'Folder for file printers: web mode cannot show a folder dialog.',
        'filePrinterFolder',
      );
    });
    await stores.connection.getState().chooseFilePrinterFolder();
    expect(stores.connection.getState().folderError?.message).toMatch(/^Folder for file printers: /);
    expect(stores.connection.getState().error).toBeNull();
  });

  it("sends a secret for the session only as asked, and shows main's sentence when storing is refused", async () => {
    const { api, stores } = setup();
    const problem = 'This desktop has no keyring to protect the API secret: keep it for this session only.';
    api.on('settings.update', (patch) => {
      if (!patch.secretForSessionOnly) throw new IpcError('invalid', problem, 'apiSecret', 'settings');
      return view({ hasSecret: true, secretKept: 'session', secretStorageProblem: problem });
    });
    expect(await stores.connection.getState().save({ apiSecret: 'sk-1' })).toBe(false);
    expect(stores.connection.getState().error).toMatchObject({ message: problem, field: 'apiSecret' });
    expect(await stores.connection.getState().save({ apiSecret: 'sk-1', secretForSessionOnly: true })).toBe(
      true,
    );
    expect(stores.connection.getState().settings?.secretKept).toBe('session');
  });
});
