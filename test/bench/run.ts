/**
 * `npm run bench` (= `taskset -c 0 tsx test/bench/run.ts`): LabelDesk render performance on shipping-4x6,
 * measured only (docs/performance.md holds the results and what they mean).
 *
 *   npm run bench                          table on stdout
 *   npm run bench -- --json bench.json     and the results as JSON
 *   npm run bench -- --quick               fewer labels/iterations (a smoke run; numbers are noisier)
 *
 * Single = the same label rendered again and again (warm caches) through the real ports. Batch = DIFFERENT
 * labels (name, tracking number and order id vary), each timed on its own, through the same render calls with
 * the logo loaded once; "ms" keys are medians per label.
 *
 * Sections `app` and `site` run on every core (`site`: `labeldesk serve --database` on a private PostgreSQL, 1–3
 * instances, needs Debian's postgresql installed; `--section site --out FILE` runs it alone).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deflateRawSync, deflateSync, inflateSync as zlibInflateSync } from 'node:zlib';
import bwipjs from 'bwip-js/node';
import { zlibSync } from 'fflate';
import { Bench } from 'tinybench';
import zplImage from 'zpl-image';
import {
  renderPdfLabels,
  renderPngLabels,
  renderSvgLabels,
  renderZplLabels,
  type RenderPorts,
} from '../../src/outputs/render';
import { collectImageUrls } from '../../src/layout/images';
import { layout } from '../../src/layout/layout';
import type { Scene } from '../../src/layout/scene';
import {
  nodeDeflate,
  Z64_NARROW_MAX_ROW_BYTES,
  Z64_NARROW_ROWS,
  Z64_WIDE_ROWS,
} from '../../src/node/render-ports';
import { getDot, type MonoBitmap } from '../../src/render/bitmap';
import {
  LanguageJobError,
  languageMaxWidthDots,
  PRINTER_LANGUAGES,
  writeLabelJob,
} from '../../src/printers/languages';
import { greyToMono, rgbaToGrey } from '../../src/render/rgba-to-mono';
import { renderPdf } from '../../src/render/pdf';
import { monoRasterStats, svgImageToPng, toMonoBitmap, toMonoBitmapFast } from '../../src/node/resvg';
import { resolveOne } from '../../src/resolve/resolve';
import type { Markup } from '../../src/model/schema';
import { encodeGfa } from '../../src/zpl/gfa';
import { buildZplJob } from '../../src/zpl/job';
import { startZebraEmulator } from '../emulator/zebra-emulator';
import { postgresBinDir } from '../support/postgres';
import { batchPorts, dataFor, distinctMarkups, SAMPLE, shippingTemplate } from './inputs';
import { createPdfmePeer } from './pdfme-peer';

const args = process.argv.slice(2);
const jsonIndex = args.indexOf('--json');
const jsonFile = jsonIndex >= 0 ? args[jsonIndex + 1] : undefined;
if (jsonIndex >= 0 && !jsonFile) throw new Error('--json needs a file name');
const quick = args.includes('--quick');
const q = (full: number, small: number): number => (quick ? small : full);

/** Labels per batch: 1,000 where a label takes a few ms, fewer for the slow items (said in the report). */
const BATCH = {
  zpl203: q(1000, 50),
  zpl203OneCall: q(200, 20),
  zpl300: q(1000, 20),
  zpl600: q(1000, 5),
  pdf: q(1000, 30),
  svg: q(1000, 50),
  png: q(1000, 20),
  pdfme: q(20, 3),
  e2e: q(1000, 50),
};

interface Stat {
  median: number;
  p95: number;
  mean: number;
  n: number;
}

function stats(samples: number[]): Stat {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => {
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    const hi = Math.ceil(i);
    return (s[lo] ?? 0) + ((s[hi] ?? 0) - (s[lo] ?? 0)) * (i - lo);
  };
  return { median: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length, n: s.length };
}

const rows: { item: string; median: string; p95: string; n: string; note: string }[] = [];
const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(3));
function row(item: string, s: Stat, note = ''): Stat {
  rows.push({ item, median: fmt(s.median), p95: fmt(s.p95), n: String(s.n), note });
  console.error(`  ${item}: median ${fmt(s.median)} ms, p95 ${fmt(s.p95)} ms (n=${s.n}) ${note}`);
  return s;
}

/** tinybench for the fast, repeatable items: min iterations and time budget, samples kept for p95. */
async function tiny(
  tasks: [string, () => unknown][],
  opts: { iterations?: number; time?: number } = {},
): Promise<Record<string, Stat>> {
  const bench = new Bench({
    iterations: opts.iterations ?? q(50, 10),
    time: opts.time ?? q(1000, 200),
    warmupIterations: 5,
    retainSamples: true,
  });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  const out: Record<string, Stat> = {};
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state !== 'completed')
      throw new Error(`${task.name}: ${r.state} ${'error' in r ? String(r.error) : ''}`);
    out[task.name] = stats([...(r.latency.samples ?? [])]);
  }
  return out;
}

/** Times `fn(i)` for each i in 0..n-1, each call on its own clock (a batch of different labels). */
async function perItem(n: number, fn: (i: number) => unknown): Promise<{ stat: Stat; totalMs: number }> {
  await fn(-1); // warm-up with a label outside the batch
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
    // Between labels the event loop turns, as it does in the job queue (I/O) and a server (requests): resvg-js
    // frees a render's native memory only then (docs/performance.md, PNG).
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { stat: stats(samples), totalMs: performance.now() - start };
}

/** The zlib settings nodeDeflate uses for rows of `rowBytes`, for the table. */
const zlibSettings = (rowBytes: number): string => {
  const z = rowBytes <= Z64_NARROW_MAX_ROW_BYTES ? Z64_NARROW_ROWS : Z64_WIDE_ROWS;
  return `level ${z.level}, ${2 ** (z.windowBits - 10)} KiB window`;
};
const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/** The rows inside a `:Z64:…:CRC` string. */
const zlibInflate = (z64: string): Uint8Array =>
  new Uint8Array(
    zlibInflateSync(Buffer.from(z64.replace(/^:Z64:/, '').replace(/:[0-9A-Fa-f]{4}$/, ''), 'base64')),
  );

