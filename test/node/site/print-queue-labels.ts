/**
 * Test support for the print queue tests: a label whose every copy is different and says which it is — a
 * counter field (numbered by the site database per copy) printed as the RFID tag's EPC, `^RFW,H^FD<24 digits>`.
 */

/** A 1 × 0.5 in tag whose counter number is its EPC: every label different, its number readable in the ZPL. */
export const SERIAL_TAG = {
  schemaVersion: 1,
  name: 'serial-tag',
  stage: { width: 1, height: 0.5, unit: 'in' },
  fields: [
    {
      name: 'serial',
      label: 'Serial',
      placeholder: '000000000000000000000000',
      type: 'counter',
      counter: { start: 1, step: 1, width: 24, prefix: '', suffix: '' },
    },
  ],
  elements: [
    { type: 'text', x: 4, y: 4, width: 88, height: 20, text: '{serial}' },
    { type: 'rfid', epc: '{serial}', bank: 'epc', bits: 96, lock: 'none', id: 'epc' },
  ],
};

/** The counter number of each format received, in order (-1 for a format without one). */
export function serialsOf(formats: readonly { zpl: string }[]): number[] {
  return formats.map((j) => Number(/\^RFW,H\^FD(\d{24})\^FS/.exec(j.zpl)?.[1] ?? -1));
}
