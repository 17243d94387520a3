import { describe, expect, it } from 'vitest';
import { enterAction, fieldInputId } from '../../renderer/src/lib/form-keys';
import { TEMPLATE } from './fake-api';

const fields = TEMPLATE.fields; // ship_to_name (text), address (multiline), serial (counter), service (choice)

describe('Enter in the label form', () => {
  it("moves a scanner's Enter to the next field", () => {
    expect(enterAction(fields, 'ship_to_name', {})).toEqual({ kind: 'focus', field: 'address' });
  });

  it('keeps Enter for new lines in a multiline field; Ctrl+Enter leaves it', () => {
    expect(enterAction(fields, 'address', {})).toEqual({ kind: 'none' });
    expect(enterAction(fields, 'address', { ctrlKey: true })).toEqual({ kind: 'focus', field: 'service' });
  });

  it('skips counters (assigned when printed) and prints from the last field', () => {
    expect(enterAction(fields, 'service', {})).toEqual({ kind: 'print' });
  });

  it('leaves Shift+Enter, Alt+Enter and IME composition alone', () => {
    expect(enterAction(fields, 'ship_to_name', { shiftKey: true })).toEqual({ kind: 'none' });
    expect(enterAction(fields, 'ship_to_name', { altKey: true })).toEqual({ kind: 'none' });
    expect(enterAction(fields, 'ship_to_name', { isComposing: true })).toEqual({ kind: 'none' });
  });

  it('ignores unknown fields', () => {
    expect(enterAction(fields, 'nope', {})).toEqual({ kind: 'none' });
  });

  it('makes DOM-safe input ids from field names', () => {
    expect(fieldInputId('ship.to name')).toBe('field-ship_to_name');
  });
});
