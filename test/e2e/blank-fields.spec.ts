/**
 * Issue #17 item 7: an empty optional field printed its sample text ("ORDER: ORDER-00000", "WEIGHT: 0.0 kg").
 * The bundled templates now print nothing for a blank optional field (and hide "WEIGHT:  kg" with it); a
 * template whose placeholder does print says so at the field, before anything is printed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';

const withPlaceholder = {
  schemaVersion: 1,
  name: 'crate-2x1',
  title: 'Crate label',
  stage: { width: 2, height: 1, unit: 'in' },
  fields: [
    { name: 'crate', label: 'Crate', placeholder: 'CRATE', required: true },
    { name: 'zone', label: 'Zone', placeholder: 'ZONE A' },
  ],
  elements: [{ type: 'text', x: 8, y: 8, width: 170, height: 80, text: '{crate} {zone}' }],
};

test('a blank optional field that prints a placeholder says what it prints; one that prints nothing says nothing', async ({
  page,
  app,
}) => {
  mkdirSync(join(app.dataDir, 'templates'), { recursive: true });
  writeFileSync(join(app.dataDir, 'templates', 'crate-2x1.json'), JSON.stringify(withPlaceholder));
  await page.reload();
  await page
    .getByRole('listbox', { name: 'Template' })
    .getByRole('option', { name: /Crate label/ })
    .click();
  const zone = page.getByRole('textbox', { name: 'Zone' });
  await expect(zone).toHaveAccessibleDescription(/Left empty, this prints “ZONE A”/);
  await zone.fill('B7');
  await expect(page.getByText('Left empty, this prints')).toHaveCount(0);

  await page
    .getByRole('listbox', { name: 'Template' })
    .getByRole('option', { name: /shipping-4x6/ })
    .click();
  await expect(page.getByRole('textbox', { name: /Order/ })).toHaveAccessibleDescription(
    /e\.g\. ORDER-00000/,
  );
  await expect(page.getByText('Left empty, this prints')).toHaveCount(0);
});
