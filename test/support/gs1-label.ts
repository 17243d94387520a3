/**
 * Test support: a 4×3 in logistics label whose GS1 symbols take their data from the form — the SSCC alone in a
 * GS1-128 (`(00){sscc}`), the rest of the pallet's element string as typed (`{contents}`) in a second GS1-128.
 */
import { parseTemplate } from '../../src/model/parse';
import type { Template } from '../../src/model/schema';

export const PALLET_GS1_RAW = {
  schemaVersion: 1,
  name: 'pallet-gs1',
  title: 'Pallet label (GS1)',
  stage: { width: 4, height: 3, unit: 'in' },
  fields: [
    { name: 'sscc', label: 'SSCC', placeholder: '35012345123456789' },
    { name: 'contents', label: 'Contents', placeholder: '(02)05012345678900(37)12' },
  ],
  elements: [
    {
      type: 'barcode',
      format: 'gs1-128',
      x: 10,
      y: 10,
      width: 364,
      height: 110,
      text: '(00){sscc}',
      humanReadable: true,
      id: 'sscc',
    },
    {
      type: 'barcode',
      format: 'gs1-128',
      x: 10,
      y: 150,
      width: 364,
      height: 110,
      text: '{contents}',
      humanReadable: true,
      id: 'contents',
    },
  ],
} as const;

export function palletGs1Template(): Template {
  return parseTemplate(structuredClone(PALLET_GS1_RAW));
}
