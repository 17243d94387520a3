/**
 * Batches from CSV (pure): the file's header row names the columns; columns are matched to the template's
 * fields (by normalised name or label, explicit mapping wins); an optional column gives copies per row; every
 * row is checked with the template's field rules (src/resolve) before anything prints, and each problem is
 * reported with the row's line number in the file, the field and the problem. What to do with bad rows (fix the
 * file, skip them, or stop) is the caller's choice: `planBatch` only reports.
 *
 * Parsing: a UTF-8 BOM is dropped, the delimiter (`,` `;` tab `|`) is detected, quoted fields may hold line
 * breaks, empty lines (trailing or not) are ignored. Any malformed input ends in a BatchError or a row problem,
 * never in another exception (fuzzed in test/jobs/batch.test.ts).
 */
import { KindedError } from '../base/error-kind';
import Papa from 'papaparse';
import { checkApiData, LIMITS, ResolveError, type ApiData } from '../resolve/resolve';
import { checkValues } from '../resolve/values';
import type { Field, Template } from '../model/schema';

/** The CSV cannot become a batch at all (empty, no data rows, a mapping that names nothing). */
export class BatchError extends KindedError {
  override name = 'BatchError';
  get kind() {
    return 'batch-invalid' as const;
  }
}

/** Rows one batch may have (10× the 10,000-row target; more is surely a wrong file). */
export const MAX_BATCH_ROWS = 100_000;

export interface CsvRow {
  /** Line in the file where the row starts (the header is line 1). */
  line: number;
  /**
   * Which data record it is (1 = the first after the header). Differs from the line once a quoted value holds
   * a line break (addresses do): people count records, a text editor counts lines; reports give both.
   */
  record: number;
  values: string[];
  /** Parser complaint about this row (an unterminated quote), if any. */
  error?: string;
}

export interface CsvTable {
  headers: string[];
  rows: CsvRow[];
  delimiter: string;
  /** What `CsvRow.line` counts: a text file's lines, or a sheet's rows (src/jobs/workbook.ts). */
  lineWord?: 'line' | 'row';
}

/** Parses CSV text (see the module comment). Throws BatchError for an empty file or one without data rows. */
export function parseCsv(text: string): CsvTable {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const records: CsvRow[] = [];
  let delimiter = ',';
  let counted = 0;
  let line = 1;
  let previousCursor = 0;
  Papa.parse<string[]>(normalised, {
    skipEmptyLines: 'greedy',
    newline: '\n',
    step: (result) => {
      let start = previousCursor;
      while (normalised[start] === '\n') start++;
      for (let i = counted; i < start; i++) if (normalised[i] === '\n') line++;
      counted = start;
      previousCursor = result.meta.cursor;
      delimiter = result.meta.delimiter;
      const error = result.errors[0];
      records.push({
        line,
        record: records.length, // the header is records[0]
        values: result.data.map((v) => String(v)),
        ...(error ? { error: error.message } : {}),
      });
    },
  });
  const [header, ...rows] = records;
  if (!header) throw new BatchError('the CSV file is empty');
  if (rows.length === 0) throw new BatchError('the CSV file has a header row but no data rows');
  if (rows.length > MAX_BATCH_ROWS) {
    throw new BatchError(`the CSV file has ${rows.length} rows; a batch has at most ${MAX_BATCH_ROWS}`);
  }
  return { headers: header.values.map((h) => h.trim()), rows, delimiter };
}

/** `Ship-To Name`, `ship_to_name`, `shipToName` → `shiptoname`. */
export const normaliseName = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

export interface BatchOptions {
  /** CSV column → field name; overrides the automatic match. An empty field name: the column feeds nothing. */
  map?: Readonly<Record<string, string>>;
  /** The column with copies per row; default: a column named `copies` when there is one. */
  copiesColumn?: string;
}

export interface ColumnMapping {
  /** Field name → CSV column it reads. */
  fields: Record<string, string>;
  /** The copies column, if any. */
  copiesColumn: string | null;
  /** Columns that feed nothing (ignored). */
  unusedColumns: string[];
  /** Fields (not counters) no column feeds: they print their placeholder, or fail `required`. */
  unmappedFields: string[];
  /**
   * Required fields among them: no record can print until a column feeds them — one problem of the mapping,
   * not one per record.
   */
  missingRequired: string[];
}

