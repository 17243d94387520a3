/**
 * CRC-16/XMODEM as Zebra printers check it after `:Z64:` data (reference/zpl.md): poly 0x1021, init 0x0000,
 * no reflection, no final xor. Check value: "123456789" -> 31C3.
 */

/** One entry per high byte: the register after shifting that byte through the polynomial. */
const TABLE: Uint16Array = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    table[byte] = crc & 0xffff;
  }
  return table;
})();

/** The CRC-16/XMODEM register value (0..0xFFFF) of some bytes. */
export function crc16XmodemValue(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) {
    crc = ((crc << 8) ^ (TABLE[((crc >> 8) ^ (bytes[i] ?? 0)) & 0xff] ?? 0)) & 0xffff;
  }
  return crc;
}

/**
 * CRC-16/XMODEM of ASCII text (each char code taken as one byte, which is exact for base64 text) or of bytes,
 * as exactly four UPPERCASE hex digits: the form Zebra printers accept after Z64 data (a five-digit or lowercase
 * CRC has made real printers reject the graphic).
 */
export function crc16Xmodem(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? asciiBytes(input) : input;
  return crc16XmodemValue(bytes).toString(16).toUpperCase().padStart(4, '0');
}

function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) throw new RangeError(`crc16Xmodem: non-ASCII character at ${i} (code ${code})`);
    bytes[i] = code;
  }
  return bytes;
}
