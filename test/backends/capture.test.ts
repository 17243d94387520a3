/**
 * Template capture against a fake hosted service (real HTTP) whose template transforms values: one field
 * upper-cased, one cut short, one unused, a barcode with a check digit the service computes, a fixed EAN,
 * literal braces and attributes the local engine does not know.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostedApiClient } from '../../src/backends/hosted-client';
import { captureTemplate, humanize } from '../../src/backends/capture';
import { HostedTemplateNotFound, ValidationError } from '../../src/backends/errors';
import { findSentinels, makeSentinels } from '../../src/backends/sentinels';
import { resolve } from '../../src/resolve/resolve';
import { parseTemplate } from '../../src/model/parse';
import { json, startServer, type TestServer } from './support/http-server';

/** A seeded random source (LCG), so sentinels are reproducible. */
function seeded(seed = 42): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const PLACEHOLDERS: Record<string, string> = {
  recipient: 'NAME',
  city: 'Town',
  reference: 'REF-0000',
  sku: '000',
  gtin: '400638133393',
};
const gs1 = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++)
    sum += (digits.charCodeAt(digits.length - 1 - i) - 48) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
};

/** The hosted template "Parcel Label": what its canvas would resolve to for `apiData`. */
function hostedMarkup(apiData: Record<string, string>) {
  const v = (name: string) => apiData[name] ?? PLACEHOLDERS[name] ?? '';
  return [
    {
      stage: { width: 4, height: 3, unit: 'in', background: '#ffffff', draggable: false },
      elements: [
        {
          type: 'text',
          x: 10,
          y: 10,
          width: 300,
          height: 20,
          text: `Dear ${v('recipient')},`,
          font: { size: 14, family: 'Arial', letterSpacing: 1 },
          shadowBlur: 2,
        },
        { type: 'text', x: 10, y: 40, width: 300, height: 20, text: `CITY: ${v('city').toUpperCase()}` },
        { type: 'text', x: 10, y: 70, width: 300, height: 20, text: `Ref ${v('reference').slice(0, 8)}` },
        {
          type: 'barcode',
          x: 10,
          y: 100,
          width: 200,
          height: 60,
          format: 'code128',
          text: `SKU-${v('sku')}`,
        },
        {
          type: 'barcode',
          x: 220,
          y: 100,
          width: 150,
          height: 60,
          format: 'ean13',
          text: v('gtin') + gs1(v('gtin')),
        },
        { type: 'barcode', x: 220, y: 170, width: 150, height: 60, format: 'ean13', text: '4006381333931' },
        { type: 'text', x: 10, y: 200, width: 300, height: 20, text: '{literal} braces \\ and a backslash' },
        { type: 'rect', x: 0, y: 0, width: 384, height: 288, stroke: '#000000', strokeWidth: 1 },
      ],
    },
  ];
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const body = JSON.parse(req.body) as { label_name: string; apiData: Record<string, string> };
    if (req.path !== '/custom-labels/fetch-markups') return json(res, 404, { message: 'no such route' });
    if (body.label_name !== 'Parcel Label') return json(res, 404, { message: 'Label not found' });
    json(res, 200, hostedMarkup(body.apiData));
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.received.length = 0;
});

const backend = () =>
  new HostedApiClient({
    baseUrl: server.url,
    apiKey: 'k',
    apiSecret: 'secret-1234',
    fetch: globalThis.fetch,
  });
const FIELDS = ['recipient', 'city', 'reference', 'notes', 'sku', { name: 'gtin', digits: true }];