/** Matches CSV columns to template fields. Throws BatchError when an explicit mapping names nothing. */
export function mapColumns(
  headers: readonly string[],
  template: Template,
  options: BatchOptions = {},
): ColumnMapping {
  const fillable = template.fields.filter((f) => f.type !== 'counter');
  const byName = new Map(template.fields.map((f) => [f.name, f]));
  const fields: Record<string, string> = {};
  const used = new Set<string>();

  let copiesColumn: string | null = null;
  if (options.copiesColumn !== undefined) {
    if (!headers.includes(options.copiesColumn)) {
      throw new BatchError(`copies column "${options.copiesColumn}" is not in the CSV header`);
    }
    copiesColumn = options.copiesColumn;
  }

  for (const [column, fieldName] of Object.entries(options.map ?? {})) {
    if (!headers.includes(column))
      throw new BatchError(`mapping ${column}=${fieldName}: no column "${column}"`);
    if (fieldName === '') {
      used.add(column); // the user said: this column feeds nothing
      continue;
    }
    const field = byName.get(fieldName);
    if (!field)
      throw new BatchError(`mapping ${column}=${fieldName}: the template has no field "${fieldName}"`);
    if (field.type === 'counter') {
      throw new BatchError(
        `mapping ${column}=${fieldName}: "${fieldName}" is a counter, numbered by the job`,
      );
    }
    fields[fieldName] = column;
    used.add(column);
  }
  const matches = (f: Field, column: string): boolean => {
    const n = normaliseName(column);
    return n !== '' && (n === normaliseName(f.name) || n === normaliseName(f.label));
  };
  for (const field of fillable) {
    if (fields[field.name] !== undefined) continue;
    const column =
      headers.find((h) => h === field.name && !used.has(h)) ??
      headers.find((h) => !used.has(h) && h !== copiesColumn && matches(field, h));
    if (column !== undefined) {
      fields[field.name] = column;
      used.add(column);
    }
  }
  if (copiesColumn === null && options.copiesColumn === undefined) {
    copiesColumn = headers.find((h) => !used.has(h) && normaliseName(h) === 'copies') ?? null;
  }
  if (copiesColumn !== null) used.add(copiesColumn);
  const fed = new Set([...Object.values(fields), ...(copiesColumn !== null ? [copiesColumn] : [])]);
  const unmapped = fillable.filter((f) => fields[f.name] === undefined);
  const mapping: ColumnMapping = {
    fields,
    copiesColumn,
    unusedColumns: headers.filter((h) => h !== '' && !fed.has(h)),
    unmappedFields: unmapped.map((f) => f.name),
    missingRequired: unmapped.filter((f) => f.required).map((f) => f.name),
  };
  return mapping;
}

/** One problem of one record: which record (and its line), the field (or column), and what is wrong. */
export interface RowProblem {
  record: number;
  /** Line in the file where the record starts. */
  line: number;
  /** A field name, the copies column, or null for the record as a whole (wrong number of values). */
  field: string | null;
  /** What people call it: the field's label, the column's name; null with `field`. */
  label: string | null;
  /** The value as read from the file (a field's or the copies cell), or null for the record as a whole. */
  value: string | null;
  problem: string;
}

export interface BatchRow {
  /** Which data record (1 = the first after the header). */
  record: number;
  /** Line in the file where it starts. */
  line: number;
  data: ApiData;
  copies: number;
}

export interface BatchPlan {
  templateName: string;
  mapping: ColumnMapping;
  /** Rows without problems, in file order. */
  rows: BatchRow[];
  /** Every problem of every bad row, in file order. */
  problems: RowProblem[];
  /** Record numbers of the bad records. */
  badRecords: number[];
  /** Labels the good rows make (copies included). */
  labelCount: number;
  /** Rows in the file (good and bad). */
  totalRows: number;
  /** The file's columns, in its order. */
  columns: string[];
  /** What a problem's `line` counts: the file's lines (CSV) or the sheet's rows (a workbook). */
  lineWord: 'line' | 'row';
}

