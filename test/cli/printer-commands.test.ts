/**
 * `labeldesk printers` and `labeldesk status`, in-process as from a shell: against a private cupsd (through
 * CUPS_SERVER) and the Zebra emulator.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSystemSerialPorts } from '../../src/node/printers/discovery';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { cli } from '../support/cli';
import { cupsdUnavailableReason, startCupsd, type Cupsd } from '../support/cupsd';

let dir: string;
let emulator: ZebraEmulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-cli-printers-'));
  emulator = await startZebraEmulator({ dpi: 300, port: 0 });
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const noStack = (text: string): void => expect(text).not.toMatch(/\n\s+at /);

const unavailable = cupsdUnavailableReason();
if (unavailable) console.warn(`SKIPPED labeldesk printers with CUPS: ${unavailable}`);

describe.skipIf(unavailable !== null)('labeldesk printers', () => {
  let cupsd: Cupsd;
  beforeAll(async () => {
    cupsd = await startCupsd();
    cupsd.run('lpadmin', ['-p', 'LabelQ', '-E', '-v', `socket://127.0.0.1:${emulator.port}`]);
  });
  afterAll(async () => {
    await cupsd?.stop();
  });

  it('--json lists the CUPS queues and the serial ports present, each with its URI', async () => {
    const file = join(dir, 'printers.json');
    writeFileSync(file, JSON.stringify([{ id: 7, uri: emulator.uri, name: 'Dock 7' }]));
    const r = await cli(['printers', '--json', '--printers', file], {
      env: { CUPS_SERVER: cupsd.env.CUPS_SERVER },
    });
    expect(r.code).toBe(0);
    const { printers } = JSON.parse(r.stdout) as {
      printers: { kind: string; uri: string; zpl: boolean | null; raw?: boolean }[];
    };
    expect(printers.filter((p) => p.kind === 'cups')).toEqual([
      {
        kind: 'cups',
        uri: 'cups://LabelQ',
        name: 'LabelQ',
        zpl: true,
        queue: 'LabelQ',
        deviceUri: `socket://127.0.0.1:${emulator.port}`,
        raw: true,
        state: 'idle',
      },
    ]);
    // udev's list where udevadm is installed, sysfs's where it is not (test/cli/fresh-machine.test.ts).
    const ports = (await listSystemSerialPorts()).map((p) => p.path).sort();
    expect(
      printers
        .filter((p) => p.kind === 'serial')
        .map((p) => p.uri)
        .sort(),
    ).toEqual(ports.map((p) => `serial://${p}`));
    expect(printers.filter((p) => p.kind === 'network')).toEqual([
      { kind: 'network', uri: emulator.uri, name: 'Dock 7', id: 7, zpl: true },
    ]);
  });

  it('prints a table for people', async () => {
    const r = await cli(['printers'], { env: { CUPS_SERVER: cupsd.env.CUPS_SERVER } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^URI\s+KIND\s+ZPL\s+NAME\s+DETAILS$/m);
    expect(r.stdout).toMatch(
      new RegExp(
        `^cups://LabelQ\\s+cups\\s+yes\\s+LabelQ\\s+raw queue, idle, socket://127\\.0\\.0\\.1:${emulator.port}$`,
        'm',
      ),
    );
  });
});

describe('labeldesk printers, failures', () => {
  it('a broken printers file is one clear line and exit 1', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '[{"id":7,"uri":"tcp://x:0","name":"X"}]');
    const r = await cli(['printers', '--printers', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `labeldesk: --printers: ${file}: [0].uri: "tcp://x:0": port must be 1..65535, got "0"\n`,
    );
  });
});

describe('labeldesk status', () => {
  it('reports a ready printer with model, firmware and dpi (exit 0)', async () => {
    const r = await cli(['status', '--printer', emulator.uri]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `printer   ${emulator.uri}`,
        'state     ready',
        'model     ZD421-300dpi',
        'firmware  V84.20.21Z',
        'dpi       300 (head.resolution.in_dpi)',
        'buffer    0 formats waiting, 0 labels remaining',
        '',
      ].join('\n'),
    );
  });

  it('--json, and a fault gives exit 1 with the reason', async () => {
    emulator.setFault({ headOpen: true });
    try {
      const r = await cli(['status', '--printer', emulator.uri, '--json']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toEqual({
        uri: emulator.uri,
        state: 'head-open',
        reasons: ['print head is open'],
        formatsInBuffer: 0,
        labelsRemaining: 0,
        labelLengthDots: 1800,
        model: 'ZD421-300dpi',
        firmware: 'V84.20.21Z',
        dpi: 300,
        dpiSource: 'sgd',
      });
    } finally {
      emulator.setFault({ headOpen: false });
    }
  });

  it('an unreachable printer is offline with the reason, exit 1, no stack trace', async () => {
    const r = await cli(['status', '--printer', 'tcp://127.0.0.1:1', '--timeout', '500']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^state {5}offline\nreason {4}tcp:\/\/127\.0\.0\.1:1: connection refused/m);
    noStack(r.stdout + r.stderr);
  });

  it.each([
    [['status'], 2, 'labeldesk: --printer URI is required (see labeldesk printers)\n'],
    [
      ['status', '--printer', 'tcp://host:0'],
      1,
      'labeldesk: printer URI "tcp://host:0": port must be 1..65535, got "0"\n',
    ],
    [
      ['status', '--printer', 'tcp://a', '--timeout', 'soon'],
      2,
      'labeldesk: --timeout: expected milliseconds, got "soon"\n',
    ],
  ])('usage and URI mistakes are one line: %j', async (args, code, stderr) => {
    const r = await cli(args);
    expect(r.code).toBe(code);
    expect(r.stderr).toBe(stderr);
  });
});

describe('labeldesk printers discover --network (#42 item 7)', () => {
  let second: ZebraEmulator;
  beforeAll(async () => {
    // Loopback only: a printer at 127.0.0.2 and one at 127.0.0.3 on one port; nothing else answers there.
    second = await startZebraEmulator({ dpi: 203, host: '127.0.0.2' });
  });
  afterAll(async () => {
    await second.close();
  });

  it('lists the printers a range holds with model and dpi, and refuses a range too wide', async () => {
    const third = await startZebraEmulator({ dpi: 300, host: '127.0.0.3', port: second.port });
    try {
      const r = await cli([
        'printers',
        'discover',
        '--network',
        '127.0.0.0/29',
        '--port',
        String(second.port),
      ]);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`Scanning 6 addresses on port ${second.port}…`);
      expect(r.stdout).toMatch(
        new RegExp(`tcp://127\\.0\\.0\\.2:${second.port}\\s+network\\s+yes\\s+ZD421-203dpi\\s+203 dpi`),
      );
      expect(r.stdout).toMatch(
        new RegExp(`tcp://127\\.0\\.0\\.3:${second.port}\\s+network\\s+yes\\s+ZD421-300dpi\\s+300 dpi`),
      );
      const json = await cli([
        'printers',
        '--json',
        `--network=127.0.0.2,127.0.0.4`,
        '--port',
        String(second.port),
      ]);
      expect(JSON.parse(json.stdout).scanned).toMatchObject({
        printers: [{ uri: `tcp://127.0.0.2:${second.port}`, model: 'ZD421-203dpi', dpi: 203 }],
        probed: 2,
        total: 2,
        stopped: null,
      });
    } finally {
      await third.close();
    }
    const wide = await cli(['printers', '--network', '10.0.0.0/8']);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain(
      '--network: 10.0.0.0/8 holds 16777216 addresses: scan at most 1024 at once',
    );
    noStack(wide.stderr);
  });
});
