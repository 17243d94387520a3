/**
 * The site's printers in the site database (src/node/site/site-printers.ts, `labeldesk site-printers`), with real
 * parts: a private PostgreSQL, the Zebra emulator over TCP, and `labeldesk serve --database` running in process
 * (serve-command.ts, as the CLI starts it). A printer added through the CLI is used by the running server's next
 * request with the row's profile; removed, it is a 422; GET /site/printers names no address; every change is in
 * the audit log.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serve } from '../../../src/cli/serve-command';
import type { CliIo } from '../../../src/cli/io';
import { openSiteDb, type SiteDb } from '../../../src/node/site/db';
import { readAudit, siteKeys } from '../../../src/node/site/site-stores';
import { startZebraEmulator, type ZebraEmulator } from '../../emulator/zebra-emulator';
import { cli } from '../../support/cli';
import { startPostgres, type TestPostgres } from '../../support/postgres';

let postgres: TestPostgres;
let url: string;
let db: SiteDb;
let work: string;
let printer: ZebraEmulator;
let headers: Record<string, string>;

interface Running {
  url: string;
  logs: () => string;
  stop(): Promise<number>;
}

/** `labeldesk serve …` in process, on a free port; stop() resolves with its exit code. */
async function startServe(args: string[]): Promise<Running> {
  let logs = '';
  const io: CliIo = {
    stdout: (t) => (logs += t),
    stderr: (t) => (logs += t),
    stdoutBytes: () => undefined,
    env: {},
    cwd: work,
    readStdin: async () => '',
  };
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let listening!: (url: string) => void;
  const at = new Promise<string>((resolve) => (listening = resolve));
  const exit = serve(['--port', '0', '--data-dir', mkdtempSync(join(work, 'data-')), ...args], io, {
    stop: stopped,
    onListening: listening,
  });
  const address = await Promise.race([
    at,
    exit.then((code) => Promise.reject(new Error(`exit ${code}: ${logs}`))),
  ]);
  return {
    url: address,
    logs: () => logs,
    stop: async () => {
      stop();
      return exit;
    },
  };
}

async function relay(server: Running, printerId: number, amount = 1) {
  const response = await fetch(`${server.url}/custom-labels/print-relay`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ label_name: 'product-2x1', amount, apiData: {}, printer_id: printerId }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function sitePrintersList(server: Running) {
  const response = await fetch(`${server.url}/site/printers`, { headers });
  return { status: response.status, text: await response.text() };
}

const site = (...args: string[]) => cli(['site-printers', ...args, '--database', url]);

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase();
  work = mkdtempSync(join(tmpdir(), 'ld-site-printers-'));
  printer = await startZebraEmulator({ dpi: 203, port: 0 });
  db = await openSiteDb(url, { max: 2 });
  const { key, secret } = await siteKeys(db).create();
  headers = { 'content-type': 'application/json', 'x-api-key': key, 'x-api-secret': secret };
}, 60_000);

