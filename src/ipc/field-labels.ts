/**
 * What people call the fields of IPC requests (#42 item 13): a request main refuses is told to the user with the
 * field's label ("Site URL: use https://…"), never the channel or the property path (`settings.update: siteUrl`),
 * which stay in main's log. A property not listed here is named by its words ("confirmCopiesAbove" → "Confirm
 * copies above").
 */

const LABELS: Readonly<Record<string, string>> = {
  apiBaseUrl: 'Base URL',
  apiKey: 'API key',
  apiSecret: 'API secret',
  secretForSessionOnly: 'Keep the secret for this session only',
  siteUrl: 'Site URL',
  siteKey: 'Site key id',
  siteSecret: 'Site key secret',
  siteSecretForSessionOnly: 'Keep the site secret for this session only',
  mode: 'When printing',
  defaultPrinter: 'Default printer',
  lastPrinter: 'Printer',
  printer: 'Printer',
  confirmCopiesAbove: 'Ask before printing more copies than',
  keepCopiesAfterPrint: 'Keep the copies after a print',
  pinnedTemplates: 'Pinned templates',
  copies: 'Copies',
  uri: 'Address (URI)',
  dpi: 'Resolution (dpi)',
  darkness: 'Darkness',
  csv: 'CSV file',
  mapping: 'Column mapping',
  copiesColumn: 'Copies column',
  fileName: 'File name',
  ref: 'Template',
  template: 'Template',
  name: 'Name',
  text: 'Find',
  values: 'Field values',
  labels: 'Labels',
};

/** A request path (`siteUrl`, `typed.apiBaseUrl`, `values.sku`, `labels[2]`) → the label people see. */
export function requestFieldLabel(path: string): string {
  const keys = path.split('.').map((k) => k.replace(/\[\d+\]$/, ''));
  // A form value (`values.sku`) is the field's own name, which the form shows.
  if (keys[0] === 'values' && keys[1]) return keys[1];
  for (let i = keys.length - 1; i >= 0; i--) {
    const label = LABELS[keys[i]!];
    if (label) return label;
  }
  const last = keys[keys.length - 1] ?? '';
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'The request';
}
