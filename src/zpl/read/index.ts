/** The ZPL reader (issue #33): a ZPL stream → labels as Scenes, with warnings and budgets. docs/zpl.md. */
export { DEFAULT_ZPL_BUDGETS, type ZplBudgets } from './budgets';
export { ZplBudgetError, warningText, type ZplBudgetName, type ZplWarning } from './errors';
export { parseZpl, type ParsedZpl, type ZplCommand, type ZplFormat } from './parse';
export { readZpl, type ReadZplOptions, type ReadZplResult, type ZplLabel } from './interpret';
