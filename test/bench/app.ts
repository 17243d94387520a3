/**
 * App child of run.ts (the `app` section): the real app — `main/web.ts` in its own process, the built renderer
 * in Debian's Chromium, a Zebra emulator on loopback TCP as its printer — measured as a front-desk user feels
 * it. Prints one JSON line.
 *
 *   tsx test/bench/app.ts [KEYSTROKES]
 *
 * What it measures, all from the page's own clock except the printer's bytes (Node's clock; both are the
 * system's, as epoch milliseconds):
 *  - keystroke → preview painted: a `keydown` listener the bench adds notes each key; the app marks each paint
 *    (`labeldesk:preview-painted`, renderer/src/preview/paint-marks.ts: the Konva layer drawn, or the printer
 *    view's image loaded), seen through a PerformanceObserver — the canvas is never read. One key at a time,
 *    the next 40–57 ms after the paint (a fast typist; the random part so keys land anywhere in a frame), in
 *    three templates, printer view off and on;
 *  - app start → interactive Print screen (navigation start → the template list has its options), and the
 *    web process's start → listening;
 *  - template switch → first preview painted (click on the template → paint);
 *  - Print click → first byte at the emulator, → first label received, → last label received, → the job's card
 *    says done, for 1 and for 20 copies; and the largest gap between two labels of the 20.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from 'playwright-core';
import { startZebraEmulator } from '../emulator/zebra-emulator';
import { startWeb } from '../e2e/web-app';

const KEYSTROKES = Number(process.argv[2] ?? 100);
const epochNow = (): number => performance.timeOrigin + performance.now();

interface Stats {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))]!;
  const round = (v: number) => Math.round(v * 10) / 10;
  return { n: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), max: round(sorted.at(-1) ?? NaN) };
}

/** Installed before the app's scripts: paints, keys and clicks, on the page's clock. */
function instrument(): void {
  const w = window as unknown as {
    __paints: { t: number; view: string }[];
    __keys: number[];
    __clicks: { t: number; name: string }[];
  };
  w.__paints = [];
  w.__keys = [];
  w.__clicks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'labeldesk:preview-painted') {
        const detail = (e as PerformanceMark).detail as { view?: string } | null;
        w.__paints.push({ t: e.startTime, view: detail?.view ?? '?' });
      }
    }
  }).observe({ type: 'mark' });
  addEventListener('keydown', () => w.__keys.push(performance.now()), { capture: true });
  addEventListener(
    'click',
    (e) => {
      const target = (e.target as Element | null)?.closest('button, [role=option]');
      w.__clicks.push({ t: performance.now(), name: target?.textContent?.trim() ?? '' });
    },
    { capture: true },
  );
}

/** The first paint of `view` after page time `after`; waits for it (at most 10 s). */
async function paintAfter(page: Page, after: number, view: string): Promise<number> {
  const handle = await page.waitForFunction(
    ([after, view]) => {
      const w = window as unknown as { __paints: { t: number; view: string }[] };
      return w.__paints.find((p) => p.t > (after as number) && p.view === view)?.t ?? false;
    },
    [after, view] as const,
    { polling: 'raf', timeout: 10_000 },
  );
  return (await handle.jsonValue()) as number;
}

const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());
const pageOrigin = (page: Page): Promise<number> => page.evaluate(() => performance.timeOrigin);
const lastKey = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { __keys: number[] }).__keys.at(-1) ?? -1);
const lastClick = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { __clicks: { t: number }[] }).__clicks.at(-1)?.t ?? -1);

async function pickTemplate(page: Page, name: string): Promise<number> {
  const since = await pageNow(page);
  await page
    .getByRole('listbox', { name: 'Template' })
    .getByRole('option', { name: new RegExp(name) })
    .click();
  const clicked = await lastClick(page);
  const painted = await paintAfter(page, since, 'screen');
  return painted - clicked;
}

async function setPrinterView(page: Page, on: boolean): Promise<void> {
  const toggle = page.getByRole('switch', { name: 'Printer view' });
  if ((await toggle.isChecked()) !== on) {
    const since = await pageNow(page);
    await toggle.click();
    await paintAfter(page, since, on ? 'printer' : 'screen');
  }
}

