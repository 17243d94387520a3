/** Counter fields: settings in the schema, formatting, and resolution from a supplied number, never user data. */
import { describe, expect, it } from 'vitest';
import { counterFields, counterValuesAt, formatCounter } from '../../src/resolve/counters';
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
    expect(counterValuesAt(template, { serial: 7, n: 1 }, 0)).toEqual({ serial: 7, n: 1 });
    expect(counterValuesAt(template, { serial: 7, n: 1 }, 3)).toEqual({ serial: 22, n: 4 });
  });

  it('are not checked as form values (a required counter needs no value from the user)', () => {
    expect(checkValues(template, {})).toEqual([]);
  });
});