describe('captureTemplate', () => {
  it('one fetch-markups call → a valid template with references where the values went, and honest notes', async () => {
    const { template, notes, sentinels } = await captureTemplate({
      backend: backend(),
      templateName: 'Parcel Label',
      fields: FIELDS,
      random: seeded(),
      now: () => new Date('2026-10-01T12:00:00Z'),
    });
    expect(server.received).toHaveLength(1);
    const sent = JSON.parse(server.received[0]?.body ?? '') as {
      amount: number;
      apiData: Record<string, string>;
    };
    expect(sent.amount).toBe(1);
    expect(sent.apiData).toEqual(sentinels);
    expect(sentinels.gtin).toMatch(/^\d{12}$/);
    expect(sentinels.city).toMatch(/^[A-Za-z0-9]{12}$/);

    // Valid, also after a round trip through JSON (what --out writes).
    expect(parseTemplate(JSON.parse(JSON.stringify(template)))).toEqual(template);
    expect(template.name).toBe('Parcel Label');
    expect(template.description).toBe('Captured from the hosted template "Parcel Label" on 2026-10-01.');
    expect(template.stage).toEqual({ width: 4, height: 3, unit: 'in', background: '#ffffff' });
    const values = template.elements.map((e) => ('text' in e ? e.text : undefined));
    expect(values).toEqual([
      'Dear {recipient},',
      'CITY: {city}',
      'Ref {reference}',
      'SKU-{sku}',
      '{gtin}',
      '4006381333931',
      '\\{literal\\} braces \\\\ and a backslash',
      undefined,
    ]);
    expect(template.fields.map((f) => [f.name, f.label, f.placeholder, f.maxLength])).toEqual([
      ['recipient', 'Recipient', '', undefined],
      ['city', 'City', '', undefined],
      ['reference', 'Reference', '', 8],
      ['notes', 'Notes', '', undefined],
      ['sku', 'Sku', '', undefined],
      ['gtin', 'Gtin', '', undefined],
    ]);

    const byKind = (kind: string) => notes.filter((n) => n.kind === kind);
    expect(byKind('transformed').map((n) => [n.field, n.path])).toEqual([['city', 'elements[1].text']]);
    expect(byKind('transformed')[0]?.message).toContain(
      'the template transforms the value of "city" (upper-cased)',
    );
    expect(byKind('truncated').map((n) => n.message)).toEqual([
      'elements[2].text: the template shows "reference" cut to its first 8 characters; captured as the whole value with a maximum length of 8',
    ]);
    expect(byKind('unused').map((n) => n.field)).toEqual(['notes']);
    expect(byKind('check-digit').map((n) => n.field)).toEqual(['gtin']);
    expect(byKind('fixed-barcode').map((n) => n.path)).toEqual(['elements[5]']);
    expect(byKind('fixed-barcode')[0]?.message).toContain('capture again with that field marked as digits');
    expect(byKind('dropped-attributes').map((n) => n.message)).toEqual([
      'elements[0] (text): dropped attributes the local engine does not use: font.letterSpacing, shadowBlur',
    ]);
    expect(byKind('placeholders')).toHaveLength(1);

    // The captured template reproduces the hosted label for values the template does not transform.
    const [local] = resolve(template, { recipient: 'Ada', sku: '77', gtin: '400638133393' }, 1);
    const [hosted] = hostedMarkup({ recipient: 'Ada', sku: '77', gtin: '400638133393' });
    expect(local?.elements[0]).toMatchObject({ text: hosted?.elements[0]?.text });
    expect(local?.elements[3]).toMatchObject({ text: hosted?.elements[3]?.text });
    expect(local?.elements[6]).toMatchObject({ text: hosted?.elements[6]?.text });
  });

  it('with placeholders: a second call without values learns them', async () => {
    const { template, notes } = await captureTemplate({
      backend: backend(),
      templateName: 'Parcel Label',
      fields: FIELDS,
      placeholders: true,
      random: seeded(7),
    });
    expect(server.received).toHaveLength(2);
    expect(JSON.parse(server.received[1]?.body ?? '').apiData).toEqual({});
    expect(Object.fromEntries(template.fields.map((f) => [f.name, f.placeholder]))).toEqual({
      recipient: 'NAME',
      city: 'TOWN', // as the template shows it
      reference: 'REF-0000',
      notes: '',
      sku: '000',
      gtin: '4006381333931', // the captured reference covers the check digit the service added
    });
    expect(notes.some((n) => n.kind === 'placeholders')).toBe(false);
  });

  it('an unknown hosted template → HostedTemplateNotFound', async () => {
    await expect(
      captureTemplate({ backend: backend(), templateName: 'parcel label', fields: ['a'] }),
    ).rejects.toBeInstanceOf(HostedTemplateNotFound);
  });

  it('a field name LabelDesk cannot use is refused before any request', async () => {
    await expect(
      captureTemplate({ backend: backend(), templateName: 'Parcel Label', fields: ['Ship To'] }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      captureTemplate({ backend: backend(), templateName: 'Parcel Label', fields: ['a', 'a'] }),
    ).rejects.toThrow('fields: "a" is listed twice');
    expect(server.received).toHaveLength(0);
  });
});

describe('sentinels', () => {
  it('are distinct at both ends, mixed-case alphanumeric, or 12 digits', () => {
    const s = makeSentinels(['text', 'text', 'digits', 'text'], seeded(1));
    expect(new Set(s.map((x) => x.slice(0, 6).toLowerCase())).size).toBe(4);
    expect(s[0]).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{12}$/);
    expect(s[2]).toMatch(/^[1-9]\d{11}$/);
  });

  it('are found as sent, case-changed, or cut at either end', () => {
    const [a, b] = makeSentinels(['text', 'text'], seeded(3)) as [string, string];
    const value = `x ${a} y ${b.toUpperCase()} z ${a.slice(0, 7)} w ${b.slice(-9).toLowerCase()}`;
    const found = findSentinels(value, [a, b]).map((m) => [m.field, m.appearance]);
    expect(found).toEqual([
      [0, { how: 'exact' }],
      [1, { how: 'case', transform: 'upper-cased' }],
      [0, { how: 'truncated', kept: 'start', length: 7, caseChanged: false }],
      [1, { how: 'truncated', kept: 'end', length: 9, caseChanged: true }],
    ]);
    expect(findSentinels(`${a.slice(0, 5)} nothing`, [a, b])).toEqual([]);
  });

  it('humanize', () => {
    expect(humanize('ship_to_name')).toBe('Ship to name');
    expect(humanize('orderId')).toBe('Order id');
  });
});
