/** `labeldesk jobs`, in-process, against the Zebra emulator over TCP. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLabelTag } from '../../src/jobs/model';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { cli } from '../support/cli';

let emulator: ZebraEmulator;
let dir: string;
beforeEach(async () => {
  emulator = await startZebraEmulator({ dpi: 300, port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-jobs-cli-'));
});
afterEach(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const add = (...extra: string[]) =>
  cli(['jobs', 'add', '--printer', emulator.uri, '--template', 'product-2x1', '--data-dir', dir, ...extra]);

describe('labeldesk jobs', () => {
  it('add prints every label at the printer’s own dpi and records who and when', async () => {
    const r = await add('--amount', '3', '--by', 'ada');
    expect(r.stderr).toContain('job 1: printing, 3 labels to send\n');
    expect(r.stdout).toBe(`job 1: 3 labels for ${emulator.uri}\njob 1 done: 3/3 confirmed\n`);
    expect(r.code).toBe(0);
    expect(emulator.printer.printed.map((j) => readLabelTag(j.zpl))).toEqual([
      { jobId: 1, labelNumber: 1 },
      { jobId: 1, labelNumber: 2 },
      { jobId: 1, labelNumber: 3 },
    ]);
    const show = await cli(['jobs', 'show', '1', '--json', '--data-dir', dir]);
    expect(JSON.parse(show.stdout)).toMatchObject({
      id: 1,
      state: 'done',
      printer: emulator.uri,
      dpi: 300,
      copies: 3,
      labelCount: 3,
      createdBy: 'ada',
      counts: { confirmed: 3, pending: 0 },
      possibleDuplicates: [],
    });
  });

  it('add --detach stores the job; cancel stops it; resume then has nothing to do', async () => {
    expect((await add('--amount', '2', '--detach')).stdout).toBe(`job 1: 2 labels for ${emulator.uri}\n`);
    expect(emulator.jobs).toEqual([]);
    const list = await cli(['jobs', 'list', '--data-dir', dir]);
    expect(list.stdout).toMatch(/^job 1 queued: 0\/2 confirmed {2}product-2x1 → tcp:\/\/127\.0\.0\.1:\d+ /);
    const cancel = await cli(['jobs', 'cancel', '1', '--data-dir', dir]);
    expect(cancel.stdout).toBe('job 1 cancelled (cancelled by the user): 0/2 confirmed\n');
    const resume = await cli(['jobs', 'resume', '--data-dir', dir]);
    expect(resume).toMatchObject({ code: 0, stdout: 'no unfinished jobs\n' });
    expect(emulator.jobs).toEqual([]);
  });

  it('resume continues a stored job and shows it as done', async () => {
    await add('--amount', '2', '--detach');
    const resume = await cli(['jobs', 'resume', '--data-dir', dir]);
    expect(resume.stdout).toBe('job 1 done: 2/2 confirmed\n');
    expect(emulator.printer.printed).toHaveLength(2);
    const show = await cli(['jobs', 'show', '1', '--data-dir', dir]);
    expect(show.stdout).toContain('possible duplicates: none');
  });

  it('reprint --printer draws the labels again for another printer (203 dpi: ^PW406 for 2 in)', async () => {
    expect((await add('--amount', '2')).code).toBe(0);
    const other = await startZebraEmulator({ dpi: 203, port: 0 });
    try {
      const r = await cli([
        'jobs',
        'reprint',
        '1',
        '--labels',
        '2',
        '--printer',
        other.uri,
        '--data-dir',
        dir,
      ]);
      expect(r.stdout).toContain(`job 2: reprint of job 1, 1 label on ${other.uri}\n`);
      expect(r.code).toBe(0);
      expect(other.printer.printed.map((j) => readLabelTag(j.zpl))).toEqual([{ jobId: 2, labelNumber: 1 }]);
      expect(other.printer.printed[0]?.zpl).toContain('^PW406');
      expect(emulator.printer.printed).toHaveLength(2);
      // A printer that does not answer: the dpi guessed is said, and --dpi sets it.
      const silent = `file://${join(dir, 'out.zpl')}`;
      const guessed = await cli(['jobs', 'reprint', '1', '--printer', silent, '--detach', '--data-dir', dir]);
      expect(guessed.stderr).toMatch(/^warning: .*203 dpi/m);
      const set = await cli([
        'jobs',
        'reprint',
        '1',
        '--labels',
        '1',
        '--printer',
        silent,
        '--dpi',
        '300',
        '--data-dir',
        dir,
      ]);
      expect(set.code).toBe(0);
      expect(readFileSync(join(dir, 'out.zpl'), 'latin1')).toContain('^PW600');
      const bad = await cli(['jobs', 'reprint', '1', '--printer', 'nope://x', '--data-dir', dir]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/^labeldesk: --printer: /m);
    } finally {
      await other.close();
    }
  });

  it('says what is wrong with the arguments', async () => {
    expect(await cli(['jobs', 'show', '--data-dir', dir])).toMatchObject({
      code: 2,
      stderr: 'labeldesk: a job id is required\n',
    });
    expect(await cli(['jobs', 'show', '4', '--data-dir', dir])).toMatchObject({
      code: 1,
      stderr: 'labeldesk: no job 4\n',
    });
    expect((await cli(['jobs', 'frobnicate'])).code).toBe(2);
    expect((await cli(['jobs', 'add', '--template', 'product-2x1'])).stderr).toContain(
      '--printer URI is required',
    );
  });
});