/**
 * Each section runs in its own child process (same CPU affinity), so one section's memory cannot skew the next
 * or take the machine down: resvg-js keeps every rendered bitmap's native memory (see docs/performance.md), and
 * a 1,000-label ZPL batch alone reaches many GB of RSS.
 */
const sectionIndex = args.indexOf('--section');
const onlySection = sectionIndex >= 0 ? args[sectionIndex + 1] : undefined;
const sections: [string, () => Promise<void>][] = [];
function section(name: string, run: () => Promise<void>): void {
  sections.push([name, run]);
}

// ---------------------------------------------------------------------------------------------------------------
console.error(
  `LabelDesk bench: shipping-4x6, node ${process.version}, ${availableParallelism()} CPU(s) usable by this process${quick ? ', QUICK' : ''}`,
);
const template = shippingTemplate();
const realPorts: RenderPorts = (await import('../../src/node/render-ports')).nodeRenderPorts();
const ports = batchPorts(realPorts);
const sample = resolveOne(template, SAMPLE);
const images = await realPorts.loadImages(collectImageUrls([sample]));
const result: Record<string, unknown> = {};
const details: Record<string, unknown> = {};
const loadAtStart = loadavg();

// 1. Preview update: one field changes (the recipient name gets one more character per keystroke).
section('preview', async () => {
  let k = 0;
  const preview = (): Scene => {
    k++;
    const data = { ...SAMPLE, ship_to_name: `Ada Lovelace ${k}` };
    return layout(resolveOne(template, data), {
      fonts: realPorts.fonts,
      images,
      target: { unit: 'px' },
      onInvalid: 'mark',
    });
  };
  const s = (await tiny([['preview', preview]], { iterations: q(500, 50) })).preview!;
  row('preview update (resolve + layout → Scene, px)', s, 'ship_to_name changes each run');
  result.preview_update_ms = s.median;
  details.preview_update = s;
});

// 2. Single-label renders (same label again and again, real ports: image loading included).
section('single', async () => {
  const one = [sample];
  const s = await tiny(
    [
      ['zpl203', () => renderZplLabels(one, { dpi: 203 }, realPorts)],
      ['zpl300', () => renderZplLabels(one, { dpi: 300 }, realPorts)],
      ['zpl600', () => renderZplLabels(one, { dpi: 600 }, realPorts)],
      ['pdf', () => renderPdfLabels(one, realPorts)],
      ['svg', () => renderSvgLabels(one, realPorts)],
      ['png', () => renderPngLabels(one, 203, realPorts)],
    ],
    { iterations: q(20, 5), time: q(1000, 200) },
  );
  row('ZPL 203 dpi, single', s.zpl203!);
  row('ZPL 300 dpi, single', s.zpl300!);
  row('ZPL 600 dpi, single', s.zpl600!);
  row('PDF, single', s.pdf!);
  row('SVG, single', s.svg!);
  row('PNG 203 dpi, single', s.png!);
  result.zpl_203_single_ms = s.zpl203!.median;
  result.zpl_300_single_ms = s.zpl300!.median;
  result.zpl_600_single_ms = s.zpl600!.median;
  result.pdf_single_ms = s.pdf!.median;
  result.svg_ms = s.svg!.median;
  result.png_ms = s.png!.median;
  details.single = s;
});

// 3. Batches of different labels, per label (each format in its own process: see section()).
async function batch(
  key: string,
  label: string,
  n: number,
  render: (m: Markup) => Promise<unknown>,
): Promise<Stat> {
  const markups = distinctMarkups(template, n);
  const warm = resolveOne(template, dataFor(1_000_000));
  const { stat, totalMs } = await perItem(n, (i) => render(i < 0 ? warm : markups[i]!));
  row(label, stat, `${n} different labels, ${fmt(totalMs / 1000)} s total`);
  result[key] = stat.median;
  details[key] = { ...stat, labels: n, total_ms: totalMs };
  return stat;
}
section('batch-zpl203', async () => {
  await batch('zpl_203_batch_ms', 'ZPL 203 dpi, batch, per label', BATCH.zpl203, (m) =>
    renderZplLabels([m], { dpi: 203 }, ports),
  );
});
section('batch-zpl300', async () => {
  await batch('zpl_300_batch_ms', 'ZPL 300 dpi, batch, per label', BATCH.zpl300, (m) =>
    renderZplLabels([m], { dpi: 300 }, ports),
  );
});
section('batch-zpl600', async () => {
  await batch('zpl_600_batch_ms', 'ZPL 600 dpi, batch, per label', BATCH.zpl600, (m) =>
    renderZplLabels([m], { dpi: 600 }, ports),
  );
});
section('batch-pdf', async () => {
  await batch('pdf_batch_ms', 'PDF, batch, per label', BATCH.pdf, (m) => renderPdfLabels([m], ports));
});
section('batch-svg', async () => {
  await batch('svg_batch_ms', 'SVG, batch, per label', BATCH.svg, (m) => renderSvgLabels([m], ports));
});
section('batch-png', async () => {
  await batch('png_batch_ms', 'PNG 203 dpi, batch, per label', BATCH.png, (m) =>
    renderPngLabels([m], 203, ports),
  );
});
section('batch-zpl203-one-call', async () => {
  // The 203-dpi batch as ONE renderZplLabels call (what the API does with many different markups).
  const markups = distinctMarkups(template, BATCH.zpl203OneCall, 2_000_000);
  await renderZplLabels(distinctMarkups(template, 1, 2_500_000), { dpi: 203 }, ports);
  const t = performance.now();
  await renderZplLabels(markups, { dpi: 203 }, ports);
  const oneCall = (performance.now() - t) / markups.length;
  console.error(
    `  ZPL 203 dpi, ${markups.length} labels in one renderZplLabels call: ${fmt(oneCall)} ms/label`,
  );
  result.zpl_203_one_call_ms_per_label = oneCall;
});

