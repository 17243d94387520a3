import { describe, expect, it } from 'vitest';
import { zplFieldTexts } from '../../src/zpl/field-texts';

describe('zplFieldTexts', () => {
  it('the first different field texts, in order, without empty ones or comments', () => {
    const zpl =
      '^XA^FXShip to^FS^FO10,10^A0N,30,30^FD  Ada   Lovelace ^FS^FO10,50^FD^FS' +
      '^FO10,90^BCN^FD1Z999AA10123456784^FS^FO10,200^FD1Z999AA10123456784^FS^FO1,1^FDLondon^FS^XZ';
    expect(zplFieldTexts(zpl, 2)).toEqual(['Ada Lovelace', '1Z999AA10123456784']);
    expect(zplFieldTexts(zpl, 5)).toEqual(['Ada Lovelace', '1Z999AA10123456784', 'London']);
    expect(zplFieldTexts('^XA^GB10,10,1^FS^XZ', 2)).toEqual([]);
    expect(zplFieldTexts(`^XA^FD${'x'.repeat(500)}^FS^XZ`, 1)[0]).toHaveLength(80);
  });
});