/** Copies in a copies cell: a whole number from 1 to the resolve limit. */
function parseCopies(raw: string): number | string {
  const text = raw.trim();
  if (text === '') return 1;
  if (!/^\d+$/.test(text)) return `expected a whole number of copies, got "${raw}"`;
  const n = Number(text);
  if (n < 1 || n > LIMITS.maxAmount) return `copies must be from 1 to ${LIMITS.maxAmount}, got ${n}`;
  return n;
}

/**
 * Parses, maps and checks a batch for `template`: CSV text, or a table already read (a workbook's sheet).
 * Throws BatchError when the file cannot be a batch at all; bad rows are reported in `problems`, never thrown.
 * A required field no column feeds is `mapping.missingRequired`, not a problem of every record.
 */
export function planBatch(
  input: string | CsvTable,
  template: Template,
  options: BatchOptions = {},
): BatchPlan {
  const table = typeof input === 'string' ? parseCsv(input) : input;
  const mapping = mapColumns(table.headers, template, options);
  const columnIndex = new Map<string, number>();
  table.headers.forEach((h, i) => {
    if (!columnIndex.has(h)) columnIndex.set(h, i);
  });
  const rows: BatchRow[] = [];
  const problems: RowProblem[] = [];
  const badRecords: number[] = [];
  const labels = new Map(template.fields.map((f) => [f.name, f.label]));
  const missing = new Set(mapping.missingRequired);

  for (const record of table.rows) {
    const rowProblems: RowProblem[] = [];
    const data: Record<string, string> = {};
    const report = (field: string | null, problem: string, value?: string): void => {
      if (field !== null && missing.has(field)) return; // said once, at the mapping
      rowProblems.push({
        record: record.record,
        line: record.line,
        field,
        label: field === null ? null : (labels.get(field) ?? field),
        value: field === null ? null : (value ?? data[field] ?? ''),
        problem,
      });
    };
    if (record.error) report(null, record.error);
    if (record.values.length !== table.headers.length) {
      report(null, `has ${record.values.length} values; the header has ${table.headers.length} columns`);
    }
    for (const [field, column] of Object.entries(mapping.fields)) {
      const value = record.values[columnIndex.get(column) ?? -1];
      if (value !== undefined) data[field] = value;
    }
    try {
      checkApiData(data);
      for (const p of checkValues(template, data)) report(p.path.replace(/^apiData\./, ''), p.message);
    } catch (e) {
      if (!(e instanceof ResolveError)) throw e;
      report(e.field.replace(/^apiData\.?/, '') || null, e.message.replace(/^[^:]*: /, ''));
    }
    let copies = 1;
    if (mapping.copiesColumn !== null) {
      const cell = record.values[columnIndex.get(mapping.copiesColumn) ?? -1] ?? '';
      const parsed = parseCopies(cell);
      if (typeof parsed === 'string') report(mapping.copiesColumn, parsed, cell);
      else copies = parsed;
    }
    if (rowProblems.length) {
      problems.push(...rowProblems);
      badRecords.push(record.record);
    } else {
      rows.push({ record: record.record, line: record.line, data, copies });
    }
  }
  return {
    templateName: template.name,
    mapping,
    rows,
    problems,
    badRecords,
    labelCount: rows.reduce((n, r) => n + r.copies, 0),
    totalRows: table.rows.length,
    columns: [...new Set(table.headers.filter((h) => h !== ''))],
    lineWord: table.lineWord ?? 'line',
  };
}

/**
 * The report a person reads: one line per problem, `record 5 (line 6), EAN-13: EAN-13 check digit should be 1…`
 * — the record as people count them, the line for a text editor, the field by its label (once: a problem
 * that already starts with it, as a barcode value's does for the form, does not repeat it).
 */
export function formatRowProblems(
  problems: readonly RowProblem[],
  lineWord: 'line' | 'row' = 'line',
): string {
  return problems
    .map((p) => {
      const problem =
        p.label && p.problem.startsWith(`${p.label}: `) ? p.problem.slice(p.label.length + 2) : p.problem;
      return `record ${p.record} (${lineWord} ${p.line})${p.label ? `, ${p.label}` : ''}: ${problem}`;
    })
    .join('\n');
}
