/**
 * What a workbook (.xlsx, .ods) for a batch may be, checked before any work: the app checks the file's size
 * before reading it, main and the CLI check the bytes again and the rest while reading (src/jobs/workbook.ts).
 * Kept apart from the reader so the renderer can check sizes without loading the spreadsheet library.
 */
export const WORKBOOK_LIMITS = {
  /** The file itself. */
  maxBytes: 20 * 1024 * 1024,
  /** Files inside the zip. */
  maxEntries: 2_000,
  /** All of the zip's files, inflated (a small file that inflates hugely is refused). */
  maxInflatedBytes: 120 * 1024 * 1024,
  /** Sheets in the workbook. */
  maxSheets: 500,
  /** Columns with a value. */
  maxColumns: 1_000,
  /** Characters in one cell (Excel's own limit). */
  maxCellLength: 32_767,
} as const;

/** `.xlsx` and `.ods` by name (the content decides in the end). */
export const WORKBOOK_EXTENSIONS = ['.xlsx', '.xlsm', '.ods'] as const;

export function looksLikeWorkbookName(name: string): boolean {
  const lower = name.toLowerCase();
  return WORKBOOK_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** `20 MB`. */
export function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
