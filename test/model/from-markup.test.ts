/**
 * Markup JSON imported as a template (the app's import of fetch-markups output, issue #19): every bundled
 * template's markup comes back unchanged when the imported template is resolved; values with braces stay
 * literal; attributes only the hosted service knows are dropped; differing copies become one template each.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from '../../src/resolve/resolve';
import { looksLikeMarkup, templatesFromMarkup } from '../../src/model/from-markup';
import { TemplateValidationError } from '../../src/model/errors';
import { SAMPLE_DATA, bundledTemplate, bundledTemplateNames } from '../support/templates';

describe('templatesFromMarkup', () => {
  it.each(bundledTemplateNames())('%s: the imported template resolves to the same markup', (name) => {
    const markups = resolve(bundledTemplate(name), SAMPLE_DATA[name] ?? {}, 2);
    const json = JSON.parse(JSON.stringify(markups)) as unknown;
    expect(looksLikeMarkup(json)).toBe(true);
    const templates = templatesFromMarkup(json, `${name}.markup.json`);
    expect(templates.map((t) => t.name)).toEqual([`${name}.markup`]);
    expect(templates[0]!.fields).toEqual([]);
    expect(resolve(templates[0]!, {}, 1)).toEqual([markups[0]]);
  });

  it('keeps braces and backslashes in values literal, and drops attributes a template does not know', () => {
    const markup = {
      stage: { width: 2, height: 1, unit: 'in', background: '#ffffff' },
      elements: [
        {
          type: 'text',
          x: 4,
          y: 4,
          text: 'Size {XL} \\ C:\\temp',
          font: { size: 12, weight: 700 },
          draggable: true,
        },
        { type: 'barcode', x: 4, y: 40, format: 'code128', text: '{A}-1', konvaId: 'n7' },
      ],
    };
    const [template] = templatesFromMarkup(markup, 'C:\\Users\\ada\\hosted label.json');
    expect(template!.name).toBe('hosted label');
    const [resolved] = resolve(template!, {}, 1);
    expect(resolved!.elements[0]).toMatchObject({ text: 'Size {XL} \\ C:\\temp', font: { size: 12 } });
    expect(resolved!.elements[0]).not.toHaveProperty('draggable');
    expect(resolved!.elements[0]!.type === 'text' && resolved!.elements[0]!.font).not.toHaveProperty(
      'weight',
    );
    expect(resolved!.elements[1]).toMatchObject({ text: '{A}-1' });
    expect(resolved!.elements[1]).not.toHaveProperty('width'); // drawn at its natural size
  });

  it('makes one template per distinct copy (a counter), named after the file', () => {
    const copy = (n: string) => ({
      stage: { width: 2, height: 1, unit: 'in' },
      elements: [{ type: 'text', x: 0, y: 0, text: `No. ${n}` }],
    });
    const templates = templatesFromMarkup([copy('1'), copy('2'), copy('1')], 'serials.json');
    expect(templates.map((t) => t.name)).toEqual(['serials-1', 'serials-2']);
  });

  it('names every problem with the copy and path', () => {
    const bad = [
      {
        stage: { width: 2, height: 1, unit: 'in' },
        elements: [{ type: 'barcode', format: 'code12', text: '1' }],
      },
    ];
    try {
      templatesFromMarkup(bad, 'bad.json');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TemplateValidationError);
      expect((e as Error).message).toContain('[0].elements[0].format: unknown barcode format "code12"');
    }
  });

  it('tells markup from a template', () => {
    expect(looksLikeMarkup(bundledTemplate('product-2x1'))).toBe(false);
    expect(looksLikeMarkup({ stage: {}, elements: [] })).toBe(true);
    expect(looksLikeMarkup([])).toBe(true);
  });
});