/** A 1-bit bitmap as opaque RGBA (black/white), so zpl-image encodes exactly the bitmap we encode. */
function bitmapToRgba(bitmap: MonoBitmap): Uint8Array {
  const rgba = new Uint8Array(bitmap.width * bitmap.height * 4).fill(255);
  for (let y = 0; y < bitmap.height; y++) {
    for (let x = 0; x < bitmap.width; x++) {
      if (getDot(bitmap, x, y)) rgba.fill(0, (y * bitmap.width + x) * 4, (y * bitmap.width + x) * 4 + 3);
    }
  }
  return rgba;
}

// 4. Encoders and bytes on the same 203-dpi bitmap of the sample label (the default ZPL path's bitmap);
// zpl-image gets that very bitmap as RGBA.
section('encoders', async () => {
  const scene = layout(sample, { fonts: realPorts.fonts, images, target: { unit: 'dots', dpi: 203 } });
  const bitmap = toMonoBitmapFast(scene, realPorts.fonts);
  const rgba = { width: bitmap.width, height: bitmap.height, rgba: bitmapToRgba(bitmap) };
  details.bitmap_203 = { width: bitmap.width, height: bitmap.height, rowBytes: bitmap.rowBytes };
  const rgbaBuf = Buffer.from(rgba.rgba.buffer, rgba.rgba.byteOffset, rgba.rgba.byteLength);
  const zi = zplImage as {
    rgbaToZ64(rgba: Buffer, width: number, opts?: object): { z64: string; length: number };
    rgbaToACS(rgba: Buffer, width: number, opts?: object): { acs: string; length: number };
  };
  const ziOpts = { notrim: true, black: 50 };
  // zpl-image reads the RGBA back into exactly our bitmap (a check that the comparison is fair).
  const ziRows = Buffer.from(zlibInflate(zi.rgbaToZ64(rgbaBuf, rgba.width, ziOpts).z64));
  details.zpl_image_same_bitmap = ziRows.equals(Buffer.from(bitmap.data));
  const deflate = realPorts.deflate ?? nodeDeflate;
  const s = await tiny(
    [
      ['z64', () => encodeGfa(bitmap, 'z64', undefined, { deflate })],
      ['z64_fflate', () => encodeGfa(bitmap, 'z64')],
      ['acs', () => encodeGfa(bitmap, 'acs')],
      ['hex', () => encodeGfa(bitmap, 'hex')],
      [
        'ours_rgba_z64',
        () =>
          encodeGfa(
            greyToMono(rgbaToGrey(rgba.rgba, rgba.width, rgba.height), rgba.width, rgba.height),
            'z64',
            undefined,
            { deflate },
          ),
      ],
      ['zi_z64', () => zi.rgbaToZ64(rgbaBuf, rgba.width, ziOpts)],
      ['zi_acs', () => zi.rgbaToACS(rgbaBuf, rgba.width, ziOpts)],
    ],
    { iterations: q(100, 20) },
  );
  row(
    'encode bitmap → ^GFA Z64 (ours, Node ports)',
    s.z64!,
    `${bitmap.width}×${bitmap.height}, node:zlib ${zlibSettings(bitmap.rowBytes)}`,
  );
  row('encode bitmap → ^GFA Z64 (ours, fflate)', s.z64_fflate!, 'the default without ports (browser)');
  row('encode bitmap → ^GFA ACS (ours)', s.acs!);
  row('encode bitmap → ^GFA hex (ours)', s.hex!);
  row('RGBA → mono → Z64 (ours)', s.ours_rgba_z64!, 'same work as zpl-image');
  row('zpl-image rgbaToZ64 (peer)', s.zi_z64!, 'RGBA of the same bitmap → mono → zlib (native)');
  row('zpl-image rgbaToACS (peer)', s.zi_acs!);
  result.encode_z64_ms = s.z64!.median;
  result.encode_z64_fflate_ms = s.z64_fflate!.median;
  result.encode_acs_ms = s.acs!.median;
  result.encode_hex_ms = s.hex!.median;
  result.encode_rgba_to_z64_ms = s.ours_rgba_z64!.median;
  result.zpl_image_z64_ms = s.zi_z64!.median;
  result.zpl_image_acs_ms = s.zi_acs!.median;
  result.z64_speedup_vs_zpl_image = ratio(s.zi_z64!.median, s.z64!.median);
  result.rgba_z64_speedup_vs_zpl_image = ratio(s.zi_z64!.median, s.ours_rgba_z64!.median);
  details.encoders = s;

  // Bytes on the wire: the whole ^XA…^XZ job in each encoding; the bound is base64 of raw deflate level 9.
  const job = (compression: 'z64' | 'acs' | 'hex', withPorts = true): number =>
    Buffer.byteLength(
      buildZplJob({ bitmap, compression, labelHome: { x: 0, y: 0 }, ...(withPorts ? { deflate } : {}) }),
    );
  result.zpl_bytes_z64 = job('z64');
  result.zpl_bytes_acs = job('acs');
  result.zpl_bytes_hex = job('hex');
  const raw = bitmap.data.subarray(0, bitmap.rowBytes * bitmap.height);
  result.deflate9_b64_bytes = Buffer.from(deflateRawSync(raw, { level: 9, memLevel: 9 })).toString(
    'base64',
  ).length;
  result.zpl_z64_over_bound =
    Math.round(((result.zpl_bytes_z64 as number) / (result.deflate9_b64_bytes as number)) * 1e4) / 1e4;
  result.zpl_image_z64_bytes = zi.rgbaToZ64(rgbaBuf, rgba.width, ziOpts).z64.length;
  // Where the Z64 bytes go: the ^GFA data alone, and what other deflaters make of the same bytes.
  const b64 = (bytes: Uint8Array): number => Buffer.from(bytes).toString('base64').length;
  details.z64_bytes = {
    gfa_data_ours: encodeGfa(bitmap, 'z64', undefined, { deflate }).length,
    job_overhead: (result.zpl_bytes_z64 as number) - encodeGfa(bitmap, 'z64', undefined, { deflate }).length,
    job_fflate: job('z64', false),
    b64_fflate_zlib9: b64(zlibSync(raw, { level: 9 })),
    b64_node_zlib9: b64(deflateSync(raw, { level: 9, memLevel: 9 })),
    b64_node_zlib8: b64(deflateSync(raw, { level: 8, memLevel: 9 })),
    b64_node_zlib6: b64(deflateSync(raw, { level: 6 })),
    b64_node_raw9_bound: result.deflate9_b64_bytes,
  };
  console.error(`  Z64 byte split: ${JSON.stringify(details.z64_bytes)}`);
  result.bitmap_bytes = raw.length;
  console.error(
    `  bytes/label: Z64 ${result.zpl_bytes_z64}, ACS ${result.zpl_bytes_acs}, hex ${result.zpl_bytes_hex}, bound base64(deflate-9) ${result.deflate9_b64_bytes} (Z64/bound ${result.zpl_z64_over_bound}); zpl-image Z64 data ${result.zpl_image_z64_bytes}`,
  );
});

