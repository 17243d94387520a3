/**
 * Node-only: a TrueType file's family and style from its `name` table, reading only the table directory and
 * that table (a few KB of a file that may be 20 MB), so the fonts of a Windows or macOS machine can be listed
 * without loading them.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { normaliseStyle, type FontStyle } from '../layout/fonts';

export interface FontNames {
  family: string;
  style: FontStyle;
}

/** sfnt versions of a single TrueType-outline font: 1.0 and Apple's 'true'. */
const TRUETYPE = new Set([0x00010000, 0x74727565]);

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const n = readSync(fd, buf, 0, length, position);
  return buf.subarray(0, n);
}

/**
 * The typographic family and subfamily (name IDs 16/17, else 1/2), Windows Unicode records preferred; undefined
 * for what is not a single TrueType-outline font (collections, CFF .otf, anything unreadable).
 */
export function readFontNames(path: string): FontNames | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = readAt(fd, 0, 12);
    if (head.length < 12 || !TRUETYPE.has(head.readUInt32BE(0))) return undefined;
    const numTables = head.readUInt16BE(4);
    const dir = readAt(fd, 12, numTables * 16);
    let name: { offset: number; length: number } | undefined;
    let glyf = false;
    for (let i = 0; i + 16 <= dir.length; i += 16) {
      const tag = dir.toString('latin1', i, i + 4);
      if (tag === 'glyf') glyf = true;
      if (tag === 'name') name = { offset: dir.readUInt32BE(i + 8), length: dir.readUInt32BE(i + 12) };
    }
    if (!glyf || !name || name.length > 1 << 20) return undefined;
    const table = readAt(fd, name.offset, name.length);
    const count = table.readUInt16BE(2);
    const strings = table.readUInt16BE(4);
    const found = new Map<number, string>();
    for (let r = 0; r < count; r++) {
      const at = 6 + r * 12;
      if (at + 12 > table.length) break;
      const platform = table.readUInt16BE(at);
      const id = table.readUInt16BE(at + 6);
      const length = table.readUInt16BE(at + 8);
      const offset = strings + table.readUInt16BE(at + 10);
      if (![1, 2, 16, 17].includes(id) || offset + length > table.length) continue;
      // Windows (3) and Unicode (0) records are UTF-16BE; Mac Roman (1) read as Latin-1, kept only if nothing else.
      if (platform === 3 || platform === 0) {
        const bytes = Buffer.from(table.subarray(offset, offset + (length & ~1)));
        found.set(id, bytes.swap16().toString('utf16le'));
      } else if (platform === 1 && !found.has(id)) {
        found.set(id, table.toString('latin1', offset, offset + length));
      }
    }
    const family = found.get(16) ?? found.get(1);
    if (!family) return undefined;
    return { family, style: normaliseStyle(found.get(17) ?? found.get(2)) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
