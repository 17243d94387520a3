/** Check digit arithmetic for the GS1 family (EAN, UPC, ITF-14, GS1 keys), ISBN-10 and ISSN. */

/**
 * GS1 mod-10 check digit of `digits` (the data without its check digit): weights 3 and 1 alternating from the
 * right. Used by EAN-13/8, UPC-A, ITF-14 and GS1 keys such as GTIN (AI 01) and SSCC (AI 00).
 */
export function gs1CheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * Mod-11 check character with weights n+1 .. 2 from the left (ISBN-10 over 9 digits, ISSN over 7 digits):
 * `0`–`9`, or `X` for ten.
 */
export function mod11CheckChar(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (digits.charCodeAt(i) - 48) * (digits.length + 1 - i);
  const c = (11 - (sum % 11)) % 11;
  return c === 10 ? 'X' : String(c);
}
