/**
 * What one ZPL stream may ask of us (issue #33 item 6). Every count, size and dimension a stream declares is
 * checked against these BEFORE the work it asks for: a `^GF` declaring gigabytes is refused before a byte is
 * allocated, a `^PQ 99999999` is clamped before anything is counted. What would make the whole stream
 * unreadable (too large, too many labels, too many commands) is a ZplBudgetError; what concerns one command is a
 * warning naming it and its byte offset, and the command is clamped or skipped.
 */
export interface ZplBudgets {
  /** Bytes of ZPL in one stream (a carrier label is 2–200 KB; a stream of 200 labels a few MB). */
  maxInputBytes: number;
  /** Formats (`^XA…^XZ`) in one stream. */
  maxLabels: number;
  /** Commands in one format, after `^XF` recalls are expanded. */
  maxCommandsPerLabel: number;
  /** Uncompressed bytes one graphic (`^GF`, `~DG`, `~DY`) may declare. */
  maxGraphicBytes: number;
  /** Uncompressed graphic bytes held in one stream's printer memory (`~DG`, `~DY`, `^IS`) at once. */
  maxMemoryBytes: number;
  /** Copies one `^PQ` may ask for. */
  maxCopies: number;
  /** Largest label side in inches (`^PW`, `^LL`): checked as dots at the stream's dpi. */
  maxLabelInches: number;
  /** Lines of one `^FB` / `^TB` block. */
  maxBlockLines: number;
  /** Depth of `^XF` recalls inside recalled formats. */
  maxRecallDepth: number;
  /** Characters of one field's data. */
  maxFieldChars: number;
  /** Copies of a serialised label (^SN, ^SF) drawn one by one, each with its own values. */
  maxSerialCopies: number;
}

export const DEFAULT_ZPL_BUDGETS: ZplBudgets = {
  maxInputBytes: 32 * 1024 * 1024,
  maxLabels: 5_000,
  maxCommandsPerLabel: 20_000,
  maxGraphicBytes: 4 * 1024 * 1024,
  maxMemoryBytes: 32 * 1024 * 1024,
  maxCopies: 10_000,
  maxLabelInches: 40,
  maxBlockLines: 200,
  maxRecallDepth: 4,
  maxFieldChars: 8_000,
  maxSerialCopies: 1_000,
};
