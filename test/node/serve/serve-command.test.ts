/**
 * `labeldesk serve` as a user runs it: the bundled CLI in its own process. It listens on 127.0.0.1 unless told
 * otherwise, prints its URL, answers, and stops cleanly on SIGTERM and SIGINT.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli } from '../../support/cli';
import { buildServeBundle, startServeProcess, type ServeProcess } from '../../support/serve-process';

let bundle: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ld-cli-serve-'));
  bundle = await buildServeBundle('labeldesk-serve-test');
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `labeldesk serve --port 0 --data-dir … …` and waits for the line with its URL. */
const serve = (args: string[] = []): Promise<ServeProcess> =>
  startServeProcess(bundle, ['--data-dir', dataDir, ...args]);

describe('labeldesk serve', () => {
  test('binds 127.0.0.1 by default, prints its URL, answers, and stops cleanly on SIGTERM', async () => {
    const key = JSON.parse((await cli(['keys', 'create', '--json', '--data-dir', dataDir])).stdout) as {
      key: string;
      secret: string;
    };
    const running = await serve();
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${running.url}/custom-labels/fetch-markups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'x-api-secret': key.secret },
      body: JSON.stringify({ label_name: 'product-2x1', amount: 1, apiData: {} }),
    });
    expect(response.status).toBe(200);
    running.child.kill('SIGTERM');
    expect(await running.exit).toBe(0);
    expect(running.stderr()).toContain('SIGTERM, stopping');
    // The log lines on stderr are JSON and carry no secret.
    expect(running.stderr()).toContain('"route":"/custom-labels/fetch-markups"');
    expect(running.stderr()).not.toContain(key.secret);
  });

  test('--labelary turns the Labelary-shaped route on, with the budgets given', async () => {
    const running = await serve(['--labelary', '--labelary-labels', '1', '--labelary-inches', '4']);
    try {
      const label = '^XA^FO50,50^A0N,40,40^FDHello^FS^XZ';
      const at = (size: string, body: string) =>
        fetch(`${running.url}/v1/printers/8dpmm/labels/${size}/0/`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      const ok = await at('4x4', label);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('image/png');
      expect((await at('4x6', label)).status).toBe(400);
      const two = await at('4x4', label + label);
      expect(two.status).toBe(413);
      expect(await two.text()).toBe(
        'ERROR: the ZPL holds more than 1 label: this server draws at most 1 a request',
      );
      expect(running.stderr()).toContain('the Labelary-shaped route is on');
    } finally {
      running.child.kill('SIGTERM');
      await running.exit;
    }
  });

  test('--labelary-rate without --labelary is a usage error', async () => {
    const result = await cli(['serve', '--data-dir', dataDir, '--labelary-rate', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--labelary-rate is for the Labelary-shaped route: add --labelary');
  });

  test('SIGTERM while it holds refusals back (a guesser past its limit): it stops at once, not a minute later', async () => {
    const key = JSON.parse((await cli(['keys', 'create', '--json', '--data-dir', dataDir])).stdout) as {
      key: string;
    };
    const running = await serve(['--auth-failures', '1', '--refusal-delay', '60000']);
    const guess = () =>
      fetch(`${running.url}/custom-labels/fetch-markups`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'x-api-secret': 'lds_guess' },
        body: JSON.stringify({ label_name: 'product-2x1', amount: 1, apiData: {} }),
      }).then(
        (r) => r.status,
        () => 'connection closed',
      );
    expect(await guess()).toBe(401);
    const held = [guess(), guess(), guess()];
    await new Promise((resolve) => setTimeout(resolve, 300));
    running.child.kill('SIGTERM');
    // Were the held refusals' timers left running, the process would live on for their minute.
    expect(await running.exit).toBe(0);
    for (const outcome of await Promise.all(held)) expect([429, 'connection closed']).toContain(outcome);
  }, 20_000);

  test('SIGINT (Ctrl-C) stops it too', async () => {
    const running = await serve();
    running.child.kill('SIGINT');
    expect(await running.exit).toBe(0);
  });

  test('listens elsewhere only with an explicit --host, and says so', async () => {
    const running = await serve(['--host', '127.0.0.2']);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    running.child.kill('SIGTERM');
    expect(await running.exit).toBe(0);
    expect(running.stderr()).toContain('warning: listening on 127.0.0.2');
  });

  test('bad options are usage errors; the default rate is 60 a minute', async () => {
    expect((await cli(['serve', '--rate-limit', 'many'])).code).toBe(2);
    expect((await cli(['serve', '--public-url', 'ftp://x'])).code).toBe(2);
    const bad = await cli(['serve', '--printers', '/no/such/printers.json', '--data-dir', dataDir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^labeldesk: --printers/);
    expect((await cli(['serve', '--help'])).stdout).toMatch(
      /--rate-limit N\s+requests per minute per key \(default 60\)/,
    );
  });

  test('the bundle starts its render worker from render-worker.mjs beside it, and answers as in process', async () => {
    const key = JSON.parse((await cli(['keys', 'create', '--json', '--data-dir', dataDir])).stdout) as {
      key: string;
      secret: string;
    };
    const post = async (url: string) => {
      const response = await fetch(`${url}/custom-labels/render-zpl`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'x-api-secret': key.secret },
        body: JSON.stringify({ label_name: 'shipping-4x6', amount: 2, apiData: {} }),
      });
      return { status: response.status, text: await response.text() };
    };
    // Every render in a worker, then none.
    const offloading = await serve(['--heavy-render-dots', '0']);
    const inProcess = await serve(['--render-workers', '0']);
    try {
      const [a, b] = [await post(offloading.url), await post(inProcess.url)];
      expect(a.status).toBe(200);
      expect(a.text).toBe(b.text);
      expect(offloading.stderr()).toContain('"msg":"render worker started"');
      expect(inProcess.stderr()).not.toContain('render worker');
    } finally {
      offloading.child.kill('SIGTERM');
      inProcess.child.kill('SIGTERM');
    }
    // The worker ends with the server: it exits, and cleanly.
    expect(await offloading.exit).toBe(0);
    expect(await inProcess.exit).toBe(0);
    expect((await cli(['serve', '--render-workers', 'two'])).code).toBe(2);
  });

  test('limits: an allowlist entry that is not a host or range, or a limit that is not a number, is a usage error', async () => {
    const host = await cli(['serve', '--image-host', 'http://logos/']);
    expect(host.code).toBe(2);
    expect(host.stderr).toContain(
      '--image-host: "http://logos/" is neither a host name nor an IP address or CIDR range (like 10.1.2.0/24)',
    );
    const pixels = await cli(['serve', '--max-image-pixels', '0']);
    expect(pixels.code).toBe(2);
    expect(pixels.stderr).toContain('--max-image-pixels: expected a whole number from 1, got "0"');
    expect((await cli(['serve', '--help'])).stdout).toMatch(
      /--max-image-pixels N\s+width × height an image may declare \(default 16000000\)/,
    );
    // A pause past what a timer holds (or a minute) would keep sockets for nothing.
    const pause = await cli(['serve', '--refusal-delay', '600000']);
    expect(pause.code).toBe(2);
    expect(pause.stderr).toContain('--refusal-delay: expected at most 60000 ms, got "600000"');
    expect((await cli(['serve', '--refusal-delay', 'soon'])).stderr).toContain(
      '--refusal-delay: expected a whole number from 0, got "soon"',
    );
  });

  test('--lease-seconds and --print-wait-seconds without --database: a usage error naming the option (exit 2)', async () => {
    for (const option of ['--lease-seconds', '--print-wait-seconds']) {
      const run = await cli(['serve', option, '5', '--data-dir', dataDir], {
        env: { LABELDESK_DATABASE_URL: '' },
      });
      expect([option, run.code]).toEqual([option, 2]);
      expect(run.stderr).toContain(`${option} is for a site server's print queue (--database URL)`);
    }
  });
});
