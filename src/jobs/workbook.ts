/**
 * Batches from workbooks (pure): an `.xlsx` or `.ods` file's first sheet (or a chosen one) becomes the same table
 * a CSV file does — its first row with a value names the columns, each later row with a value is a record, and
 * each cell is the text the spreadsheet shows (a date formatted dd/mm/yyyy arrives as 23/11/2026, a number
 * formatted 0000000 as 0012345, text keeps its leading zeros). A whole number the General format would show
 * as 5.90123E+12 is its digits (what the formula bar shows): an EAN typed as a number prints as the EAN.
 *
 * Budgets come first (WORKBOOK_LIMITS): the file's size, the zip's files and what they inflate to — measured by
 * inflating each one here with a running count, so a small file that inflates hugely is refused after at most
 * the budget, whatever sizes the zip declares — then sheets, rows, columns and cell length. The spreadsheet
 * library (SheetJS) reads a copy of the zip with the inflated files stored, so it never inflates anything
 * itself. A damaged, password-protected or old-format (.xls) file is a BatchError naming the file and the
 * problem, never another exception.
 */
import * as XLSX from '@e965/xlsx';
import { Inflate, zipSync } from 'fflate';
import { BatchError, MAX_BATCH_ROWS, type CsvRow, type CsvTable } from './batch';
import { formatMegabytes, WORKBOOK_LIMITS } from './workbook-limits';

export interface SheetTable extends CsvTable {
  /** The sheet read. */
  sheet: string;
  /** Every sheet of the workbook, in its order. */
  sheets: string[];
}

/** A sheet by name, or by its position (1 = the first). */
export type SheetChoice = string | number;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (bytes: Uint8Array, magic: readonly number[]): boolean =>
  bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

/** Whether the bytes are a workbook container (a zip, or an OLE file: an old .xls or an encrypted .xlsx). */
export function isWorkbookBytes(bytes: Uint8Array): boolean {
  return startsWith(bytes, ZIP_MAGIC) || startsWith(bytes, OLE_MAGIC);
}

/** UTF-16LE text inside an OLE file's directory (the stream names). */
function containsUtf16(bytes: Uint8Array, text: string): boolean {
  const needle = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) needle[i * 2] = text.charCodeAt(i);
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

interface ZipEntry {
  name: string;
  method: number;
  data: Uint8Array;
  inflatedSize: number;
}

const u16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number): number => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;

