/** Counter fields: settings in the schema, formatting, and resolution from a supplied number, never user data. */
import { describe, expect, it } from 'vitest';
import {
  counterFields,
  counterKey,
  counterRangeProblem,
  counterValuesAt,
  formatCounter,
} from '../../src/resolve/counters';
import { resolveOne } from '../../src/resolve/resolve';
import { checkValues } from '../../src/resolve/values';
import { TemplateValidationError } from '../../src/model/errors';
import { parseTemplate } from '../../src/model/parse';
import { CounterSchema } from '../../src/model/schema';

const template = parseTemplate({
  schemaVersion: 1,
  name: 'serials',
  stage: { width: 2, height: 1, unit: 'in' },
  fields: [
    { name: 'sku', label: 'SKU', placeholder: 'SKU' },
    {
      name: 'serial',
      label: 'Serial',
      placeholder: 'SN-??????',
      type: 'counter',
      required: true,
      counter: { start: 7, step: 5, width: 6, prefix: 'SN-', suffix: '/A' },
    },
    { name: 'n', label: 'N', placeholder: '0', type: 'counter' },
  ],
  elements: [{ type: 'text', x: 0, y: 0, width: 100, height: 20, text: '{sku} {serial} {n}' }],
});
const textOf = (m: ReturnType<typeof resolveOne>): unknown => (m.elements[0] as { text?: unknown }).text;

describe('counter fields', () => {
  it('default to start 1, step 1, no padding, no prefix or suffix', () => {
    expect(CounterSchema.parse({})).toEqual({ start: 1, step: 1, width: 0, prefix: '', suffix: '' });
    expect(template.fields[2]?.counter).toBeUndefined();
  });

  it('counter settings are refused on other field types', () => {
    expect(() =>
      parseTemplate({
        schemaVersion: 1,
        name: 'x',
        stage: { width: 1, height: 1, unit: 'in' },
        fields: [{ name: 'a', label: 'A', placeholder: '', counter: { start: 1 } }],
        elements: [],
      }),
    ).toThrow(TemplateValidationError);
  });

  it('format as prefix + zero-padded number + suffix', () => {
    const c = CounterSchema.parse({ width: 6, prefix: 'SN-', suffix: '/A' });
    expect(formatCounter(c, 42)).toBe('SN-000042/A');
    expect(formatCounter(c, 12345678)).toBe('SN-12345678/A');
    expect(formatCounter(CounterSchema.parse({}), 0)).toBe('0');
  });

  it('take their value from the supplied number, never from user data; without one, the placeholder', () => {
    const data = { sku: 'A1', serial: 'typed by someone', n: '99' };
    expect(textOf(resolveOne(template, data, { serial: 12, n: 3 }))).toBe('A1 SN-000012/A 3');
    expect(textOf(resolveOne(template, data))).toBe('A1 SN-?????? 0');
  });

  it('label i of a job gets first + i × step: one number per physical label', () => {
    expect(counterFields(template).map((f) => f.name)).toEqual(['serial', 'n']);
    expect(counterValuesAt(template, { serial: 7, n: 1 }, 0, 0)).toEqual({ serial: 7, n: 1 });
    expect(counterValuesAt(template, { serial: 7, n: 1 }, 3, 0)).toEqual({ serial: 22, n: 4 });
  });

  it('are not checked as form values (a required counter needs no value from the user)', () => {
    expect(checkValues(template, {})).toEqual([]);
  });
});

