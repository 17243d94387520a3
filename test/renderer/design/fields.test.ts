/** The designer's fields (issue #22): add, edit, rename, remove, bind to elements, and the ones no element uses. */
import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/model/parse';
import type { Field } from '../../../src/model/schema';
import { newDesign, type DesignDocument } from '../../../renderer/src/design/design-document';
import {
  addField,
  bindField,
  fieldRuleProblems,
  editField,
  moveField,
  removeField,
  unusedFields,
} from '../../../renderer/src/design/fields';
import { addElement, setProperties } from '../../../renderer/src/design/operations';

function design(): DesignDocument {
  let doc = newDesign({ name: 'bound', size: '4x2', unit: 'in', dpi: 203 });
  for (const type of ['text', 'barcode', 'image', 'rfid', 'rect'] as const) doc = addElement(doc, type).doc;
  return setProperties(doc, [0], { text: 'SKU: ' });
}
const attr = (doc: DesignDocument, i: number, key: string) =>
  (doc.template.elements[i] as unknown as Record<string, unknown>)[key];

describe('fields', () => {
  it('adds text fields with names of their own, or the field given', () => {
    let doc = addField(addField(design()));
    doc = addField(doc, { name: 'qty', label: 'Quantity', type: 'number', required: true });
    expect(doc.template.fields.map((f) => f.name)).toEqual(['field1', 'field2', 'qty']);
    expect(doc.template.fields[2]).toMatchObject({ type: 'number', required: true, label: 'Quantity' });
  });

  it('edits every setting; changing the type drops settings only the old type takes', () => {
    let doc = addField(design(), { name: 'size' });
    doc = editField(doc, 0, {
      label: 'Size',
      placeholder: 'M',
      hint: 'S, M or L',
      pattern: '[SML]',
      maxLength: 1,
      default: 'M',
      type: 'choice',
    });
    expect(doc.template.fields[0]).toMatchObject({ type: 'choice', choices: ['M'], pattern: '[SML]' });
    doc = editField(doc, 0, { choices: ['S', 'M', 'L'], pattern: undefined });
    expect(doc.template.fields[0]).not.toHaveProperty('pattern');
    doc = editField(doc, 0, {
      type: 'counter',
      counter: { start: 100, step: 1, width: 6, prefix: 'A', suffix: '' },
    });
    expect(doc.template.fields[0]).not.toHaveProperty('choices');
    expect(doc.template.fields[0]!.counter).toMatchObject({ start: 100, width: 6 });
    doc = editField(doc, 0, { type: 'text' });
    expect(doc.template.fields[0]).not.toHaveProperty('counter');
    expect(() => parseTemplate(doc.template)).not.toThrow();
  });

  it('renames a field in every element that refers to it, literal braces kept', () => {
    let doc = addField(design(), { name: 'sku' });
    doc = setProperties(doc, [0], { text: '\\{SKU\\}: {sku} / {{api:sku}} {other}' });
    doc = bindField(doc, 1, 'sku');
    doc = addField(doc, { name: 'other' });
    doc = editField(doc, 0, { name: 'item' });
    expect(attr(doc, 0, 'text')).toBe('\\{SKU\\}: {item} / {item} {other}');
    expect(attr(doc, 1, 'text')).toBe('{item}');
    expect(() => parseTemplate(doc.template)).not.toThrow();
  });

  it('keeps the format a reference carries when its field is renamed', () => {
    let doc = addField(design(), { name: 'best_before', type: 'date' });
    doc = setProperties(doc, [1], { text: '(17){best_before|YYMMDD}' });
    doc = editField(doc, 0, { name: 'expiry' });
    expect(attr(doc, 1, 'text')).toBe('(17){expiry|YYMMDD}');
  });

  it('removes a field; an element still using it is named by the validation', () => {
    let doc = bindField(addField(design(), { name: 'sku' }), 0, 'sku');
    doc = removeField(doc, 0);
    expect(doc.template.fields).toEqual([]);
    expect(() => parseTemplate(doc.template)).toThrow(/elements\[0\]\.text: refers to field "sku"/);
  });

  it('moves a field in the form', () => {
    const doc = moveField(addField(addField(addField(design()))), 2, 0);
    expect(doc.template.fields.map((f) => f.name)).toEqual(['field3', 'field1', 'field2']);
  });
});

