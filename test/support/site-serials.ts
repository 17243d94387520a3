/**
 * Test support for the site server's app and e2e tests (issue #24): the site template `site-serials`, a label
 * whose Code 128 carries its serial (SN-000001, …), so a scan of the printed dots reads it back. With `note`
 * (the default) it also has a free text field printed under the barcode; `title` (the default) gives it one.
 */
export const SITE_SERIALS = 'site-serials';

export function siteSerialsTemplate(
  options: { title?: boolean; note?: boolean } = {},
): Record<string, unknown> {
  const { title = true, note = true } = options;
  return {
    schemaVersion: 1,
    name: SITE_SERIALS,
    ...(title ? { title: 'Site serials' } : {}),
    stage: { width: 3, height: 1.5, unit: 'in' },
    fields: [
      {
        name: 'serial',
        label: 'Serial',
        placeholder: 'SN-??????',
        type: 'counter',
        counter: { start: 1, width: 6, prefix: 'SN-' },
      },
      ...(note ? [{ name: 'note', label: 'Note', placeholder: '' }] : []),
    ],
    elements: [
      { type: 'barcode', x: 10, y: 10, width: 260, height: 80, format: 'code128', text: '{serial}' },
      ...(note
        ? [
            {
              type: 'text',
              x: 10,
              y: 100,
              width: 260,
              height: 20,
              text: '{note}',
              font: { size: 10, family: 'Arial' },
            },
          ]
        : []),
    ],
  };
}