describe('SSCC counters (counter.gs1)', () => {
  const sscc = (gs1: Record<string, unknown>, more: Record<string, unknown> = {}) =>
    parseTemplate({
      schemaVersion: 1,
      name: 'pallets',
      stage: { width: 4, height: 6, unit: 'in' },
      fields: [
        {
          name: 'sscc',
          label: 'SSCC',
          placeholder: '',
          type: 'counter',
          counter: { gs1: { kind: 'sscc', ...gs1 }, ...more },
        },
      ],
      elements: [{ type: 'text', x: 0, y: 0, width: 100, height: 20, text: '(00){sscc}' }],
    });
  const problems = (run: () => unknown): string[] => {
    try {
      run();
    } catch (e) {
      if (e instanceof TemplateValidationError) return e.problems.map((p) => `${p.path}: ${p.message}`);
      throw e;
    }
    return [];
  };

  it("print extension + company prefix + the number as serial reference + the check digit (GS1's example SSCC)", () => {
    // GS1 General Specifications' example: extension 1, company prefix 0614141, serial reference 123456789.
    const c = CounterSchema.parse({ gs1: { kind: 'sscc', extension: '1', companyPrefix: '0614141' } });
    expect(formatCounter(c, 123456789)).toBe('106141411234567897');
    // The serial reference is zero-padded to fill 17 digits: 9 digits after a 7-digit prefix, 4 after 12.
    expect(formatCounter(c, 1)).toBe('106141410000000019');
    const long = CounterSchema.parse({
      gs1: { kind: 'sscc', extension: '0', companyPrefix: '061414112345' },
    });
    expect(formatCounter(long, 42)).toBe('006141411234500422');
  });

  it('resolve to the SSCC of the number the job reserved', () => {
    const t = sscc({ extension: '3', companyPrefix: '0614141' }, { start: 5 });
    const text = (resolveOne(t, {}, { sscc: 5 }).elements[0] as { text?: unknown }).text;
    expect(text).toBe('(00)306141410000000051');
  });

  it('validate the extension digit and the company prefix, naming the setting', () => {
    expect(problems(() => sscc({ extension: '12', companyPrefix: '0614141' }))).toEqual([
      expect.stringMatching(/counter\.gs1\.extension.*extension digit is one digit, 0 to 9/),
    ]);
    expect(problems(() => sscc({ extension: '3', companyPrefix: '12345' }))).toEqual([
      expect.stringMatching(/counter\.gs1\.companyPrefix.*company prefix is 6 to 12 digits/),
    ]);
    expect(problems(() => sscc({ extension: '3', companyPrefix: '1234567890123' }))).toHaveLength(1);
    expect(problems(() => sscc({ extension: '3', companyPrefix: '06141A1' }))).toHaveLength(1);
    expect(problems(() => sscc({ kind: 'gtin', extension: '3', companyPrefix: '0614141' }))).toEqual([
      expect.stringMatching(/counter\.gs1\.kind.*"sscc"/),
    ]);
    // An SSCC is the 18 digits alone: no prefix, suffix or padding of its own.
    expect(
      problems(() => sscc({ extension: '3', companyPrefix: '0614141' }, { prefix: 'SSCC ', width: 9 })),
    ).toEqual([
      expect.stringMatching(/counter\.prefix.*not in prefix/),
      expect.stringMatching(/counter\.width.*leave width out/),
    ]);
  });

  it('refuse a start past the last serial reference: the SSCC range is exhausted', () => {
    // A 12-digit company prefix leaves 4 digits: 0000 to 9999.
    expect(problems(() => sscc({ extension: '3', companyPrefix: '061414112345' }, { start: 9999 }))).toEqual(
      [],
    );
    expect(problems(() => sscc({ extension: '3', companyPrefix: '061414112345' }, { start: 10000 }))).toEqual(
      [
        expect.stringMatching(
          /counter\.start: start 10000 does not fit.*the SSCC range is exhausted after 9999/,
        ),
      ],
    );
  });

  it('a job whose numbers run past the last serial reference is refused with a message naming the field', () => {
    const t = sscc({ extension: '3', companyPrefix: '061414112345' });
    const field = t.fields[0]!;
    expect(counterRangeProblem(field, 9998, 9999)).toBeUndefined();
    expect(counterRangeProblem(field, 9998, 10000)).toBe(
      'SSCC (sscc): the SSCC range is exhausted — company prefix 061414112345 with extension digit 3 has ' +
        '4-digit serial references, the last is 9999, and this job needs up to 10000 (2 left); use another ' +
        'extension digit or company prefix',
    );
    expect(() => formatCounter(field.counter!, 10000)).toThrow(/the SSCC range is exhausted/);
    // A plain counter has no such range.
    expect(counterRangeProblem(template.fields[1]!, 1, Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });

  it('keep one sequence per extension digit and company prefix, whichever template or printer', () => {
    const field = sscc({ extension: '3', companyPrefix: '0614141' }).fields[0]!;
    expect(counterKey(field, 'pallets', 'tcp://a:9100')).toEqual(counterKey(field, 'other', 'tcp://b:9100'));
    const other = sscc({ extension: '4', companyPrefix: '0614141' }).fields[0]!;
    expect(counterKey(other, 'pallets', 'tcp://a:9100')).not.toEqual(
      counterKey(field, 'pallets', 'tcp://a:9100'),
    );
    // A plain counter: per template and printer, as before.
    const serial = template.fields[1]!;
    expect(counterKey(serial, 'serials', 'tcp://a:9100')).toEqual({
      template: 'serials',
      printer: 'tcp://a:9100',
      field: 'serial',
    });
  });
});