describe('binding', () => {
  const doc = addField(design(), { name: 'sku' });

  it('adds {Name} at the end of a text, or at the caret', () => {
    expect(attr(bindField(doc, 0, 'sku'), 0, 'text')).toBe('SKU: {sku}');
    expect(attr(bindField(doc, 0, 'sku', { at: 0 }), 0, 'text')).toBe('{sku}SKU: ');
  });

  it("replaces a barcode's value, an image's URL, an RFID tag's EPC", () => {
    expect(attr(bindField(doc, 1, 'sku'), 1, 'text')).toBe('{sku}');
    expect(attr(bindField(doc, 2, 'sku'), 2, 'url')).toBe('{sku}');
    expect(attr(bindField(doc, 3, 'sku'), 3, 'epc')).toBe('{sku}');
  });

  it('replaces a value still as the palette made it — a new text’s “Text” — instead of adding to it', () => {
    const fresh = addField(
      addElement(newDesign({ name: 'n', size: '4x2', unit: 'in', dpi: 203 }), 'text').doc,
      {
        name: 'location',
      },
    );
    expect(attr(fresh, 0, 'text')).toBe('Text');
    expect(attr(bindField(fresh, 0, 'location'), 0, 'text')).toBe('{location}');
    // Even at a caret: the default is not the user's text.
    expect(attr(bindField(fresh, 0, 'location', { at: 4 }), 0, 'text')).toBe('{location}');
  });

  it('inserts at the caret, or over the selected range, in a text and a barcode alike', () => {
    expect(attr(bindField(doc, 0, 'sku', { at: { start: 3, end: 3 } }), 0, 'text')).toBe('SKU{sku}: ');
    expect(attr(bindField(doc, 0, 'sku', { at: { start: 0, end: 3 } }), 0, 'text')).toBe('{sku}: ');
    // A range given backwards or past the end is clamped.
    expect(attr(bindField(doc, 0, 'sku', { at: { start: 99, end: 4 } }), 0, 'text')).toBe('SKU:{sku}');
    const custom = setProperties(doc, [1], { text: 'PRE-' });
    expect(attr(bindField(custom, 1, 'sku'), 1, 'text')).toBe('PRE-{sku}');
    expect(attr(bindField(custom, 1, 'sku', { at: { start: 0, end: 0 } }), 1, 'text')).toBe('{sku}PRE-');
  });

  it('gives a field bound as a barcode’s whole value the symbology’s sample when it has no placeholder', () => {
    let d = bindField(doc, 1, 'sku');
    expect(d.template.fields[0]!.placeholder).toBe('ABC-12345');
    // EAN-13: a valid 13-digit value.
    d = bindField(setProperties(doc, [1], { format: 'ean13', text: '' }), 1, 'sku');
    expect(d.template.fields[0]!.placeholder).toBe('5901234123457');
    // A placeholder of its own is kept; a field only part of the value gets none (its sample would not fit).
    const own = editField(doc, 0, { placeholder: 'X-1' });
    expect(bindField(own, 1, 'sku').template.fields[0]!.placeholder).toBe('X-1');
    const part = setProperties(doc, [1], { text: 'PRE-' });
    expect(bindField(part, 1, 'sku').template.fields[0]!.placeholder).toBe('');
    // A text is not a barcode.
    expect(bindField(doc, 0, 'sku').template.fields[0]!.placeholder).toBe('');
  });

  it('leaves an element without a value (a rectangle) as it is', () => {
    expect(bindField(doc, 4, 'sku')).toBe(doc);
  });

  it('flags the fields no element uses', () => {
    let d = addField(doc, { name: 'lot' });
    expect(unusedFields(d).map((f) => f.name)).toEqual(['sku', 'lot']);
    d = bindField(d, 3, 'lot');
    expect(unusedFields(d).map((f) => f.name)).toEqual(['sku']);
    d = setProperties(d, [0], { text: 'no {field here' });
    expect(unusedFields(d).map((f) => f.name)).toEqual(['sku']);
  });

  describe('fieldRuleProblems', () => {
    const field = (patch: Partial<Field>): Field => ({
      name: 'code',
      label: 'Code',
      placeholder: '',
      type: 'text',
      required: false,
      ...patch,
    });

    it('names a default the field’s own rules refuse, with the words of the Print screen’s form', () => {
      expect(fieldRuleProblems(field({ pattern: '[A-Z]{2}\\d{3}', default: 'AB123' }))).toEqual({});
      expect(fieldRuleProblems(field({ pattern: '[A-Z]{2}\\d{3}', default: 'ab123' })).default).toBe(
        'The default is refused: Code does not have the expected form (pattern [A-Z]{2}\\d{3}).',
      );
      expect(fieldRuleProblems(field({ maxLength: 3, default: 'ABCD' })).default).toBe(
        'The default is refused: Code is 4 characters long; the maximum is 3.',
      );
      expect(fieldRuleProblems(field({ type: 'choice', choices: ['S', 'M'], default: 'XL' })).default).toBe(
        'The default is refused: Code must be one of "S", "M", got "XL".',
      );
      expect(fieldRuleProblems(field({ type: 'number', default: 'ten' })).default).toBe(
        'The default is refused: Code must be a number, got "ten".',
      );
    });

    it('leaves an invalid pattern to the schema (its problem at the pattern), still checking the rest', () => {
      expect(fieldRuleProblems(field({ pattern: '(', default: 'x' }))).toEqual({});
      expect(fieldRuleProblems(field({ pattern: '(', maxLength: 1, default: 'xy' })).default).toMatch(
        /maximum is 1/,
      );
      const bad = editField(addField(design()), 0, { pattern: '(' });
      expect(() => parseTemplate(bad.template)).toThrow(
        /fields\[0\]\.pattern.*not a valid regular expression/s,
      );
    });

    it('names a choice listed twice', () => {
      expect(fieldRuleProblems(field({ type: 'choice', choices: ['S', 'M', 'S', 'S'] })).choices).toBe(
        '“S” listed more than once.',
      );
    });
  });
});