// 4b. Bytes on the wire per 4x6 label in each printer language (issue #34), beside ZPL's Z64 above: the same
// bitmap at 203 and 300 dpi through each writer (a language that cannot take the label says why).
section('languages', async () => {
  const bytes: Record<string, Record<string, number | string>> = {};
  for (const dpi of [203, 300]) {
    const scene = layout(sample, { fonts: realPorts.fonts, images, target: { unit: 'dots', dpi } });
    const bitmap = toMonoBitmapFast(scene, realPorts.fonts);
    const row: Record<string, number | string> = {
      zpl_z64: (await renderZplLabels([sample], { dpi, maxWidthDots: bitmap.width }, realPorts)).labels[0]!
        .length,
    };
    for (const language of PRINTER_LANGUAGES) {
      try {
        row[language] = writeLabelJob(language, bitmap, {
          dpi,
          printWidthDots: languageMaxWidthDots(language, dpi),
        }).length;
      } catch (e) {
        if (!(e instanceof LanguageJobError)) throw e;
        row[language] = 'refused';
      }
    }
    bytes[`${dpi}dpi`] = row;
  }
  details.language_bytes = bytes;
  console.error('  bytes per 4x6 label by printer language:');
  console.table(bytes);
});

// 5. Where the time of one 203/300/600-dpi ZPL label goes on the default path (each step of renderZplLabels
// for one new label), and the resvg path it replaced, on the same labels, for comparison.
section('zpl-breakdown', async () => {
  for (const dpi of [203, 300, 600]) {
    const n = dpi === 203 ? q(200, 10) : q(50, 5);
    const parts: Record<string, number[]> = {};
    const add = (k: string, ms: number): void => {
      (parts[k] ??= []).push(ms);
    };
    for (let i = -1; i < n; i++) {
      const markup = resolveOne(template, dataFor(3_000_000 + dpi * 1000 + i));
      let t = performance.now();
      const lap = (k: string): void => {
        const now = performance.now();
        if (i >= 0) add(k, now - t);
        t = now;
      };
      const scene = layout(markup, { fonts: realPorts.fonts, images, target: { unit: 'dots', dpi } });
      lap('layout (text shaping, barcodes → Scene)');
      const mono = toMonoBitmapFast(scene, realPorts.fonts);
      lap('1-bit rasteriser (Scene → bitmap)');
      const packed = mono.data.subarray(0, mono.rowBytes * mono.height);
      nodeDeflate(packed, mono.rowBytes);
      lap(`deflate (node:zlib ${zlibSettings(mono.rowBytes)})`);
      buildZplJob({ bitmap: mono, labelHome: { x: 0, y: 0 }, deflate: nodeDeflate });
      lap('whole ^GFA Z64 job (deflate + base64 + CRC + assembly)');
      if (i >= 0 && i < q(20, 3) && dpi !== 600) {
        // Not in the render path any more: the resvg path on the same scene (it leaks native memory per call,
        // so only a few labels).
        const tr = performance.now();
        toMonoBitmap(scene, realPorts.fonts);
        add('(replaced) resvg path toMonoBitmap, same scene', performance.now() - tr);
      }
    }
    const breakdown: Record<string, number> = {};
    for (const [k, v] of Object.entries(parts)) {
      const st = row(`  ${dpi} dpi: ${k}`, stats(v));
      breakdown[k] = st.median;
    }
    details[`zpl_${dpi}_breakdown_ms`] = breakdown;
  }
  details.mono_raster_stats = { ...monoRasterStats };
});

// 5a. Fidelity: the default path's bitmap against the resvg path's, on the sample label.
section('fidelity', async () => {
  const out: Record<string, { differing_dots: number; dots: number; percent: number }> = {};
  for (const dpi of [203, 300, 600]) {
    const scene = layout(sample, { fonts: realPorts.fonts, images, target: { unit: 'dots', dpi } });
    const a = toMonoBitmapFast(scene, realPorts.fonts);
    const b = toMonoBitmap(scene, realPorts.fonts);
    let diff = 0;
    for (let i = 0; i < a.data.length; i++) {
      let x = (a.data[i] ?? 0) ^ (b.data[i] ?? 0);
      for (; x; x >>= 1) diff += x & 1;
    }
    const dots = a.width * a.height;
    out[String(dpi)] = { differing_dots: diff, dots, percent: Math.round((diff / dots) * 1e5) / 1e3 };
    console.error(
      `  ${dpi} dpi: ${diff} of ${dots} dots differ from the resvg path (${out[String(dpi)]!.percent} %)`,
    );
  }
  details.fidelity_vs_resvg = out;
});