/** The zip's files, as its central directory lists them (what SheetJS reads), each with its local data. */
function zipEntries(bytes: Uint8Array, file: string): ZipEntry[] {
  const damaged = (why: string) => new BatchError(`${file}: the workbook is damaged (${why})`);
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (u32(bytes, at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw damaged('no zip directory');
  const count = u16(bytes, eocd + 10);
  const directory = u32(bytes, eocd + 16);
  if (count === 0xffff || directory === 0xffffffff) {
    throw new BatchError(`${file}: the workbook is a ZIP64 file, larger than a batch can read`);
  }
  if (count > WORKBOOK_LIMITS.maxEntries) {
    throw new BatchError(
      `${file}: the workbook holds ${count} files; a batch reads at most ${WORKBOOK_LIMITS.maxEntries}`,
    );
  }
  const entries: ZipEntry[] = [];
  let at = directory;
  for (let i = 0; i < count; i++) {
    if (u32(bytes, at) !== 0x02014b50) throw damaged('a zip directory entry is missing');
    const flags = u16(bytes, at + 8);
    const method = u16(bytes, at + 10);
    const compressed = u32(bytes, at + 20);
    const declared = u32(bytes, at + 24);
    const nameLength = u16(bytes, at + 28);
    const local = u32(bytes, at + 42);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
    if (flags & 0x41) {
      throw new BatchError(
        `${file}: the workbook is password-protected; save a copy without a password and choose that`,
      );
    }
    if (u32(bytes, local) !== 0x04034b50) throw damaged(`no data for ${name}`);
    const start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
    if (start + compressed > bytes.length) throw damaged(`${name} is cut short`);
    if (method !== 0 && method !== 8) throw damaged(`${name} uses compression method ${method}`);
    entries.push({ name, method, data: bytes.subarray(start, start + compressed), inflatedSize: declared });
  }
  return entries;
}

/** Compressed bytes pushed at a time: one push inflates to at most ~1032 times this. */
const INFLATE_STEP = 4096;

/** Inflates one file, counting as it goes; throws once the running total passes `budget`. */
function inflateCounted(entry: ZipEntry, budget: number, onOver: () => never, file: string): Uint8Array {
  if (entry.method === 0) {
    if (entry.data.length > budget) onOver();
    return entry.data;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const inflate = new Inflate((chunk, final) => {
    size += chunk.length;
    if (size > budget) onOver();
    chunks.push(chunk.slice());
    if (final) ended = true;
  });
  try {
    for (let at = 0; at < entry.data.length || at === 0; at += INFLATE_STEP) {
      const last = at + INFLATE_STEP >= entry.data.length;
      inflate.push(entry.data.subarray(at, at + INFLATE_STEP), last);
      if (last) break;
    }
  } catch (e) {
    if (e instanceof BatchError) throw e;
    throw new BatchError(`${file}: the workbook is damaged (${entry.name} does not inflate)`);
  }
  if (!ended) throw new BatchError(`${file}: the workbook is damaged (${entry.name} is cut short)`);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** The zip again, each file inflated within the budget and stored: what SheetJS reads. */
function boundedZip(bytes: Uint8Array, file: string): Uint8Array {
  const entries = zipEntries(bytes, file);
  const files: Record<string, Uint8Array> = {};
  let total = 0;
  const onOver = (): never => {
    throw new BatchError(
      `${file}: the workbook inflates to more than ${formatMegabytes(WORKBOOK_LIMITS.maxInflatedBytes)}; a batch reads at most that (is it a zip bomb?)`,
    );
  };
  for (const entry of entries) {
    const data = inflateCounted(entry, WORKBOOK_LIMITS.maxInflatedBytes - total, onOver, file);
    total += data.length;
    if (!entry.name.endsWith('/')) files[entry.name] = data;
  }
  return zipSync(files, { level: 0 });
}

/** `A`, `B`, … `Z`, `AA` for a 0-based column. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

const isGeneral = (format: unknown): boolean => format === undefined || format === 'General';

/** What the cell shows, or an error cell's problem. */
function cellText(cell: XLSX.CellObject | undefined): { text: string; error?: string } {
  if (!cell || cell.t === 'z') return { text: '' };
  if (cell.t === 'e') return { text: '', error: `shows the error ${cell.w ?? '#ERROR'}` };
  // A whole number General would show as 5.90123E+12 (an EAN typed as a number): its digits, as the formula
  // bar shows them.
  if (
    cell.t === 'n' &&
    isGeneral(cell.z) &&
    Number.isSafeInteger(cell.v) &&
    (cell.w === undefined || /E[+-]?\d+$/i.test(cell.w))
  ) {
    return { text: String(cell.v) };
  }
  if (cell.w !== undefined) return { text: cell.w };
  return { text: cell.v === undefined || cell.v === null ? '' : String(cell.v as string | number) };
}

function sheetName(names: readonly string[], choice: SheetChoice | undefined, file: string): string {
  const list = () => names.map((n) => `"${n}"`).join(', ');
  if (choice === undefined || choice === '') {
    const first = names[0];
    if (first === undefined) throw new BatchError(`${file}: the workbook has no sheets`);
    return first;
  }
  if (typeof choice === 'string' && names.includes(choice)) return choice;
  const n = typeof choice === 'number' ? choice : /^\d+$/.test(choice) ? Number(choice) : NaN;
  const byNumber = Number.isInteger(n) ? names[n - 1] : undefined;
  if (byNumber !== undefined) return byNumber;
  throw new BatchError(
    `${file}: the workbook has no sheet ${typeof choice === 'number' ? choice : `"${choice}"`}; its sheets are ${list()}`,
  );
}

function readWith(bytes: Uint8Array, options: XLSX.ParsingOptions, file: string): XLSX.WorkBook {
  try {
    return XLSX.read(bytes, { type: 'array', ...options });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new BatchError(
      `${file}: the workbook cannot be read (${message.replace(/\s+/g, ' ').slice(0, 200)})`,
    );
  }
}

/**
 * Reads a workbook's sheet as a batch table (see the module comment). `file` names the file in messages.
 * Throws BatchError for anything that cannot be a batch; a bad cell is its record's `error`.
 */
export function readWorkbook(bytes: Uint8Array, file: string, choice?: SheetChoice): SheetTable {
  if (bytes.length > WORKBOOK_LIMITS.maxBytes) {
    throw new BatchError(
      `${file} is ${formatMegabytes(bytes.length)}; a workbook for a batch is at most ${formatMegabytes(WORKBOOK_LIMITS.maxBytes)}`,
    );
  }
  if (startsWith(bytes, OLE_MAGIC)) {
    throw new BatchError(
      containsUtf16(bytes, 'EncryptedPackage')
        ? `${file}: the workbook is password-protected; save a copy without a password and choose that`
        : `${file} is an Excel 97–2003 workbook (.xls); save it as .xlsx (or CSV) and choose that`,
    );
  }
  if (!startsWith(bytes, ZIP_MAGIC)) {
    throw new BatchError(`${file} is not an .xlsx or .ods workbook`);
  }
  const zip = boundedZip(bytes, file);
  const names = readWith(zip, { bookSheets: true }, file).SheetNames;
  if (names.length > WORKBOOK_LIMITS.maxSheets) {
    throw new BatchError(
      `${file}: the workbook has ${names.length} sheets; a batch reads workbooks of at most ${WORKBOOK_LIMITS.maxSheets}`,
    );
  }
  const sheet = sheetName(names, choice, file);
  const rowLimit = MAX_BATCH_ROWS + 1_000;
  const book = readWith(
    zip,
    { dense: true, cellText: true, cellNF: true, cellDates: false, sheets: sheet, sheetRows: rowLimit },
    file,
  );
  const ws = book.Sheets[sheet];
  if (!ws) throw new BatchError(`${file}: the sheet "${sheet}" cannot be read`);
  const full = ws['!fullref'] ?? ws['!ref'];
  if (full && XLSX.utils.decode_range(full).e.r + 1 > rowLimit) {
    throw new BatchError(
      `${file}, sheet "${sheet}": the sheet has ${XLSX.utils.decode_range(full).e.r + 1} rows; a batch has at most ${MAX_BATCH_ROWS}`,
    );
  }
  return sheetTable((ws['!data'] ?? []) as (XLSX.CellObject[] | undefined)[], file, sheet, names);
}

function sheetTable(
  data: readonly (readonly (XLSX.CellObject | undefined)[] | undefined)[],
  file: string,
  sheet: string,
  sheets: string[],
): SheetTable {
  const where = `${file}, sheet "${sheet}"`;
  let header: string[] | null = null;
  const rows: CsvRow[] = [];
  for (let r = 0; r < data.length; r++) {
    const cells = data[r] ?? [];
    if (
      cells.length > WORKBOOK_LIMITS.maxColumns &&
      cells.slice(WORKBOOK_LIMITS.maxColumns).some((c) => cellText(c).text !== '')
    ) {
      throw new BatchError(
        `${where}: row ${r + 1} has values beyond column ${columnName(WORKBOOK_LIMITS.maxColumns - 1)}; a batch reads at most ${WORKBOOK_LIMITS.maxColumns} columns`,
      );
    }
    const read = Array.from({ length: cells.length }, (_, c) => cellText(cells[c]));
    if (read.every((x) => x.text === '' && !x.error)) continue; // an empty row, as in a CSV file
    if (header === null) {
      let width = read.length;
      while (width > 0 && read[width - 1]!.text.trim() === '') width--;
      header = read.slice(0, width).map((x) => x.text.trim());
      continue;
    }
    const width = header.length;
    const errors: string[] = [];
    read.forEach((x, c) => {
      const cell = `cell ${columnName(c)}${r + 1}`;
      if (x.error) errors.push(`${cell} ${x.error}`);
      else if (c >= width && x.text !== '') errors.push(`${cell} has a value, but its column has no header`);
      else if (x.text.length > WORKBOOK_LIMITS.maxCellLength) {
        errors.push(
          `${cell} holds ${x.text.length} characters; a cell holds at most ${WORKBOOK_LIMITS.maxCellLength}`,
        );
      }
    });
    const values = Array.from({ length: width }, (_, c) =>
      (read[c]?.text.length ?? 0) > WORKBOOK_LIMITS.maxCellLength ? '' : (read[c]?.text ?? ''),
    );
    rows.push({
      line: r + 1,
      record: rows.length + 1,
      values,
      ...(errors.length ? { error: errors.join('; ') } : {}),
    });
    if (rows.length > MAX_BATCH_ROWS) {
      throw new BatchError(
        `${where}: the sheet has more than ${MAX_BATCH_ROWS} rows; a batch has at most ${MAX_BATCH_ROWS}`,
      );
    }
  }
  if (header === null) throw new BatchError(`${where}: the sheet is empty`);
  if (rows.length === 0) throw new BatchError(`${where}: the sheet has a header row but no data rows`);
  return { headers: header, rows, delimiter: '', lineWord: 'row', sheet, sheets };
}
