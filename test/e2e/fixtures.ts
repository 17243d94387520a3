/**
 * E2E fixtures: a fresh LabelDesk in web mode per test (the real `main/web.ts` in a child process, its own data
 * folder, printers preconfigured with `--printers`), a Zebra emulator on loopback TCP as its printer, and, on
 * request, a `labeldesk serve` standing in for the hosted API.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startZebraEmulator, type ZebraEmulator } from '../emulator/zebra-emulator';
import { createKey } from '../../src/node/serve/key-store';
import { startWeb } from './web-app';
import { startServer, type ApiServer } from '../../src/node/serve/server';

const ROOT = resolve(import.meta.dirname, '../..');
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

export interface WebApp {
  url: string;
  dataDir: string;
  /** The emulator, configured in the app as printer "Dock Zebra" (unless `preconfigured` is false). */
  zebra: ZebraEmulator;
  /** Everything the web process wrote to stderr (never a secret). */
  stderr(): string;
}

export interface HostedApi {
  url: string;
  key: string;
  secret: string;
  close(): Promise<void>;
}

export async function startHostedApi(): Promise<HostedApi> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ld-e2e-hosted-'));
  const { key, secret } = await createKey(join(dataDir, 'keys.json'));
  const server: ApiServer = await startServer({ dataDir, port: 0 });
  return {
    url: server.url,
    key,
    secret,
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const test = base.extend<{ app: WebApp; preconfigured: boolean }>({
  /** Whether the emulator is already in the app's printer list (`test.use({ preconfigured: false })`: not). */
  preconfigured: [true, { option: true }],
  // Automatic: every test gets a fresh LabelDesk, opened in the page, whether or not it reads `app`.
  app: [
    async ({ page, preconfigured }, use) => {
      const work = mkdtempSync(join(tmpdir(), 'ld-e2e-'));
      const dataDir = join(work, 'data');
      mkdirSync(dataDir);
      const zebra = await startZebraEmulator({ dpi: 203 });
      const printersFile = join(work, 'printers.json');
      writeFileSync(
        printersFile,
        JSON.stringify(preconfigured ? [{ id: 1, uri: zebra.uri, name: 'Dock Zebra' }] : []),
      );
      const web = await startWeb(dataDir, printersFile);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      let closing = false;
      page.on('console', (m) => {
        if (m.type() === 'error' && !closing) console.log(`[page] ${m.text()}`);
      });
      page.on('requestfailed', (r) => {
        if (!closing) console.log(`[page] request failed: ${r.url()} ${r.failure()?.errorText}`);
      });
      await page.goto(web.url);
      await use({ url: web.url, dataDir, zebra, stderr: web.stderr });
      closing = true;
      web.child.kill('SIGTERM');
      await zebra.close();
      rmSync(work, { recursive: true, force: true });
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/** A full-page screenshot for the record (test-results/screenshots/NAME.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export { expect };