/** Types `count` characters into the field, one at a time, each timed from its keydown to its paint. */
async function typeTimed(page: Page, field: RegExp, count: number, view: string): Promise<number[]> {
  const box = page.getByRole('textbox', { name: field });
  await box.click();
  await page.keyboard.press('End');
  await page.waitForTimeout(300); // the click's own repaint settles first
  // No spaces: a trailing space changes nothing on the label, so nothing is repainted for it.
  const text = 'Thequickbrownfoxjumpsoverthelazydog';
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 15 === 0) {
      // A fresh start every 15 keys (not timed): past its box a longer value is cut, and a cut-off
      // character changes nothing on the label — nothing to repaint, nothing to time.
      if ((await box.inputValue()) !== 'A') {
        const since = await pageNow(page);
        await box.fill('A');
        await paintAfter(page, since, view);
        await page.waitForTimeout(40);
      }
    }
    await page.keyboard.press(text[i % 15]!);
    const key = await lastKey(page);
    const painted = await paintAfter(page, key, view);
    out.push(painted - key);
    // ~40 ms to the next key, plus up to a frame at random: the wait for a paint ends on a frame, and a key sent
    // a fixed time after it would always land at the same point of the frame (a person's keys do not).
    await page.waitForTimeout(40 + Math.random() * 17);
  }
  return out;
}

async function print(
  page: Page,
  zebra: Awaited<ReturnType<typeof startZebraEmulator>>,
  tap: Awaited<ReturnType<typeof startTap>>,
  copies: number,
): Promise<Record<string, number>> {
  const before = zebra.jobs.length;
  const startsBefore = tap.labelStarts.length;
  const arrivals: number[] = [];
  const poll = setInterval(() => {
    while (arrivals.length < zebra.jobs.length - before) arrivals.push(epochNow());
  }, 1);
  await page.getByRole('textbox', { name: 'Copies' }).fill(String(copies));
  const lastJob = await page.evaluate(() =>
    Math.max(
      0,
      ...[...document.querySelectorAll('[data-testid="job-toast"]')].map((c) =>
        Number(c.getAttribute('data-job')),
      ),
    ),
  );
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  const clicked = (await pageOrigin(page)) + (await lastClick(page));
  const doneHandle = await page.waitForFunction(
    (lastJob) => {
      const card = [...document.querySelectorAll('[data-testid="job-toast"]')].find(
        (c) => Number(c.getAttribute('data-job')) > lastJob,
      );
      return card && /done/i.test(card.textContent ?? '') ? performance.now() : false;
    },
    lastJob,
    { polling: 'raf', timeout: 60_000 },
  );
  const done = (await pageOrigin(page)) + ((await doneHandle.jsonValue()) as number);
  const deadline = Date.now() + 30_000;
  while (zebra.jobs.length - before < copies) {
    if (Date.now() > deadline)
      throw new Error(`the emulator received ${zebra.jobs.length - before} of ${copies} labels`);
    await new Promise((r) => setTimeout(r, 5));
  }
  clearInterval(poll);
  while (arrivals.length < copies) arrivals.push(epochNow());
  const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]!);
  return {
    click_to_first_byte_ms: tap.labelStarts[startsBefore]! - clicked,
    click_to_first_label_ms: arrivals[0]! - clicked,
    click_to_last_label_ms: arrivals.at(-1)! - clicked,
    click_to_done_shown_ms: done - clicked,
    largest_gap_between_labels_ms: gaps.length ? Math.max(...gaps) : 0,
  };
}

const median = (values: number[]): number => stats(values).p50;

/**
 * A loopback TCP relay in front of the emulator, the app's printer address: notes the time each label format
 * starts (`^XA`) on its way to the printer — the status queries the app sends meanwhile (`~HS`) are not labels.
 */
async function startTap(
  port: number,
): Promise<{ uri: string; labelStarts: number[]; close(): Promise<void> }> {
  const labelStarts: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const printer = createConnection({ host: '127.0.0.1', port });
    // No Nagle on the relay: the app's small writes and the printer's answers pass at once, as on a direct line.
    client.setNoDelay(true);
    printer.setNoDelay(true);
    sockets.add(client).add(printer);
    let tail = '';
    client.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      for (let i = text.indexOf('^XA'); i >= 0; i = text.indexOf('^XA', i + 1)) {
        if (i >= tail.length - 2) labelStarts.push(epochNow());
      }
      tail = text.slice(-2);
      printer.write(chunk);
    });
    printer.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      printer.destroy();
    };
    client.on('close', end).on('error', end);
    printer.on('close', end).on('error', end);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the tap has no port');
  return {
    uri: `tcp://127.0.0.1:${address.port}`,
    labelStarts,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}
