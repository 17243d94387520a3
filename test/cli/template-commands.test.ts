import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli';

const TRACKING = '1Z999AA10123456784';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('labeldesk markup', () => {
  it('prints one markup per copy; unknown and wrongly-cased keys change nothing but get a warning', async () => {
    const r = await cli([
      'markup',
      '--template',
      'shipping-4x6',
      '--data',
      JSON.stringify({ tracking: TRACKING, Tracking: 'x', nope: 'y' }),
      '--amount',
      '3',
    ]);
    expect(r.code).toBe(0);
    const markups = JSON.parse(r.stdout) as { elements: { id?: string; text?: string }[] }[];
    expect(markups).toHaveLength(3);
    for (const m of markups) {
      expect(m.elements.find((e) => e.id === 'tracking')?.text).toBe(TRACKING);
      expect(m.elements.find((e) => e.id === 'ship_to_name')?.text).toBe('RECIPIENT NAME');
    }
    const plain = await cli([
      'markup',
      '--template',
      'shipping-4x6',
      '--data',
      JSON.stringify({ tracking: TRACKING }),
      '--amount',
      '3',
    ]);
    expect(r.stdout).toBe(plain.stdout);
    expect(r.stderr).toContain(
      '"Tracking" matches no field of shipping-4x6 and is ignored (field names are case-sensitive: did you mean "tracking"?)',
    );
  });

  it('reads --data from a file and from standard input', async () => {
    const file = join(dir, 'data.json');
    writeFileSync(file, JSON.stringify({ sku: 'SKU-9' }));
    const fromFile = await cli(['markup', '--template', 'product-2x1', '--data', `@${file}`, '--compact']);
    const fromStdin = await cli(['markup', '--template', 'product-2x1', '--data', '@-', '--compact'], {
      stdin: '{"sku":"SKU-9"}',
    });
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toContain('"SKU-9"');
    expect(fromStdin.stdout).toBe(fromFile.stdout);
  });

  it('takes a template file as well as a name', async () => {
    const file = join(dir, 'mine.json');
    writeFileSync(
      file,
      JSON.stringify({
        schemaVersion: 1,
        name: 'mine',
        stage: { width: 1, height: 1, unit: 'in' },
        elements: [{ type: 'text', text: 'hi' }],
      }),
    );
    const r = await cli(['markup', '--template', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)[0].elements[0].text).toBe('hi');
  });

  it.each<[string, string[], number, RegExp]>([
    [
      'a template name in the wrong case',
      ['--template', 'Shipping-4x6'],
      1,
      /^labeldesk: template not found: "Shipping-4x6" \(names are case-sensitive\); did you mean "shipping-4x6"\?\n$/,
    ],
    [
      '--amount 0',
      ['--template', 'shipping-4x6', '--amount', '0'],
      1,
      /^labeldesk: amount: must be at least 1, got 0\n$/,
    ],
    [
      '--amount two',
      ['--template', 'shipping-4x6', '--amount', 'two'],
      1,
      /^labeldesk: --amount: expected a whole number of copies, got "two"\n$/,
    ],
    [
      'a non-string value',
      ['--template', 'shipping-4x6', '--data', '{"tracking":5}'],
      1,
      /^labeldesk: apiData\.tracking: expected a string, got a number \(all values are strings\)\n$/,
    ],
    ['bad JSON', ['--template', 'shipping-4x6', '--data', '{bad'], 1, /^labeldesk: --data: not valid JSON/],
    [
      'a missing data file',
      ['--template', 'shipping-4x6', '--data', '@nope.json'],
      1,
      /^labeldesk: --data @nope\.json: cannot read nope\.json: no such file\n$/,
    ],
    [
      'a missing template file',
      ['--template', './nope.json'],
      1,
      /nope\.json: 1 problem\ncannot read the file: no such file/,
    ],
    ['no --template', [], 2, /^labeldesk: --template NAME\|FILE is required\n$/],
    ['an unknown option', ['--templat', 'x'], 2, /^labeldesk: Unknown option '--templat'/],
  ])('fails clearly on %s, without a stack trace', async (_what, args, code, message) => {
    const r = await cli(['markup', ...args], { cwd: dir });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});

describe('labeldesk templates', () => {
  it('lists names, sizes and fields', async () => {
    const r = await cli(['templates']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^shipping-4x6\s+4x6 in\s+bundled\s+ship_to_name\*, ship_to_address\*, tracking\*, order_id, weight, service$/m,
    );
    expect(r.stdout).toMatch(/^packing-slip-a4\s+210x297 mm/m);
  });

  it('--json gives every template with its fields and whether it has RFID', async () => {
    const r = await cli(['templates', '--json']);
    const { templates } = JSON.parse(r.stdout) as {
      templates: { name: string; rfid: boolean; widthInches: number }[];
    };
    expect(templates.map((t) => t.name)).toContain('rfid-asset-4x2');
    expect(templates.find((t) => t.name === 'rfid-asset-4x2')?.rfid).toBe(true);
    expect(templates.find((t) => t.name === 'packing-slip-a4')?.widthInches).toBeCloseTo(8.27, 2);
  });
});

describe('labeldesk validate', () => {
  it('names three different mistakes with their paths and exits 1', async () => {
    const file = join(dir, 'three.json');
    writeFileSync(
      file,
      JSON.stringify({
        schemaVersion: 1,
        name: 'three',
        stage: { width: 4, height: 6, unit: 'inch' },
        fields: [{ name: 'sku', label: 'SKU', placeholder: '' }],
        elements: [
          { type: 'barcode', format: 'code12', text: '{sku}' },
          { type: 'text', text: '{SKU}' },
        ],
      }),
    );
    const r = await cli(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${file}: 3 problems`);
    expect(r.stdout).toContain('stage.unit: expected a unit: in, cm, mm or px');
    expect(r.stdout).toMatch(/elements\[0\]\.format: unknown barcode format "code12"/);
    expect(r.stdout).toContain('elements[1].text: refers to field "SKU", which is not declared in "fields"');
  });

  it('exits 0 for valid files', async () => {
    const r = await cli([
      'validate',
      'assets/templates/shipping-4x6.json',
      'assets/templates/product-2x1.json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'ok  assets/templates/shipping-4x6.json (shipping-4x6)\nok  assets/templates/product-2x1.json (product-2x1)\n',
    );
  });

  it('needs at least one file', async () => {
    expect((await cli(['validate'])).code).toBe(2);
  });
});

describe('the labeldesk binary', () => {
  it('runs from the bundle as `labeldesk` would after npm ci, with exit codes and no stack traces', () => {
    // The exact file package.json's `bin` names, rebuilt from the current sources.
    const out = (JSON.parse(readFileSync('package.json', 'utf8')) as { bin: { labeldesk: string } }).bin
      .labeldesk;
    execFileSync(process.execPath, ['scripts/build-cli.mjs', out]);
    const ok = spawnSync(
      process.execPath,
      [out, 'markup', '--template', 'shipping-4x6', '--data', `{"tracking":"${TRACKING}"}`],
      { encoding: 'utf8' },
    );
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)[0].elements.find((e: { id?: string }) => e.id === 'tracking').text).toBe(
      TRACKING,
    );
    const bad = spawnSync(process.execPath, [out, 'markup', '--template', 'shipping-4x6', '--amount', '0'], {
      encoding: 'utf8',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('labeldesk: amount: must be at least 1, got 0\n');
    const usage = spawnSync(process.execPath, [out, 'frobnicate'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
  });
});