// 5b. Where the time of one PDF label goes.
section('pdf-breakdown', async () => {
  const lay: number[] = [];
  const pdf: number[] = [];
  for (let i = -1; i < q(50, 5); i++) {
    const markup = resolveOne(template, dataFor(5_000_000 + i));
    const t0 = performance.now();
    const scene = layout(markup, { fonts: realPorts.fonts, images, target: { unit: 'px' } });
    const t1 = performance.now();
    await renderPdf([scene], realPorts.fonts, { rasterizeSvg: svgImageToPng, deflate: nodeDeflate });
    const t2 = performance.now();
    if (i >= 0) {
      lay.push(t1 - t0);
      pdf.push(t2 - t1);
    }
  }
  details.pdf_breakdown_ms = {
    layout: row('  PDF: layout (px Scene)', stats(lay)).median,
    render_pdf: row('  PDF: renderPdf (direct writer: CID text, images, barcodes)', stats(pdf)).median,
  };
});

// 6. Peers on the same inputs: pdfme (PDF) and bwip-js (barcodes alone).
section('peers', async () => {
  let pdfme: ReturnType<typeof createPdfmePeer> | undefined;
  try {
    pdfme = createPdfmePeer(template);
    const peer = pdfme;
    const { stat } = await perItem(BATCH.pdfme, (i) =>
      peer.render([peer.inputsFor(dataFor(i < 0 ? 999_999 : i))]),
    );
    row('pdfme generate, per label (peer)', stat, `${BATCH.pdfme} different labels, one PDF each`);
    result.pdfme_ms = stat.median;
    details.pdfme = stat;
  } catch (e) {
    result.pdfme_ms = 'n/a';
    details.pdfme_error = String(e);
    console.error(`  pdfme: n/a (${String(e)})`);
  }

  // Barcodes alone: the tracking Code 128 and the order QR code of a label, at 203 dpi, as PNG.
  const barcodesOnly = (i: number): Markup => {
    const m = resolveOne(template, dataFor(4_000_000 + i));
    return { ...m, elements: m.elements.filter((e) => e.type === 'barcode') };
  };
  let k = 0;
  const bw = await tiny(
    [
      ['ours', () => renderPngLabels([barcodesOnly(k++)], 203, realPorts)],
      [
        'bwip',
        async () => {
          const d = dataFor(4_000_000 + k++);
          // Sized like ours at 203 dpi: the Code 128 box is 711 × 254 dots (about 3 dots per module, bars about 25 mm),
          // the QR box 271 dots (version 2: about 10 dots per module).
          await bwipjs.toBuffer({
            bcid: 'code128',
            text: d.tracking!,
            scale: 2,
            height: 23,
            includetext: true,
          });
          // eclevel is a BWIPP option bwip-js passes through; its types do not list it.
          await bwipjs.toBuffer({ bcid: 'qrcode', text: d.order_id!, scale: 10, eclevel: 'M' } as Parameters<
            typeof bwipjs.toBuffer
          >[0]);
        },
      ],
    ],
    { iterations: q(50, 10) },
  );
  row('barcodes alone → PNG 203 dpi (ours: layout + SVG + resvg)', bw.ours!, 'Code 128 + QR, values vary');
  row('bwip-js toBuffer, Code 128 + QR (peer)', bw.bwip!, 'its own raster + PNG');
  result.barcodes_png_ms = bw.ours!.median;
  result.bwip_js_png_ms = bw.bwip!.median;
  details.barcodes = bw;
});

// 6a. ZPL in (issue #33): a carrier-like label of the ZPL corpus (frame, eight ^A0 fields, a Code 128, a ^GFA
// logo) read and drawn at 203 dpi, beside zpl-renderer-js (zebrash in WebAssembly) in the same process, and
// labelize if it can be imported (it is not on npm: a Go program).
section('zpl-in', async () => {
  const { CORPUS } = await import('../zpl/read/corpus');
  const { readZpl } = await import('../../src/zpl/read');
  const { drawZplLabels } = await import('../../src/node/zpl-outputs');
  const { ready } = await import('zpl-renderer-js');
  const zpl = CORPUS.find((l) => l.name === 'parcel-code128')!.zpl;
  const fonts = realPorts.fonts;
  const read = () => readZpl(zpl, { fonts, dpi: 203 }).labels[0]!;
  const { api } = await ready;
  const ours = await tiny(
    [
      ['read', () => read()],
      ['dots', () => toMonoBitmapFast(read().scene, fonts)],
      ['png', () => drawZplLabels(zpl, { dpi: 203, format: 'png', fonts })],
      // Its size in mm at 8 dots/mm: the label's 812 × 1218 dots.
      ['zebrash', () => api.zplToBase64Async(zpl, 812 / 8, 1218 / 8, 8)],
    ],
    { iterations: q(30, 5), time: q(2000, 300) },
  );
  row('ZPL in: parse + lay out (readZpl), 203 dpi', ours.read!, 'parcel-code128 of the corpus');
  row('ZPL in: parse + lay out + 1-bit dots', ours.dots!, 'what a printer view or ^GF re-rasterise draws');
  row('ZPL in: parse + lay out + PNG (drawZplLabels)', ours.png!, 'render --zpl and serve --labelary');
  row('zpl-renderer-js zplToBase64Async → PNG (peer)', ours.zebrash!, 'zebrash in WebAssembly');
  result.zpl_in_read_ms = ours.read!.median;
  result.zpl_in_dots_ms = ours.dots!.median;
  result.zpl_in_png_ms = ours.png!.median;
  result.zpl_renderer_js_png_ms = ours.zebrash!.median;
  result.zpl_in_dots_speedup_vs_zpl_renderer_js = ratio(ours.zebrash!.median, ours.dots!.median);
  result.zpl_in_png_speedup_vs_zpl_renderer_js = ratio(ours.zebrash!.median, ours.png!.median);
  details.zpl_in = ours;
  const labelize = 'labelize';
  try {
    await import(labelize);
    result.labelize_ms = 'n/a';
    details.labelize = 'importable, not measured: no JavaScript API is known for it';
  } catch {
    result.labelize_ms = 'n/a';
    details.labelize = 'not installed: labelize is not on npm (the registry answers 404; it is a Go program)';
    console.error(`  labelize: n/a (${details.labelize})`);
  }
});

