import { layout } from '../../src/layout/layout';
import { collectImageUrls } from '../../src/layout/images';
import { buildZplJobs } from '../../src/zpl/job';
import { shippingTemplate, distinctMarkups, batchPorts } from './inputs';
const ports = batchPorts();
const t = shippingTemplate();
const N = Number(process.env.N ?? 600);
const ms = distinctMarkups(t, N);
const images = await ports.loadImages(collectImageUrls(ms.slice(0, 1)));
const ph: Record<string, number[]> = { key: [], layout: [], raster: [], job: [], total: [] };
for (let i = 0; i < N; i++) {
  const m = ms[i]!;
  const t0 = performance.now();
  JSON.stringify(m);
  const t1 = performance.now();
  const scene = layout(m, { fonts: ports.fonts, images, target: { unit: 'dots', dpi: 203 }, onInvalid: 'throw' });
  const t2 = performance.now();
  const bitmap = ports.toMonoBitmap(scene, ports.fonts);
  const t3 = performance.now();
  buildZplJobs([{ bitmap, rfid: scene.rfid }], { maxWidthDots: 832, compression: 'z64', labelHome: { x: 0, y: 0 }, deflate: ports.deflate! });
  const t4 = performance.now();
  if (i >= 50) { ph.key!.push(t1 - t0); ph.layout!.push(t2 - t1); ph.raster!.push(t3 - t2); ph.job!.push(t4 - t3); ph.total!.push(t4 - t0); }
}
for (const [k, v] of Object.entries(ph)) { v.sort((a, b) => a - b); console.log(k.padEnd(8), 'median', v[v.length >> 1]!.toFixed(3), 'p90', v[Math.floor(v.length * 0.9)]!.toFixed(3), 'mean', (v.reduce((a, b) => a + b, 0) / v.length).toFixed(3)); }
