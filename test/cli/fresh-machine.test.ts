/**
 * `labeldesk printers` on a fresh machine: no udev (containers, minimal installs) and no CUPS scheduler
 * running. The bundled CLI runs with a PATH that lacks udevadm whether or not this machine has it; it exits 0,
 * lists the serial ports sysfs shows, and says in one sentence why CUPS has no queues.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathWithout, type PathWithout } from '../support/path-without';
import { buildBundle, type Bundle } from './bundle';

let cli: Bundle;
let noUdev: PathWithout;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  cli = await buildBundle('fresh-machine-test');
  noUdev = pathWithout(['udevadm']);
  env = { ...process.env, PATH: noUdev.path, CUPS_SERVER: join(tmpdir(), 'ld-no-cupsd.sock') };
});
afterAll(() => noUdev?.remove());

/** What a person sees in sysfs: ttys with hardware behind them (no empty 8250 slots) and a /dev node. */
function serialPortsOnThisMachine(): string[] {
  const ttyClass = '/sys/class/tty';
  if (!existsSync(ttyClass)) return [];
  return readdirSync(ttyClass)
    .filter((name) => /^(tty(S|WCH|ACM|USB|AMA|MFD|O|XRUSB)\d|rfcomm\d)/.test(name))
    .filter((name) => existsSync(join(ttyClass, name, 'device')))
    .filter((name) => {
      const type = join(ttyClass, name, 'type');
      return !existsSync(type) || readFileSync(type, 'utf8').trim() !== '0';
    })
    .map((name) => `/dev/${name}`)
    .filter((path) => existsSync(path))
    .sort();
}

const CUPS_DOWN = 'CUPS is not running on this computer, so its queues could not be listed.';

describe('labeldesk printers without udevadm', () => {
  it('--json exits 0 with the serial ports sysfs shows, and a sentence for CUPS', async () => {
    const r = await cli.run(['printers', '--json'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as {
      printers: { kind: string; path?: string }[];
      problems: { source: string; message: string }[];
    };
    expect(
      result.printers
        .filter((p) => p.kind === 'serial')
        .map((p) => p.path)
        .sort(),
    ).toEqual(serialPortsOnThisMachine());
    expect(result.problems.filter((p) => p.source !== 'usb')).toEqual([
      { source: 'cups', message: CUPS_DOWN },
    ]);
    for (const p of result.problems) expect(p.message).not.toMatch(/spawn|udevadm|Scheduler/);
  });

  it('the table for people: warnings are sentences on stderr, exit 0', async () => {
    const r = await cli.run(['printers'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: ${CUPS_DOWN}\n`);
    expect(r.stderr).not.toMatch(/udevadm|ENOENT|\n\s+at /);
    for (const path of serialPortsOnThisMachine())
      expect(r.stdout).toMatch(new RegExp(`^serial://${path}\\s+serial\\s+\\?`, 'm'));
  });
});