// 6b. Memory over a long batch: live memory after a full GC, every 500 labels, 3,000 different labels (the old
// resvg path grew by ~16 MB of native memory per label and could not finish 1,000).
section('memory', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const n = q(3000, 200);
  const every = q(500, 50);
  const samples: { labels: number; rss_mb: number; heap_used_mb: number; external_mb: number }[] = [];
  for (let i = 0; i < n; i++) {
    await renderZplLabels(distinctMarkups(template, 1, 6_000_000 + i), { dpi: 203 }, ports);
    if ((i + 1) % every === 0) {
      gc();
      const u = process.memoryUsage();
      const mb = (v: number): number => Math.round(v / 1024 / 1024);
      samples.push({
        labels: i + 1,
        rss_mb: mb(u.rss),
        heap_used_mb: mb(u.heapUsed),
        external_mb: mb(u.external),
      });
    }
  }
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  result.memory_rss_growth_kb_per_label_after_gc =
    Math.round(((last.rss_mb - first.rss_mb) * 1024 * 10) / (last.labels - first.labels)) / 10;
  details.memory_after_gc = { samples, mono_raster: { ...monoRasterStats } };
  console.error(
    `  ${n} labels, after GC: ${samples.map((x) => `${x.labels}: RSS ${x.rss_mb} MB, heap ${x.heap_used_mb} MB`).join('; ')}`,
  );
});

/** Runs a bench child (its own process: its peak RSS is its own) and parses its last JSON line. */
async function childJson(
  file: string,
  args: string[],
  /** A command to run it under (`taskset -c 0-1`). */
  wrapper: string[] = [],
): Promise<Record<string, unknown>> {
  const tsx = join(import.meta.dirname, '../../node_modules/.bin/tsx');
  const out = await new Promise<string>((resolve, reject) => {
    const [cmd, ...pre] = [...wrapper, tsx];
    const child = spawn(cmd!, [...pre, join(import.meta.dirname, file), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`${file} exited ${code}`))));
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
}

