/**
 * A second "Print valid rows" while the first batch is being created (#17 item 5): main refuses the second start
 * of the same file, template and printer, so the printer receives every record once. Real parts: a temp data
 * folder, the Zebra emulator on loopback TCP, the bundled shipping template, the job queue in SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { plainCipher } from '../../../main/app/secret-store';
import { createAppServices, type AppServices } from '../../../main/app/services';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { ipcCalls } from '../../support/ipc-calls';

let dir: string;
let services: AppServices;
let zebra: ZebraEmulator;

const { call } = ipcCalls(() => services);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-batch-guard-'));
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

it('refuses a second start of the same batch while the first is created; each record prints once', async () => {
  const rows = ['ship_to_name,ship_to_address,tracking'];
  for (let i = 1; i <= 3; i++) rows.push(`Customer ${i},${i} Main St,1Z999AA1012345678${i}`);
  const request = {
    ref: { source: 'bundled', name: 'shipping-4x6' },
    csv: rows.join('\n'),
    printer: '1',
    skipInvalid: false,
  } as const;

  const settled = await Promise.allSettled([call('batch.start', request), call('batch.start', request)]);
  // Exactly one starts — whichever reaches the guard first (both first look up their printer, which may finish in
  // either order) — and the other is refused.
  const first = settled.find((s) => s.status === 'fulfilled');
  const second = settled.find((s) => s.status === 'rejected');
  expect(first, JSON.stringify(settled)).toBeDefined();
  expect(second).toMatchObject({
    status: 'rejected',
    reason: { code: 'conflict', message: expect.stringContaining('already starting on Dock Zebra') },
  });
  await labelsArrived(3);
  const jobs = await call('jobs.list', {});
  expect(jobs.filter((j) => j.template === 'shipping-4x6')).toHaveLength(1);

  // Once the first has been created, the same file can be printed again on purpose (another run).
  const again = await call('batch.start', request);
  expect(again.job.labelCount).toBe(3);
});
