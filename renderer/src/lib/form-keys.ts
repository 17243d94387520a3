/**
 * Enter in the label form: a barcode scanner types the code and then Enter, so Enter moves to the next field
 * and, on the last one, prints. Multiline fields keep Enter for new lines (Ctrl+Enter leaves them).
 */
import type { Field } from '../../../src/model/schema';

export type EnterAction = { kind: 'focus'; field: string } | { kind: 'print' } | { kind: 'none' };

/** Fields a person types into, in form order (counters are assigned by main). */
export function editableFields(fields: readonly Field[]): Field[] {
  return fields.filter((f) => f.type !== 'counter');
}

export function enterAction(
  fields: readonly Field[],
  current: string,
  key: { ctrlKey?: boolean; metaKey?: boolean; shiftKey?: boolean; altKey?: boolean; isComposing?: boolean },
): EnterAction {
  if (key.isComposing || key.altKey) return { kind: 'none' };
  const editable = editableFields(fields);
  const index = editable.findIndex((f) => f.name === current);
  if (index < 0) return { kind: 'none' };
  const field = editable[index]!;
  if (field.type === 'multiline' && !(key.ctrlKey || key.metaKey)) return { kind: 'none' };
  if (key.shiftKey) return { kind: 'none' };
  const next = editable[index + 1];
  return next ? { kind: 'focus', field: next.name } : { kind: 'print' };
}

/** The DOM id of a field's input (stable: tests and labels use it). */
export const fieldInputId = (name: string): string => `field-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
