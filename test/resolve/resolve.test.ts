import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LIMITS, ResolveError, resolve, resolveOne, resolveShared } from '../../src/resolve/resolve';
import { parseTemplate } from '../../src/model/parse';
import { bundledTemplate, bundledTemplateNames } from '../support/templates';

const shipping = bundledTemplate('shipping-4x6');
const byId = (markup: { elements: unknown[] }, id: string) =>
  markup.elements.find((e) => (e as { id?: string }).id === id) as Record<string, unknown>;

describe('resolve (fetch-markups)', () => {
  it('returns one Markup per copy with the value in the barcode element', () => {
    const markups = resolve(shipping, { tracking: '1Z999AA10123456784' }, 3);
    expect(markups).toHaveLength(3);
    for (const m of markups) expect(byId(m, 'tracking').text).toBe('1Z999AA10123456784');
  });

  it('prints the placeholder of every field without a value', () => {
    const [m] = resolve(shipping, { tracking: 'T1' }, 1);
    expect(byId(m!, 'ship_to_name').text).toBe('RECIPIENT NAME');
    // Optional fields of the bundled template print nothing when empty (their sample text is a hint, #17).
    expect(byId(m!, 'order_id').text).toBe('');
  });

  it('hideIfEmpty: an element whose fields are all empty is not drawn; a value or a placeholder shows it', () => {
    const [empty] = resolve(shipping, { tracking: 'T1' }, 1);
    // "WEIGHT:  kg", "ORDER: ", an empty QR code and its note would print otherwise.
    for (const id of ['weight', 'order_text', 'order_id', 'order_note', 'service']) {
      expect(byId(empty!, id).visible, id).toBe(false);
    }
    const [given] = resolve(shipping, { tracking: 'T1', weight: '2.4', order_id: 'A-1' }, 1);
    expect(byId(given!, 'weight')).toMatchObject({ text: 'WEIGHT: 2.4 kg', visible: true });
    expect(byId(given!, 'order_id')).toMatchObject({ text: 'A-1', visible: true });
    // A field whose placeholder is not empty is never empty when left out (the API's rule).
    const withPlaceholder = {
      ...shipping,
      fields: shipping.fields.map((f) => (f.name === 'weight' ? { ...f, placeholder: '0.0' } : f)),
    };
    expect(byId(resolve(withPlaceholder, {}, 1)[0]!, 'weight')).toMatchObject({
      text: 'WEIGHT: 0.0 kg',
      visible: true,
    });
  });

  it('keys are case-sensitive; unknown and wrongly-cased keys change nothing', () => {
    const plain = resolve(shipping, { tracking: 'T1' }, 1);
    const noisy = resolve(shipping, { tracking: 'T1', Tracking: 'x', TRACKING: 'y', nope: 'z' }, 1);
    expect(noisy).toEqual(plain);
  });

  it('an empty string is a value, not a missing one', () => {
    const [m] = resolve(shipping, { order_id: '' }, 1);
    expect(byId(m!, 'order_text').text).toBe('ORDER: ');
    expect(byId(m!, 'order_text').visible).toBe(false);
  });

  it('leaves no field reference in the markup and keeps full geometry', () => {
    const [m] = resolve(shipping, {}, 1);
    const text = JSON.stringify(m);
    expect(text).not.toMatch(/\{(ship_to_name|ship_to_address|tracking|order_id|weight|service)\}/);
    for (const el of m!.elements)
      expect(el).toMatchObject({ x: expect.any(Number), y: expect.any(Number), rotation: 0, opacity: 1 });
    expect(m!.stage).toEqual({ width: 4, height: 6, unit: 'in', background: '#ffffff' });
  });

  it('substitutes values verbatim, braces and ZPL control characters included', () => {
    const [m] = resolve(shipping, { ship_to_name: '{tracking} ^XA~JR' }, 1);
    expect(byId(m!, 'ship_to_name').text).toBe('{tracking} ^XA~JR');
  });

  it('copies are independent objects', () => {
    const [a, b] = resolve(shipping, {}, 2);
    (a!.elements[0] as Record<string, unknown>).x = 999;
    expect((b!.elements[0] as Record<string, unknown>).x).not.toBe(999);
  });

  it.each<[string, unknown, unknown, RegExp]>([
    ['amount 0', {}, 0, /^amount: must be at least 1, got 0$/],
    ['amount -1', {}, -1, /^amount: must be at least 1/],
    ['a fractional amount', {}, 1.5, /^amount: expected a whole number of copies, got 1\.5$/],
    ['a string amount', {}, '2', /^amount: expected a whole number of copies, got a string$/],
    ['too many copies', {}, LIMITS.maxAmount + 1, /more than the maximum of 1000/],
    ['a number value', { tracking: 5 }, 1, /^apiData\.tracking: expected a string, got a number/],
    ['a null value', { tracking: null }, 1, /^apiData\.tracking: expected a string, got null/],
    [
      'a non-string value under an unknown key',
      { nope: {} },
      1,
      /^apiData\.nope: expected a string, got a object/,
    ],
    ['apiData as an array', ['a'], 1, /^apiData: expected an object/],
    ['apiData as null', null, 1, /^apiData: expected an object/],
    [
      'a huge value',
      { tracking: 'x'.repeat(LIMITS.maxValueLength + 1) },
      1,
      /^apiData\.tracking: is 10001 characters long/,
    ],
  ])('rejects %s with a message naming the parameter', (_what, apiData, amount, message) => {
    expect(() => resolve(shipping, apiData, amount)).toThrow(ResolveError);
    expect(() => resolve(shipping, apiData, amount)).toThrow(message);
  });

  it('resolves references in text, barcode text, image url and rfid epc', () => {
    const t = parseTemplate({
      schemaVersion: 1,
      name: 't',
      stage: { width: 1, height: 1, unit: 'in' },
      fields: [{ name: 'v', label: 'V', placeholder: 'P' }],
      elements: [
        { type: 'text', text: 'a{v}' },
        { type: 'barcode', format: 'code128', text: '{{api:v}}' },
        { type: 'image', url: 'https://x/{v}.png' },
        { type: 'rfid', epc: '{v}' },
      ],
    });
    const [m] = resolve(t, { v: 'Q' }, 1);
    expect(
      m!.elements.map(
        (e) =>
          (e as Record<string, unknown>)[e.type === 'image' ? 'url' : e.type === 'rfid' ? 'epc' : 'text'],
      ),
    ).toEqual(['aQ', 'Q', 'https://x/Q.png', 'Q']);
  });

  it('random apiData never crashes resolution: markups or a ResolveError (property)', () => {
    const templates = bundledTemplateNames().map(bundledTemplate);
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.string()),
      fc.object(),
    );
    const keys = fc.oneof(
      fc.string(),
      fc.constantFrom('tracking', 'Tracking', '__proto__', 'constructor', 'toString', 'epc', 'ean13'),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...templates),
        fc.oneof(fc.dictionary(keys, value), fc.dictionary(keys, fc.string()), value),
        fc.oneof(fc.integer({ min: -3, max: 5 }), fc.double(), fc.string()),
        (template, apiData, amount) => {
          try {
            const out = resolve(template, apiData, amount);
            expect(out).toHaveLength(amount as number);
          } catch (e) {
            expect(e).toBeInstanceOf(ResolveError);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('resolveOne and resolveShared (the copy is plain data, like structuredClone made it)', () => {
  it('every bundled template resolves to what a structuredClone of its elements gives, sharing nothing', () => {
    for (const name of bundledTemplateNames()) {
      const template = bundledTemplate(name);
      const markup = resolveOne(template, {});
      expect(markup.elements, name).toHaveLength(template.elements.length);
      template.elements.forEach((element, i) => {
        const out = markup.elements[i] as Record<string, unknown>;
        // Attributes without references are structuredClone's copy, nested objects included.
        const expected: Record<string, unknown> = structuredClone(element);
        for (const key of Object.keys(expected)) {
          if (typeof expected[key] === 'object' && expected[key] !== null) {
            expect(out[key], `${name} elements[${i}].${key}`).toStrictEqual(expected[key]);
            expect(out[key], `${name} elements[${i}].${key}`).not.toBe(
              (element as Record<string, unknown>)[key],
            );
          }
        }
      });
    }
  });

  it('resolveShared repeats one object; resolve gives each copy its own, equal to it', () => {
    const shared = resolveShared(shipping, { tracking: 'T1' }, 4);
    expect(shared).toHaveLength(4);
    expect(new Set(shared).size).toBe(1);
    const own = resolve(shipping, { tracking: 'T1' }, 4);
    expect(new Set(own).size).toBe(4);
    for (const m of own) expect(m).toStrictEqual(shared[0]);
    expect(() => resolveShared(shipping, {}, 1001)).toThrow(ResolveError);
  });
});
