/**
 * SSCC counters through the job service (issue #23): the job store reserves each label's serial reference in the
 * transaction that creates its job, so SSCCs are never typed and never repeat on this workstation — across jobs,
 * a restart (a new service over the same SQLite file), other printers and other templates with the same company
 * prefix; a job that would run past the last serial reference is refused and reserves nothing. An SSCC names one
 * logistic unit, so the copies of a row (the same pallet labelled on two sides) share it; rows get their own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/model/parse';
import { openJobService, type JobService } from '../../../src/node/jobs/job-service';
import { JobRequestError } from '../../../src/node/jobs/job-service-types';

/** A pallet label printing its SSCC as GS1-128; `name` and `companyPrefix` vary per test. */
function pallets(name: string, companyPrefix = '0614141', extension = '3') {
  return parseTemplate({
    schemaVersion: 1,
    name,
    stage: { width: 4, height: 2, unit: 'in' },
    fields: [
      {
        name: 'sscc',
        label: 'SSCC',
        placeholder: '306141410000000013',
        type: 'counter',
        counter: { gs1: { kind: 'sscc', extension, companyPrefix } },
      },
    ],
    elements: [
      { type: 'barcode', x: 10, y: 10, width: 364, height: 150, format: 'gs1-128', text: '(00){sscc}' },
    ],
  });
}

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-sscc-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function service(dataDir: string): JobService {
  const s = openJobService({ dataDir, user: 'ada', machine: 'desk-1' });
  cleanup.push(() => s.close());
  return s;
}

/** The SSCCs a job's labels were given, in label order (the job store's own record of each label). */
async function ssccsOf(
  jobs: JobService,
  template: ReturnType<typeof pallets>,
  printer: string,
  count: number,
): Promise<string[]> {
  const { job } = await jobs.addJob({
    template,
    printer,
    rows: Array.from({ length: count }, () => ({ data: {} })),
    dpi: 203,
    start: false, // nothing to print to: the numbers are reserved when the job is created
  });
  return jobs.labels(job.id).map((l) => l.counters.sscc ?? '');
}

describe('SSCC counters in the job store', () => {
  it('two jobs and a restart give distinct consecutive SSCCs, shared by every template and printer of the prefix', async () => {
    const dir = tempDir();
    let jobs = service(dir);
    const first = await ssccsOf(jobs, pallets('pallets'), 'tcp://127.0.0.1:9101', 2);
    const second = await ssccsOf(jobs, pallets('pallets'), 'tcp://127.0.0.1:9101', 1);
    // Another printer and another template with the same extension digit and company prefix: the same range.
    const elsewhere = await ssccsOf(jobs, pallets('cartons'), 'tcp://127.0.0.1:9102', 1);
    await jobs.close();

    jobs = service(dir); // a new process over the same jobs.sqlite
    const afterRestart = await ssccsOf(jobs, pallets('pallets'), 'tcp://127.0.0.1:9101', 2);
    // Another company prefix has its own range, from its start.
    const otherPrefix = await ssccsOf(jobs, pallets('pallets', '0614142'), 'tcp://127.0.0.1:9101', 1);

    // extension 3 + 0614141 + serial reference 000000001… + the mod-10 check digit (computed by hand).
    expect([...first, ...second, ...elsewhere, ...afterRestart]).toEqual([
      '306141410000000013',
      '306141410000000020',
      '306141410000000037',
      '306141410000000044',
      '306141410000000051',
      '306141410000000068',
    ]);
    expect(otherPrefix).toEqual(['306141420000000012']);
  }, 30_000);

  it('a job that would pass the last serial reference is refused, naming the field, and reserves nothing', async () => {
    const dir = tempDir();
    const jobs = service(dir);
    // A 12-digit company prefix leaves a 4-digit serial reference: 0000 to 9999.
    const narrow = parseTemplate({
      ...JSON.parse(JSON.stringify(pallets('narrow', '061414112345'))),
      fields: [
        {
          name: 'sscc',
          label: 'Pallet SSCC',
          placeholder: '',
          type: 'counter',
          counter: { start: 9997, gs1: { kind: 'sscc', extension: '0', companyPrefix: '061414112345' } },
        },
      ],
    });
    const add = (count: number) =>
      jobs.addJob({
        template: narrow,
        printer: 'tcp://127.0.0.1:9101',
        rows: Array.from({ length: count }, () => ({ data: {} })),
        copies: 2, // each pallet labelled on two sides: copies do not use up serial references
        start: false,
        dpi: 203,
      });
    const refused = await add(4).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(JobRequestError);
    expect((refused as Error).message).toMatch(
      /^Pallet SSCC \(sscc\): the SSCC range is exhausted — .* the last is 9999, and this job needs up to 10000 \(3 left\)/,
    );
    expect(jobs.listJobs()).toEqual([]);
    // The refused job reserved nothing: the last three serial references are still there.
    const { job } = await add(3);
    expect(jobs.labels(job.id).map((l) => l.counters.sscc)).toEqual([
      '006141411234599976',
      '006141411234599976',
      '006141411234599983',
      '006141411234599983',
      '006141411234599990',
      '006141411234599990',
    ]);
    await expect(add(1)).rejects.toThrow(/the SSCC range is exhausted .* \(none left\)/);
  }, 30_000);

  it('copies of a row share its SSCC (both sides of a pallet), rows with different copies too; a serial number per label does not', async () => {
    const jobs = service(tempDir());
    const template = parseTemplate({
      ...JSON.parse(JSON.stringify(pallets('sides'))),
      fields: [
        ...JSON.parse(JSON.stringify(pallets('sides'))).fields,
        { name: 'n', label: 'Label number', placeholder: '', type: 'counter', counter: { start: 1 } },
      ],
    });
    // Three pallets, the second labelled on four sides: rows with different copies are stored one label each.
    const { job } = await jobs.addJob({
      template,
      printer: 'tcp://127.0.0.1:9101',
      rows: [
        { data: {}, copies: 2 },
        { data: {}, copies: 4 },
        { data: {}, copies: 1 },
      ],
      start: false,
      dpi: 203,
    });
    const labels = jobs.labels(job.id);
    expect(labels.map((l) => [l.row, l.counters.sscc, l.counters.n])).toEqual([
      [1, '306141410000000013', '1'],
      [1, '306141410000000013', '2'],
      [2, '306141410000000020', '3'],
      [2, '306141410000000020', '4'],
      [2, '306141410000000020', '5'],
      [2, '306141410000000020', '6'],
      [3, '306141410000000037', '7'],
    ]);
    // Three SSCCs were used, not seven: the next job starts at the fourth.
    expect(await ssccsOf(jobs, template, 'tcp://127.0.0.1:9101', 1)).toEqual(['306141410000000044']);
    // Equal copies (rows stored once with copies): the same rule.
    const { job: equal } = await jobs.addJob({
      template,
      printer: 'tcp://127.0.0.1:9101',
      rows: [{ data: {} }, { data: {} }],
      copies: 2,
      start: false,
      dpi: 203,
    });
    expect(jobs.labels(equal.id).map((l) => l.counters.sscc)).toEqual([
      '306141410000000051',
      '306141410000000051',
      '306141410000000068',
      '306141410000000068',
    ]);
  }, 30_000);
});