const step = (what: string): void => {
  process.stderr.write(`app bench: ${what}\n`);
};

const work = mkdtempSync(join(tmpdir(), 'ld-bench-app-'));
const dataDir = join(work, 'data');
mkdirSync(dataDir);
const zebra = await startZebraEmulator({ dpi: 203 });
const tap = await startTap(zebra.port);
const printersFile = join(work, 'printers.json');
writeFileSync(printersFile, JSON.stringify([{ id: 1, uri: tap.uri, name: 'Dock Zebra' }]));
const spawned = performance.now();
const web = await startWeb(dataDir, printersFile);
const webListening = performance.now() - spawned;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
const result: Record<string, unknown> = {
  keystrokes_per_run: KEYSTROKES,
  web_process_listening_ms: webListening,
};
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(instrument);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  step('start → interactive');
  // Start → interactive (a cold page; the web process is up).
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(web.url);
    const handle = await page.waitForFunction(
      () =>
        document.querySelectorAll('[role=listbox][aria-label="Template"] [role=option]').length > 0
          ? performance.now()
          : false,
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    starts.push((await handle.jsonValue()) as number);
  }
  result.start_to_interactive_ms = { runs: starts.map((v) => Math.round(v)), median: median(starts) };

  step('template switch');
  // Template switch → first paint, each template a few times.
  const TEMPLATES = ['shipping-4x6', 'packing-slip-a4', 'element-gallery-4x6'];
  const switches: number[] = [];
  for (let round = 0; round < 3; round++)
    for (const t of TEMPLATES) switches.push(await pickTemplate(page, t));
  result.template_switch_ms = stats(switches);

  // Keystroke → paint, printer view off and on.
  const FIELDS: Record<string, RegExp> = {
    'shipping-4x6': /Recipient/,
    'packing-slip-a4': /Customer/,
    'element-gallery-4x6': /Caption/,
  };
  const typing: Record<string, unknown> = {};
  for (const t of TEMPLATES) {
    await pickTemplate(page, t);
    if (t === 'packing-slip-a4') {
      // A long items list: 40 lines (the slip's table fills its page).
      const items = Array.from({ length: 40 }, (_, i) => `${i + 1} × Widget model ${1000 + i}, blue`).join(
        '\n',
      );
      const since = await pageNow(page);
      await page.getByRole('textbox', { name: /Items/ }).fill(items);
      await paintAfter(page, since, 'screen');
    }
    for (const view of ['screen', 'printer'] as const) {
      step(`typing: ${t}, ${view}`);
      await setPrinterView(page, view === 'printer');
      typing[`${t} ${view === 'printer' ? 'printer view' : 'screen'}`] = stats(
        await typeTimed(page, FIELDS[t]!, KEYSTROKES, view),
      );
    }
    await setPrinterView(page, false);
  }
  result.keystroke_to_paint_ms = typing;

  step('print');
  // Print: the shipping label filled in, 1 copy (several times) and 20 copies (twice).
  await pickTemplate(page, 'shipping-4x6');
  await page.getByRole('textbox', { name: /Recipient/ }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: /Address/ }).fill('12 Analytical Row\nLondon');
  await page.getByRole('textbox', { name: /Tracking number/ }).fill('1Z999AA10123456784');
  await page.waitForTimeout(300);
  const ones: Record<string, number>[] = [];
  for (let i = 0; i < 5; i++) ones.push(await print(page, zebra, tap, 1));
  const twenties: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) twenties.push(await print(page, zebra, tap, 20));
  const summarise = (runs: Record<string, number>[]) =>
    Object.fromEntries(
      Object.keys(runs[0]!).map((k) => [
        k,
        { runs: runs.map((r) => Math.round(r[k]!)), median: median(runs.map((r) => r[k]!)) },
      ]),
    );
  result.print_1_copy = summarise(ones);
  result.print_20_copies = summarise(twenties);
  result.emulator_labels = zebra.jobs.length;
  result.page_errors = errors;
} finally {
  await browser.close();
  web.child.kill('SIGTERM');
  await tap.close();
  await zebra.close();
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(result)}\n`);
