/** `labeldesk capture` against a fake hosted service: the template file, the notes, and offline use after. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFieldList } from '../../src/cli/capture-command';
import { parseTemplateText } from '../../src/model/parse';
import { cli } from '../support/cli';
import { closedPortUrl, json, startServer, type TestServer } from './support/http-server';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const { apiData } = JSON.parse(req.body) as { apiData: Record<string, string> };
    json(res, 200, [
      {
        stage: { width: 2, height: 1, unit: 'in', background: '#ffffff' },
        elements: [
          { type: 'text', x: 4, y: 4, width: 180, height: 20, text: `Item: ${apiData.item ?? 'ITEM'}` },
          { type: 'text', x: 4, y: 30, width: 180, height: 20, text: (apiData.code ?? 'CODE').toUpperCase() },
        ],
      },
    ]);
  });
  dir = mkdtempSync(join(tmpdir(), 'ld-capture-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('labeldesk capture', () => {
  it('writes a valid template, lists the notes, and the result renders offline from the captured folder', async () => {
    const env = {
      LABELDESK_API_URL: server.url,
      LABELDESK_API_KEY: 'k',
      LABELDESK_API_SECRET: 'secret-abc',
      LABELDESK_DATA_DIR: dir,
    };
    const out = join(dir, 'captured', 'Shelf.json');
    const r = await cli(['capture', '--template', 'Shelf', '--fields', 'item,code,unused', '--out', out], {
      env,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const template = parseTemplateText(readFileSync(out, 'utf8'));
    expect(template.elements.map((e) => ('text' in e ? e.text : ''))).toEqual(['Item: {item}', '{code}']);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /^note: elements\[1\]\.text: the template transforms the value of "code" \(upper-cased\)/,
    );
    expect(lines).toContainEqual(expect.stringMatching(/^note: "unused" appears nowhere in the label/));
    expect(lines.at(-1)).toBe(`captured "Shelf": 2 elements, 3 fields, 3 notes → ${out}`);

    const offline = await cli(['markup', '--template', 'Shelf', '--data', '{"item":"bolts"}'], {
      env: { ...env, LABELDESK_API_URL: await closedPortUrl() },
    });
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout)[0].elements[0].text).toBe('Item: bolts');
  });

  it('--out that cannot be written: one sentence, and no temporary file is left (#20)', async () => {
    const folder = join(dir, 'taken');
    const out = join(folder, 'Shelf.json');
    mkdirSync(join(out, 'inside'), { recursive: true });
    const r = await cli(['capture', '--template', 'Shelf', '--fields', 'item,code', '--out', out], {
      env: {
        LABELDESK_API_URL: server.url,
        LABELDESK_API_KEY: 'k',
        LABELDESK_API_SECRET: 'secret-abc',
        LABELDESK_DATA_DIR: dir,
      },
    });
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 1,
      stderr: `labeldesk: --out ${out}: cannot write ${out}: it is a folder\n`,
    });
    expect(readdirSync(folder)).toEqual(['Shelf.json']);
  });

  it('needs the hosted API and a field list', async () => {
    expect((await cli(['capture', '--template', 'x', '--fields', 'a'])).stderr).toMatch(
      /^labeldesk: capture needs the hosted API/,
    );
    expect((await cli(['capture', '--template', 'x'])).code).toBe(2);
    expect(parseFieldList('a, b:digits')).toEqual([{ name: 'a' }, { name: 'b', digits: true }]);
    expect(() => parseFieldList('a:upper')).toThrow('--fields: "a:upper": the only marker is ":digits"');
  });
});
