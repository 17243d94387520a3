/**
 * Bench inputs shared by run.ts and e2e.ts: the shipping-4x6 template, sample data, 1,000 DIFFERENT labels
 * (tracking number, name and order vary per label, so no two copies share a layout or raster), and render ports
 * whose image loader is memoised (a real batch call loads the logo once for all its copies).
 */
import type { RenderPorts } from '../../src/outputs/render';
import type { ImageAssets } from '../../src/layout/images';
import { nodeRenderPorts } from '../../src/node/render-ports';
import { resolveOne } from '../../src/resolve/resolve';
import type { Markup, Template } from '../../src/model/schema';
import { SAMPLE_DATA, bundledTemplate } from '../support/templates';

export const TEMPLATE_NAME = 'shipping-4x6';

export function shippingTemplate(): Template {
  return bundledTemplate(TEMPLATE_NAME);
}

export const SAMPLE: Record<string, string> = SAMPLE_DATA[TEMPLATE_NAME] ?? {};

const NAMES = [
  'Ada Lovelace',
  'Grace Hopper',
  'Alan Turing',
  'Edsger Dijkstra',
  'Barbara Liskov',
  'Donald Knuth',
];

/** Field values of label `i`: every label differs in name, tracking number and order id (so its QR code). */
export function dataFor(i: number): Record<string, string> {
  return {
    ...SAMPLE,
    ship_to_name: `${NAMES[i % NAMES.length]} ${i}`,
    tracking: `1Z999AA1${String(i).padStart(10, '0')}`,
    order_id: `ORD-20261123-${String(i).padStart(5, '0')}`,
  };
}

export function distinctMarkups(template: Template, n: number, offset = 0): Markup[] {
  return Array.from({ length: n }, (_, i) => resolveOne(template, dataFor(offset + i)));
}

/** Node render ports with the image loader memoised per URL set (as one batch call would load them once). */
export function batchPorts(base: RenderPorts = nodeRenderPorts()): RenderPorts {
  const cache = new Map<string, Promise<ImageAssets>>();
  return {
    ...base,
    loadImages: (urls) => {
      const key = urls.join('\n');
      let hit = cache.get(key);
      if (!hit) {
        hit = base.loadImages(urls);
        cache.set(key, hit);
      }
      return hit;
    },
  };
}
