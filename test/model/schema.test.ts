import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TemplateValidationError } from '../../src/model/errors';
import { parseMarkup, parseTemplate, parseTemplateText } from '../../src/model/parse';
import { ELEMENT_TYPES } from '../../src/model/elements';
import { templateJsonSchema } from '../../src/cli/template-commands';
import { bundledTemplate, bundledTemplateNames, rawTemplate } from '../support/templates';

const minimal = () => ({
  schemaVersion: 1,
  name: 'mini',
  stage: { width: 2, height: 1, unit: 'in' },
  fields: [{ name: 'sku', label: 'SKU', placeholder: 'SKU-0' }],
  elements: [{ type: 'text', x: 4, y: 4, width: 100, height: 20, text: 'SKU {sku}' }],
});

function problemsOf(value: unknown): string[] {
  try {
    parseTemplate(value);
  } catch (e) {
    if (e instanceof TemplateValidationError) return e.problems.map((p) => `${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}

describe('template format', () => {
  it('ships the seven public example templates, all valid', () => {
    expect(bundledTemplateNames()).toEqual([
      'element-gallery-4x6',
      'gs1-logistic-4x6',
      'packing-slip-a4',
      'product-2x1',
      'rfid-asset-4x2',
      'shipping-4x6',
      'visitor-badge-4x3',
    ]);
    for (const name of bundledTemplateNames()) expect(bundledTemplate(name).name).toBe(name);
  });

  it('keeps the public field names of the bundled templates', () => {
    const fields = (name: string) => bundledTemplate(name).fields.map((f) => f.name);
    expect(fields('shipping-4x6')).toEqual([
      'ship_to_name',
      'ship_to_address',
      'tracking',
      'order_id',
      'weight',
      'service',
    ]);
    expect(fields('product-2x1')).toEqual(['product_name', 'sku', 'price', 'ean13']);
    expect(fields('rfid-asset-4x2')).toEqual(['asset_id', 'epc', 'description']);
    expect(fields('visitor-badge-4x3')).toEqual(['name', 'company', 'host', 'date', 'badge_id']);
    expect(fields('packing-slip-a4')).toEqual(['order_id', 'customer', 'address', 'items']);
    expect(fields('gs1-logistic-4x6')).toEqual([
      'sscc',
      'gtin',
      'count',
      'batch',
      'best_before',
      'ship_from',
      'ship_to',
      'carrier',
      'consignment',
      'purchase_order',
    ]);
  });

  it('the gallery has every drawable element kind and every barcode format', () => {
    const gallery = bundledTemplate('element-gallery-4x6');
    const kinds = new Set(gallery.elements.map((e) => e.type));
    expect([...ELEMENT_TYPES].filter((k) => !kinds.has(k))).toEqual(['rfid']); // RFID: rfid-asset-4x2
    const formats = new Set(gallery.elements.flatMap((e) => (e.type === 'barcode' ? [e.format] : [])));
    expect(formats.size).toBe(13);
  });

  it('fills defaults so markup carries full geometry and styling', () => {
    const t = parseTemplate(minimal());
    expect(t.elements[0]).toMatchObject({
      rotation: 0,
      scaleX: 1,
      scaleY: 1,
      opacity: 1,
      font: { size: 14, family: 'Arial' },
    });
    expect(t.stage.background).toBe('#ffffff');
  });

  it('names three different mistakes with their paths in one go', () => {
    const t = minimal() as Record<string, unknown>;
    t.elements = [
      { type: 'text', text: 'x', fontsize: 12 },
      { type: 'barcode', format: 'code12', text: '{sku}' },
      { type: 'text', text: 'Hi {Name}' },
    ];
    expect(problemsOf(t)).toEqual([
      'elements[0]: unknown attribute "fontsize"',
      expect.stringMatching(/^elements\[1\]\.format: unknown barcode format "code12"/),
      'elements[2].text: refers to field "Name", which is not declared in "fields"',
    ]);
  });

  it.each<[string, (t: Record<string, any>) => void, RegExp]>([
    ['a wrong type', (t) => (t.elements[0].x = '4'), /^elements\[0\]\.x: expected number, got a string$/],
    ['a missing stage unit', (t) => delete t.stage.unit, /^stage\.unit: /],
    ['an unknown unit', (t) => (t.stage.unit = 'ft'), /^stage\.unit: expected a unit: in, cm, mm or px$/],
    [
      'a giant stage',
      (t) => (t.stage.width = 5000),
      /^stage\.width: 5000 in is larger than the 48 in maximum$/,
    ],
    ['a bad colour', (t) => (t.elements[0].fill = 'reddish'), /^elements\[0\]\.fill: expected a colour/],
    [
      'a duplicate field',
      (t) => t.fields.push({ ...t.fields[0] }),
      /^fields\[1\]\.name: duplicate field name "sku"$/,
    ],
    [
      'a choice field without choices',
      (t) => (t.fields[0].type = 'choice'),
      /^fields\[0\]\.choices: a "choice" field needs/,
    ],
    [
      'a broken pattern',
      (t) => (t.fields[0].pattern = '(['),
      /^fields\[0\]\.pattern: not a valid regular expression/,
    ],
    [
      'an unknown element',
      (t) => t.elements.push({ type: 'blob' }),
      /^elements\[1\]\.type: unknown element type "blob"/,
    ],
    [
      'an odd number of line points',
      (t) => t.elements.push({ type: 'line', points: [0, 0, 1, 1, 2] }),
      /^elements\[1\]\.points: /,
    ],
    ['a stray brace', (t) => (t.elements[0].text = 'a { b'), /^elements\[0\]\.text: "\{" at character 3/],
    ['a wrong schemaVersion', (t) => (t.schemaVersion = 2), /^schemaVersion: expected schemaVersion 1$/],
  ])('reports %s with its path', (_what, mutate, expected) => {
    const t = minimal() as Record<string, any>;
    mutate(t);
    expect(problemsOf(t)).toEqual([expect.stringMatching(expected)]);
  });

  it('reports JSON syntax errors with line and column', () => {
    expect(() => parseTemplateText('{\n  "name": "x",\n  oops\n}', 'f.json')).toThrow(
      /f\.json: .*not valid JSON at line 3, column 3/s,
    );
  });

  it('accepts markup from the hosted service with extra properties it may add', () => {
    const markup = parseMarkup({
      stage: { width: 4, height: 6, unit: 'in', background: '#ffffff', dpi: 203 },
      elements: [
        {
          type: 'text',
          x: 10,
          y: 10,
          text: 'Hello',
          font: { size: 12, family: 'Arial', weight: 400 },
          draggable: true,
        },
        {
          type: 'barcode',
          x: 10,
          y: 40,
          width: 200,
          height: 80,
          format: 'code128',
          text: 'ABC',
          url: 'https://x/b.png',
        },
      ],
    });
    expect(markup.elements).toHaveLength(2);
    expect((markup.elements[0] as Record<string, unknown>).draggable).toBe(true);
  });

  it('assets/schema/template.schema.json is the generated JSON Schema (run `labeldesk schema` to update)', () => {
    const file = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../assets/schema/template.schema.json'), 'utf8'),
    );
    expect(file).toEqual(JSON.parse(JSON.stringify(templateJsonSchema())));
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'an element whose type is %s (a name Object itself has) is a validation problem, not a crash',
    (type) => {
      const t = rawTemplate('shipping-4x6') as { elements: Record<string, unknown>[] };
      t.elements[1] = { ...t.elements[1], type };
      expect(() => parseTemplate(t)).toThrow(TemplateValidationError);
    },
  );

  it('random mutations of bundled templates never crash validation: a template or a TemplateValidationError (property)', () => {
    const names = bundledTemplateNames();
    const junk = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(fc.integer()),
      fc.dictionary(fc.string(), fc.string()),
      fc.constantFrom('{', '}', '{x}', '{{api:', 'qrcode', 'text', '#fff', -1e308, Number.NaN),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.tuple(fc.nat(), fc.string(), junk), { maxLength: 5 }),
        (name, edits) => {
          const t = rawTemplate(name) as Record<string, unknown>;
          for (const [index, key, value] of edits) {
            // Pick a target object: the template, its stage, a field, or an element.
            const objects = (v: unknown): Record<string, unknown>[] =>
              (Array.isArray(v) ? v : [v]).filter(
                (o): o is Record<string, unknown> => typeof o === 'object' && o !== null,
              );
            const pool = [t, ...objects(t.stage), ...objects(t.fields), ...objects(t.elements)];
            const target = pool[index % pool.length]!;
            const keys = Object.keys(target);
            const k = keys.length && index % 3 ? keys[index % keys.length]! : key;
            if (value === undefined) delete target[k];
            else target[k] = value;
          }
          try {
            parseTemplate(t);
          } catch (e) {
            expect(e).toBeInstanceOf(TemplateValidationError);
            expect((e as TemplateValidationError).problems.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
