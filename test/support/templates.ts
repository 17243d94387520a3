/** Test support: the bundled templates, read straight from assets/templates. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseTemplate } from '../../src/model/parse';
import type { Template } from '../../src/model/schema';

export const TEMPLATES_DIR = join(import.meta.dirname, '../../assets/templates');

export function bundledTemplateNames(): string[] {
  return readdirSync(TEMPLATES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

/** The raw JSON of a bundled template (for mutation tests). */
export function rawTemplate(name: string): unknown {
  return JSON.parse(readFileSync(join(TEMPLATES_DIR, `${name}.json`), 'utf8'));
}

export function bundledTemplate(name: string): Template {
  return parseTemplate(rawTemplate(name), name);
}

/** Realistic field values for each bundled template, shared by the rendering tests. */
export const SAMPLE_DATA: Record<string, Record<string, string>> = {
  // The SSCC is a counter: numbered by the job, its placeholder (18 zeros) without one.
  'gs1-logistic-4x6': {
    gtin: '05012345678900',
    count: '120',
    batch: 'L2611A',
    best_before: '2027-05-31',
    ship_from: 'LabelDesk Foods Ltd\n12 Harbour Road\nBristol BS1 5TY, United Kingdom',
    ship_to: 'Northwind Retail DC 4\nDock 7, 200 Logistics Way\nLeeds LS10 1AB\nUnited Kingdom',
    carrier: 'Harbour Freight',
    consignment: 'CN 4001234500012',
    purchase_order: 'PO-778812',
  },
  'shipping-4x6': {
    ship_to_name: 'Ada Lovelace',
    ship_to_address: '12 St James Square\nLondon SW1Y 4JH\nUnited Kingdom',
    tracking: '1Z999AA10123456784',
    order_id: 'ORD-20261123-0042',
    weight: '2.4',
    service: 'EXPRESS',
  },
  'product-2x1': {
    product_name: 'Organic Oat Drink 1 L',
    sku: 'SKU-OAT-0001',
    price: '2.49',
    ean13: '590123412345',
  },
  'visitor-badge-4x3': {
    name: 'Grace Hopper',
    company: 'Harvard Computation Lab',
    host: 'Howard Aiken',
    date: '2026-11-23',
    badge_id: 'V-2026-0042',
  },
  'packing-slip-a4': {
    order_id: 'ORD-20261123-0042',
    customer: 'Ada Lovelace',
    address: '12 St James Square\nLondon SW1Y 4JH\nUnited Kingdom',
    items:
      '2 x Thermal labels 4x6 (SKU-LBL-46)\n1 x Ribbon wax 110 mm (SKU-RIB-110)\n3 x Label core adapter (SKU-CORE-3)',
  },
  'element-gallery-4x6': { caption: 'Engine test' },
  'rfid-asset-4x2': {
    asset_id: 'ASSET-004211',
    epc: '3034257BF7194E4000001A85',
    description: 'Laptop, 14 in, IT department',
  },
};