afterAll(async () => {
  await db?.close();
  await printer?.close();
  await postgres?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('labeldesk site-printers', () => {
  test('add, list and remove round trip; each change in the audit log under the CLI user', async () => {
    const added = await site('add', '--id', '41', '--uri', 'TCP://Printer.Example:9100', '--name', 'Dock 41');
    expect(added).toMatchObject({ code: 0 });
    expect(added.stderr).toContain('added printer 41 "Dock 41" (tcp://printer.example:9100, ZPL');
    const withProfile = await site(
      'add',
      '--id',
      '42',
      '--uri',
      'cups://Office_PDF',
      '--name',
      'Office',
      '--dpi',
      '600',
      '--darkness',
      '12',
      '--offset-x',
      '8',
    );
    expect(withProfile.code).toBe(0);
    const listed = await site('list', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: 41,
        name: 'Dock 41',
        uri: 'tcp://printer.example:9100',
        format: 'zpl',
        profile: null,
      }),
      expect.objectContaining({
        id: 42,
        uri: 'cups://Office_PDF',
        format: 'pdf',
        profile: expect.objectContaining({
          dpi: 600,
          dpiSource: 'set',
          darkness: 12,
          offset: { x: 8, y: 0 },
          printWidthDots: 2464,
        }),
      }),
    ]);
    const text = await site('list');
    expect(text.stdout).toContain('42  Office  cups://Office_PDF  pdf  dpi 600 (set), darkness 12');

    // Replaced: a new address and no profile.
    const replaced = await site('add', '--id', '41', '--uri', 'tcp://10.9.9.9', '--name', 'Dock 41b');
    expect(replaced.stderr).toContain('replaced printer 41');
    expect((await site('remove', '42')).code).toBe(0);
    const removedAgain = await site('remove', '42');
    expect(removedAgain).toMatchObject({ code: 1 });
    expect(removedAgain.stderr).toContain('the site has no printer 42');
    expect(JSON.parse((await site('list', '--json')).stdout).map((p: { id: number }) => p.id)).toEqual([41]);

    const audit = await readAudit(db, { limit: 20 });
    const printers = audit.filter((e) => e.action.startsWith('printer-'));
    expect(printers.map((e) => [e.action, e.subject])).toEqual([
      ['printer-removed', '42'],
      ['printer-saved', '41'],
      ['printer-saved', '42'],
      ['printer-saved', '41'],
    ]);
    expect(printers.every((e) => /^cli:.+@.+/.test(e.actor))).toBe(true);
    expect(printers[1]?.detail).toMatchObject({ name: 'Dock 41b', replaced: true, address_changed: true });
    expect(printers[2]?.detail).toMatchObject({
      format: 'pdf',
      profile: expect.objectContaining({ darkness: 12 }),
    });
    // The audit log is any key holder's to read: no address in it.
    expect(JSON.stringify(printers)).not.toMatch(/10\.9\.9\.9|printer\.example|Office_PDF/);
    expect((await site('remove', '41')).code).toBe(0);
  });

  test('bad input is refused naming the option: usage (exit 2), the rules (exit 1); nothing is saved', async () => {
    const cases: [string[], number, string][] = [
      [['add', '--uri', 'tcp://10.0.0.5', '--name', 'x'], 2, 'needs --id'],
      [
        ['add', '--id', 'seven', '--uri', 'tcp://10.0.0.5', '--name', 'x'],
        2,
        '--id: expected a whole number',
      ],
      [['add', '--id', '7', '--uri', 'tcp://10.0.0.5', '--name', 'x', '--dpi', 'high'], 2, '--dpi'],
      [['add', '--id', '7', '--uri', 'tcp://10.0.0.5', '--name', 'x', '--media', 'roll'], 2, '--media'],
      [['add', '--id', '7', '--uri', 'tcp://10.0.0.5', '--name', 'x', '--bogus', '1'], 2, '--bogus'],
      [['list', '--id', '7'], 2, '--id is for site-printers add'],
      [['remove'], 2, 'needs an ID'],
      [['rename', '7'], 2, 'unknown site-printers command "rename"'],
      [
        ['add', '--id', '7', '--uri', 'http://10.0.0.5/print', '--name', 'x'],
        1,
        '--uri: "http://10.0.0.5/print"',
      ],
      [['add', '--id', '7', '--uri', 'tcp://10.0.0.5:99999', '--name', 'x'], 1, '--uri'],
      [['add', '--id', '7', '--uri', 'tcp://10.0.0.5', '--name', ' '], 1, '--name'],
      [['add', '--id=-1', '--uri', 'tcp://10.0.0.5', '--name', 'x'], 1, '--id'],
      [
        ['add', '--id', '2147483648', '--uri', 'tcp://10.0.0.5', '--name', 'x'],
        1,
        '--id: expected a printer id',
      ],
      [['add', '--id', '7', '--uri', 'tcp://10.0.0.5', '--name', 'x', '--darkness', '31'], 1, '--darkness'],
      [['add', '--id', '7', '--uri', 'tcp://10.0.0.5', '--name', 'x', '--dpi', '50'], 1, '--dpi'],
    ];
    for (const [args, code, message] of cases) {
      const result = await site(...args);
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr).toContain(message);
    }
    const secret = await site('add', '--id', '7', '--uri', 'cups://user:s3cret@host/q', '--name', 'x');
    expect(secret.code).toBe(1);
    expect(secret.stderr).toContain('--uri: a printer URI with a user and password is refused');
    expect(secret.stderr).not.toContain('s3cret');
    const noDatabase = await cli(['site-printers', 'list']);
    expect(noDatabase.code).toBe(2);
    expect(noDatabase.stderr).toContain('needs the site database');
    expect(JSON.parse((await site('list', '--json')).stdout)).toEqual([]);
  });
});

