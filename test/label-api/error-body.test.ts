/**
 * Pinned decisions: which 422 bodies mean "template not found" (spec §7 rule 4), which mean an RFID refusal,
 * and which stay validation errors — for the shapes services commonly send.
 */
import { describe, expect, it } from 'vitest';
import { isRfidRefusal, isUnknownTemplate, readErrorBody } from '../../src/label-api/error-body';

const classify = (body: unknown, name = 'shipping-4x6') => {
  const b = readErrorBody(typeof body === 'string' ? body : JSON.stringify(body));
  return isRfidRefusal(b) ? 'rfid' : isUnknownTemplate(b, name) ? 'not-found' : 'validation';
};

describe('422 classification', () => {
  it.each([
    [{ message: 'Template not found' }, 'not-found'],
    [
      { message: 'template not found: "shipping-4x6" (names are case-sensitive)', field: 'label_name' },
      'not-found',
    ],
    [
      {
        message: 'The selected label name is invalid.',
        errors: { label_name: ['The selected label name is invalid.'] },
      },
      'not-found',
    ],
    [{ message: 'Label "shipping-4x6" does not exist' }, 'not-found'],
    [{ error: 'Unknown label_name' }, 'not-found'],
    [{ detail: [{ loc: ['body', 'label_name'], msg: 'no template named shipping-4x6' }] }, 'not-found'],
    [{ errors: [{ field: 'label_name', message: 'could not find the template' }] }, 'not-found'],
    [{ message: 'No such label: shipping-4x6' }, 'not-found'],
    [{ message: 'The label_name field is required.' }, 'validation'],
    [{ message: 'label_name must be a string', field: 'label_name' }, 'validation'],
    [{ message: 'label_name: must not be empty', field: 'label_name' }, 'validation'],
    [{ message: 'amount: must be at least 1, got 0', field: 'amount' }, 'validation'],
    [{ message: 'Unknown field in apiData' }, 'validation'],
    [{ message: 'RFID labels must be rendered as ZPL because PDF cannot encode RFID tags' }, 'rfid'],
    [
      { message: 'The template contains an RFID element and cannot be printed as PDF', field: 'label_name' },
      'rfid',
    ],
    ['not json at all', 'validation'],
  ])('%j → %s', (body, kind) => {
    expect(classify(body)).toBe(kind);
  });

  it('reads message and field from the common shapes', () => {
    expect(readErrorBody('{"message":"m","field":"dpi"}')).toMatchObject({ message: 'm', field: 'dpi' });
    expect(
      readErrorBody('{"message":"The given data was invalid.","errors":{"amount":["too small"]}}'),
    ).toMatchObject({ message: 'The given data was invalid.', field: 'amount' });
    expect(readErrorBody('{"error":{"message":"x","field":"printer_id"}}')).toMatchObject({
      message: 'x',
      field: 'printer_id',
    });
    expect(readErrorBody('{"message":"apiData.sku: expected a string"}')).toMatchObject({
      field: 'apiData.sku',
    });
    expect(readErrorBody('{"message":"dpi and max_width_dots disagree"}').field).toBeUndefined();
    expect(readErrorBody('<html>')).toEqual({ message: '', field: undefined, allText: '' });
  });
});