// 7. End-to-end, as the issue asks: 1,000 different labels through the job queue to the Zebra emulator (one
// job, labels rendered in chunks, each written and confirmed by ~HS). Twice: as users run it, the bundled CLI
// `labeldesk batch` from a CSV file (its peak RSS by GNU time, when installed, else by the child itself), and the
// job service in a tsx child with RSS sampled along the way (tsx's own compiler adds to that RSS).
section('e2e', async () => {
  const emulator = await startZebraEmulator({ dpi: 203, port: 0 });
  const dataDir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-queue-'));
  try {
    const csv = join(dataDir, 'batch.csv');
    const rowsData = Array.from({ length: BATCH.e2e }, (_, i) => dataFor(i));
    const cols = Object.keys(rowsData[0] ?? {});
    const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;
    writeFileSync(
      csv,
      [cols.join(','), ...rowsData.map((r) => cols.map((c) => cell(r[c] ?? '')).join(','))].join('\n'),
    );
    const cli = join(import.meta.dirname, '../../dist/labeldesk.mjs');
    const args = [
      cli,
      'batch',
      '--csv',
      csv,
      '--template',
      'shipping-4x6',
      '--printer',
      emulator.uri,
      '--dpi',
      '203',
    ];
    const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-v'] : [];
    const started = performance.now();
    const stderr = await new Promise<string>((resolve, reject) => {
      const [cmd, ...rest] = [...time, process.execPath, ...args, '--data-dir', join(dataDir, 'cli')];
      const child = spawn(cmd!, rest, { stdio: ['ignore', 'ignore', 'pipe'] });
      let text = '';
      child.stderr.on('data', (c: Buffer) => (text += c.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`labeldesk batch exited ${code}: ${text}`)),
      );
    });
    const seconds = (performance.now() - started) / 1000;
    const peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? NaN);
    const viaCli = emulator.jobs.length;
    if (viaCli !== BATCH.e2e) throw new Error(`emulator received ${viaCli} labels of ${BATCH.e2e}`);
    result.batch_1000_labels_per_s = viaCli / seconds;
    result.batch_1000_peak_rss_mb = Number.isNaN(peakKb) ? null : peakKb / 1024;
    console.error(
      `  labeldesk batch (CLI): ${viaCli} labels in ${fmt(seconds)} s incl. start: ${fmt(viaCli / seconds)} labels/s, peak RSS ${Number.isNaN(peakKb) ? 'n/a (no GNU time)' : `${fmt(peakKb / 1024)} MB`}`,
    );

    const e2e = (await childJson('e2e-queue.ts', [
      String(emulator.port),
      String(BATCH.e2e),
      join(dataDir, 'service'),
    ])) as Record<string, number>;
    const received = emulator.jobs.length - viaCli;
    if (received !== e2e.labels)
      throw new Error(`emulator received ${received} labels, the queue confirmed ${e2e.labels}`);
    details.batch_1000 = {
      cli: { labels: viaCli, seconds, peak_rss_mb: result.batch_1000_peak_rss_mb },
      service_in_tsx: { ...e2e, emulator_jobs: received },
      emulator_bytes: emulator.bytesReceived(),
    };
    console.error(
      `  job service (tsx child): ${e2e.labels} labels in ${fmt(e2e.seconds!)} s: ${fmt(e2e.labels_per_s!)} labels/s, peak RSS ${fmt(e2e.peak_rss_mb!)} MB`,
    );
  } finally {
    await emulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// 7b. The same labels streamed over one TCP connection without the queue (no store, no ~HS confirmation):
// what the renderer and the wire alone can do, to tell the queue's cost from theirs.
section('e2e-stream', async () => {
  const emulator = await startZebraEmulator({ dpi: 203, port: 0 });
  try {
    const e2e = (await childJson('e2e.ts', [String(emulator.port), String(BATCH.e2e)])) as Record<
      string,
      number
    >;
    const received = emulator.jobs.length;
    if (received !== e2e.labels)
      throw new Error(`emulator received ${received} labels, the sender sent ${e2e.labels}`);
    result.stream_1000_labels_per_s = e2e.labels_per_s;
    result.stream_1000_peak_rss_mb = e2e.peak_rss_mb;
    details.stream_1000 = { ...e2e, emulator_jobs: received, emulator_bytes: emulator.bytesReceived() };
    console.error(
      `  stream: ${e2e.labels} labels in ${fmt(e2e.seconds!)} s: ${fmt(e2e.labels_per_s!)} labels/s, peak RSS ${fmt(e2e.peak_rss_mb!)} MB`,
    );
  } finally {
    await emulator.close();
  }
});

// 8. Load (issue #16): `labeldesk serve` on one core under 32 clients, render-zpl then fetch-markups, each alone
// and with a hostile mix alongside (bombs, 1,000-copy requests, wrong secrets); see test/bench/load.ts.
section('load', async () => {
  const load = await childJson('load.ts', [String(q(10, 3))]);
  const phase = (name: string) => load[name] as Record<string, number>;
  for (const name of [
    'render_zpl',
    'render_zpl_with_hostile_mix',
    'fetch_markups',
    'fetch_markups_with_hostile_mix',
  ]) {
    const p = phase(name);
    result[`load_${name}_per_s`] = p.requests_per_s;
    result[`load_${name}_p50_ms`] = p.p50_ms;
    result[`load_${name}_p99_ms`] = p.p99_ms;
  }
  result.load_server_peak_rss_mb = load.server_peak_rss_mb;
  details.load = load;
  console.error(
    `  serve, 32 clients: render-zpl ${phase('render_zpl').requests_per_s}/s (p99 ${phase('render_zpl').p99_ms} ms), with the hostile mix ${phase('render_zpl_with_hostile_mix').requests_per_s}/s (p99 ${phase('render_zpl_with_hostile_mix').p99_ms} ms); peak RSS ${String(load.server_peak_rss_mb)} MB`,
  );
});

// 8b. The site server (issue #24): `labeldesk serve --database` on one private PostgreSQL, 1, 2 and 3 instances
// against the embedded store, 32 clients round-robin over the instances; the per-request overhead of PostgreSQL,
// its round trips, and every counter number unique across instances; see test/bench/site.ts. Like the app, on
// every core (instances, PostgreSQL and clients share the VM's two): one core cannot show a scale-out.
section('site', async () => {
  if (!postgresBinDir()) {
    // Not a failure of the bench: the site section needs PostgreSQL's binaries (apt-get install postgresql).
    console.error('  site: skipped, PostgreSQL is not installed (apt-get install postgresql)');
    result.site_counters_unique = 'n/a';
    return;
  }
  const cores = `0-${Math.max(0, cpus().length - 1)}`;
  const site = await childJson(
    'site.ts',
    [String(q(10, 2)), String(q(2, 1)), String(q(200, 30))],
    ['taskset', '-c', cores],
  );
  const load = site.load as Record<string, Record<string, Record<string, number>>>;
  for (const [cfg, phases] of Object.entries(load)) {
    for (const [phase, p] of Object.entries(phases)) {
      const k = `site_${cfg}_${phase}`;
      result[`${k}_labels_per_s`] = p.labels_per_s;
      result[`${k}_p50_ms`] = p.p50_ms;
      result[`${k}_p99_ms`] = p.p99_ms;
      if (cfg.startsWith('postgres')) result[`${k}_postgres_cpu_share`] = p.postgres_cpu_share;
      console.error(
        `  site ${cfg}, render-zpl ${phase}: ${p.labels_per_s} labels/s, p50 ${p.p50_ms} ms, p99 ${p.p99_ms} ms; CPU: instances ${p.instances_cpu_cores}, PostgreSQL ${p.postgres_cpu_cores} (${Math.round((p.postgres_cpu_share ?? 0) * 100)} % of the CPU used), clients ${p.clients_cpu_cores} cores`,
      );
    }
  }
  const overhead = site.overhead as Record<string, Record<string, number>>;
  for (const [name, o] of Object.entries(overhead)) {
    result[`site_overhead_${name}_ms`] = o.overhead_ms;
    result[`site_overhead_${name}_ratio`] = o.ratio;
    console.error(
      `  site, one request at a time, ${name.replace(/_/g, ' ')}: embedded ${o.embedded_median_ms} ms, PostgreSQL ${o.postgres_median_ms} ms: +${o.overhead_ms} ms (×${o.ratio})`,
    );
  }
  const counters = site.counters as { unique: boolean; reserved_numbers: number };
  result.site_counters_unique = counters.unique;
  console.error(
    `  site counters: ${counters.reserved_numbers} numbers across instances, ${counters.unique ? 'all unique' : 'NOT unique'}; round trips per request ${JSON.stringify(site.round_trips_per_request)}`,
  );
  details.site = site;
});

// 9. The app (issue #21): web mode in Chromium against the Zebra emulator, as a front-desk user feels it —
// keystroke → preview painted, start, template switch, Print → the printer; see test/bench/app.ts. The renderer is
// built first (it is what is measured), and the child runs on every core, not the bench's one: the app is a
// browser, a main process and a printer, as on a desktop.
section('app', async () => {
  await new Promise<void>((resolve, reject) => {
    const npm = spawn('npm', ['run', '-s', 'build:renderer'], { stdio: ['ignore', 'inherit', 'inherit'] });
    npm.on('error', reject);
    npm.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`build:renderer exited ${code}`))));
  });
  const cores = `0-${Math.max(0, cpus().length - 1)}`;
  const app = await childJson('app.ts', [String(q(100, 20))], ['taskset', '-c', cores]);
  const typing = app.keystroke_to_paint_ms as Record<string, { p50: number; p95: number; max: number }>;
  for (const [name, s] of Object.entries(typing)) {
    const key = name.replace(/[^a-z0-9]+/gi, '_').toLowerCase();
    result[`app_keystroke_${key}_p50_ms`] = s.p50;
    result[`app_keystroke_${key}_p95_ms`] = s.p95;
    console.error(`  keystroke → paint, ${name}: p50 ${s.p50} ms, p95 ${s.p95} ms, max ${s.max} ms`);
  }
  const start = app.start_to_interactive_ms as { median: number };
  const sw = app.template_switch_ms as { p50: number; max: number };
  result.app_start_to_interactive_ms = start.median;
  result.app_template_switch_p50_ms = sw.p50;
  console.error(
    `  start → interactive ${start.median} ms; template switch → painted p50 ${sw.p50} ms, max ${sw.max}`,
  );
  for (const name of ['print_1_copy', 'print_20_copies']) {
    const p = app[name] as Record<string, { median: number }>;
    for (const [k, v] of Object.entries(p)) result[`app_${name}_${k}`] = v.median;
    console.error(
      `  ${name.replace(/_/g, ' ')}: click → first label byte ${fmt(p.click_to_first_byte_ms!.median)} ms, → last label ${fmt(p.click_to_last_label_ms!.median)} ms, → done shown ${fmt(p.click_to_done_shown_ms!.median)} ms; largest gap ${fmt(p.largest_gap_between_labels_ms!.median)} ms`,
    );
  }
  details.app = app;
});