describe('labeldesk serve --database prints through the site printers', () => {
  test('a printer added by the CLI is used by the next request with its profile; changed, then removed → 422', async () => {
    const server = await startServe(['--database', url]);
    try {
      const before = await relay(server, 7);
      expect(before.status).toBe(422);
      expect(before.json.field).toBe('printer_id');

      // The row's profile: a dpi a person set (the emulator would say 203), and its darkness.
      const port = String(printer.port);
      expect(
        (
          await site(
            'add',
            '--id',
            '7',
            '--uri',
            printer.uri,
            '--name',
            'Dock 7',
            '--dpi',
            '300',
            '--darkness',
            '20',
          )
        ).code,
      ).toBe(0);
      const jobsBefore = printer.jobs.length;
      const sent = await relay(server, 7, 2);
      expect(sent).toEqual({ status: 200, json: { status: 'sent_to_printer', printer_dpi: 300 } });
      const printed = printer.jobs.slice(jobsBefore);
      expect(printed).toHaveLength(2);
      for (const job of printed) expect(job.zpl).toContain('~SD20');

      const listed = await sitePrintersList(server);
      expect(listed.status).toBe(200);
      expect(JSON.parse(listed.text)).toEqual({ printers: [{ id: 7, name: 'Dock 7', format: 'zpl' }] });
      expect(listed.text).not.toContain(port);
      expect(listed.text).not.toContain('tcp:');

      // Changed without a profile: the printer is asked (203) and keeps its darkness.
      expect((await site('add', '--id', '7', '--uri', printer.uri, '--name', 'Dock 7')).code).toBe(0);
      const asked = await relay(server, 7);
      expect(asked).toEqual({ status: 200, json: { status: 'sent_to_printer', printer_dpi: 203 } });
      expect(printer.jobs.at(-1)?.zpl).not.toContain('~SD');

      expect((await site('remove', '7')).code).toBe(0);
      const after = await relay(server, 7);
      expect(after.status).toBe(422);
      expect(after.json).toMatchObject({ field: 'printer_id' });
      expect(JSON.parse((await sitePrintersList(server)).text)).toEqual({ printers: [] });
      expect((await fetch(`${server.url}/site/printers`)).status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  test('with --printers FILE too: its printers print; an id in both is refused naming both', async () => {
    const file = join(work, 'printers.json');
    writeFileSync(
      file,
      JSON.stringify([
        { id: 8, uri: printer.uri, name: 'File 8' },
        { id: 9, uri: printer.uri, name: 'File 9' },
      ]),
    );
    expect((await site('add', '--id', '9', '--uri', printer.uri, '--name', 'Site 9')).code).toBe(0);
    const server = await startServe(['--database', url, '--printers', file]);
    try {
      expect(server.logs()).toContain('printer 9 is both the site\'s "Site 9" and in');
      expect((await relay(server, 8)).json).toEqual({ status: 'sent_to_printer', printer_dpi: 203 });
      const both = await relay(server, 9);
      expect(both.status).toBe(422);
      expect(both.json).toEqual({
        field: 'printer_id',
        message: expect.stringContaining('printer 9 is both the site\'s "Site 9" and "File 9"'),
      });
    } finally {
      expect(await server.stop()).toBe(0);
      await site('remove', '9');
    }
  }, 60_000);
});