// ---------------------------------------------------------------------------------------------------------------
async function runChild(name: string): Promise<void> {
  const tsx = join(import.meta.dirname, '../../node_modules/.bin/tsx');
  const file = join(tmpdir(), `labeldesk-bench-${process.pid}-${name}.json`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      tsx,
      [import.meta.filename, '--section', name, '--out', file, ...(quick ? ['--quick'] : [])],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`section ${name}: exit ${code ?? signal}`)),
    );
  });
  const part = JSON.parse(readFileSync(file, 'utf8')) as {
    result: Record<string, unknown>;
    details: Record<string, unknown>;
    rows: typeof rows;
  };
  Object.assign(result, part.result);
  Object.assign(details, part.details);
  rows.push(...part.rows);
}

if (onlySection) {
  const found = sections.find(([name]) => name === onlySection);
  if (!found) throw new Error(`no section ${onlySection}`);
  console.error(`[${onlySection}]`);
  await found[1]();
  const outAt = args.indexOf('--out');
  const outFile = outAt >= 0 ? args[outAt + 1] : undefined;
  if (!outFile) throw new Error('--section needs --out FILE');
  writeFileSync(outFile, JSON.stringify({ result, details, rows }));
  process.exit(0);
}
for (const [name] of sections) await runChild(name);
result.z64_speedup_vs_zpl_image = ratio(result.zpl_image_z64_ms as number, result.encode_z64_ms as number);
result.pdf_speedup_vs_pdfme =
  typeof result.pdfme_ms === 'number' ? ratio(result.pdfme_ms, result.pdf_batch_ms as number) : 'n/a';

const out = {
  ...result,
  meta: {
    date: new Date().toISOString(),
    node: process.version,
    cpus_usable: availableParallelism(),
    loadavg_start: loadAtStart,
    loadavg_end: loadavg(),
    quick,
    batch_sizes: BATCH,
    batch_1000_measures:
      'a CSV of N different rows printed with the bundled CLI (labeldesk batch) through the job queue to the Zebra emulator (labels rendered in chunks, stored, written over TCP, each confirmed with ~HS); labels/s incl. start-up, peak RSS by GNU time. stream_1000_*: the same labels rendered and written over one TCP connection without the queue',
  },
  details,
};
console.log('\nshipping-4x6 (ms per label; medians and p95)');
console.table(rows);
const keys = [
  'preview_update_ms',
  'zpl_203_batch_ms',
  'zpl_300_batch_ms',
  'zpl_600_batch_ms',
  'pdf_batch_ms',
  'svg_ms',
  'png_ms',
  'encode_z64_ms',
  'zpl_image_z64_ms',
  'z64_speedup_vs_zpl_image',
  'zpl_bytes_z64',
  'zpl_bytes_acs',
  'zpl_bytes_hex',
  'deflate9_b64_bytes',
  'zpl_z64_over_bound',
  'pdfme_ms',
  'zpl_in_dots_ms',
  'zpl_in_png_ms',
  'zpl_renderer_js_png_ms',
  'zpl_in_dots_speedup_vs_zpl_renderer_js',
  'zpl_in_png_speedup_vs_zpl_renderer_js',
  'batch_1000_labels_per_s',
  'batch_1000_peak_rss_mb',
  'memory_rss_growth_kb_per_label_after_gc',
  'site_postgres_x1_shipping_labels_per_s',
  'site_postgres_x2_shipping_labels_per_s',
  'site_postgres_x3_shipping_labels_per_s',
  'site_overhead_render_zpl_shipping_ms',
  'site_overhead_render_zpl_counter_ms',
  'site_counters_unique',
];
console.table(Object.fromEntries(keys.map((k) => [k, { value: result[k] }])));
if (jsonFile) {
  writeFileSync(jsonFile, `${JSON.stringify(out, null, 2)}\n`);
  console.error(`wrote ${jsonFile}`);
}
