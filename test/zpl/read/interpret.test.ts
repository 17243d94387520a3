import fc from 'fast-check';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { BarcodeNode, Scene, SceneNode, TextNode } from '../../../src/layout/scene';
import { loadBundledFonts } from '../../../src/node/fonts';
import { getDot, type MonoBitmap } from '../../../src/render/bitmap';
import { renderMono } from '../../../src/render/dots';
import { crc16Xmodem } from '../../../src/zpl/crc';
import { readZpl, ZplBudgetError } from '../../../src/zpl/read';

const fonts = loadBundledFonts();
const read = (zpl: string | Uint8Array, dpi = 203) => readZpl(zpl, { fonts, dpi });
const only = (zpl: string | Uint8Array, dpi = 203) => {
  const { labels } = read(zpl, dpi);
  expect(labels).toHaveLength(1);
  return labels[0]!;
};
const dots = (scene: Scene): MonoBitmap => renderMono(scene, fonts);
const blackIn = (b: MonoBitmap, x0 = 0, y0 = 0, x1 = b.width, y1 = b.height) => {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (getDot(b, x, y)) n++;
  return n;
};
/** Bounding box of the black dots. */
const inkBox = (b: MonoBitmap) => {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < b.height; y++)
    for (let x = 0; x < b.width; x++)
      if (getDot(b, x, y)) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  return { x0, y0, x1, y1 };
};
function find<K extends SceneNode['kind']>(nodes: SceneNode[], kind: K): Extract<SceneNode, { kind: K }>[] {
  const out: SceneNode[] = [];
  const walk = (n: SceneNode) => {
    if (n.kind === kind) out.push(n);
    if (n.kind === 'group') n.children.forEach(walk);
    if (n.kind === 'barcode' && n.text && kind === 'text') out.push(n.text);
  };
  nodes.forEach(walk);
  return out as Extract<SceneNode, { kind: K }>[];
}

describe('readZpl: the label and its size', () => {
  it('sizes the label from ^PW/^LL and gives a blank label with a warning when nothing is drawn', () => {
    const label = only('^XA^PW400^LL200^XZ');
    expect([label.scene.width, label.scene.height, label.scene.unit, label.scene.dpi]).toEqual([
      400,
      200,
      'dots',
      203,
    ]);
    expect(label.warnings.map((w) => w.message)).toEqual(['nothing on this label is drawn: it is blank.']);
  });

  it('carries printer state (^PW, ^LH, ^CF, ^BY) from one format to the next; field state ends at ^FS', () => {
    const { labels } = read('^XA^PW300^LL100^LH10,20^CFD^XZ^XA^FO0,0^GB5,5,5^FS^XZ');
    const second = dots(labels[1]!.scene);
    expect(labels[1]!.scene.width).toBe(300);
    expect(inkBox(second)).toEqual({ x0: 10, y0: 20, x1: 14, y1: 24 });
  });

  it('names an unknown command and its byte offset in a warning, and draws the rest', () => {
    const label = only('^XA^PW100^LL100^QQ1,2^FO1,1^GB10,10,10^FS^XZ');
    expect(label.warnings).toEqual([
      { command: '^QQ', offset: 15, message: 'unknown or unsupported command: ignored.' },
    ]);
    expect(blackIn(dots(label.scene))).toBe(100);
  });

  it('records setup commands (^MM, ~SD, ^JUS) on the label without drawing them', () => {
    const label = only('^XA~SD25^MMT^JUS^PW50^LL50^XZ');
    expect(label.settings).toEqual(['~SD25', '^MMT', '^JUS']);
  });
});

describe('readZpl: graphics', () => {
  it('^GB draws a frame t dots thick, a filled box when t reaches half the side, white with W', () => {
    const frame = dots(only('^XA^PW200^LL100^FO10,10^GB100,50,4^FS^XZ').scene);
    expect(blackIn(frame)).toBe(100 * 50 - 92 * 42);
    expect(inkBox(frame)).toEqual({ x0: 10, y0: 10, x1: 109, y1: 59 });
    const knocked = dots(only('^XA^PW200^LL100^FO0,0^GB100,100,50^FS^FO10,10^GB20,20,20,W^FS^XZ').scene);
    expect(blackIn(knocked)).toBe(100 * 100 - 400);
  });

  it('^FT places a box by its bottom-left corner', () => {
    expect(inkBox(dots(only('^XA^PW100^LL100^FT10,50^GB20,20,20^FS^XZ').scene))).toEqual({
      x0: 10,
      y0: 30,
      x1: 29,
      y1: 49,
    });
  });

  it('^GD draws a diagonal, ^GC a circle and ^GE an ellipse inside their boxes', () => {
    const b = dots(
      only('^XA^PW300^LL100^FO0,0^GD50,50,4,B,R^FS^FO100,0^GC50,3^FS^FO200,0^GE80,40,40^FS^XZ').scene,
    );
    expect(inkBox(b)).toEqual({ x0: 0, y0: 0, x1: 279, y1: 49 });
    expect(blackIn(b, 200, 0, 280, 40)).toBeGreaterThan(0.7 * 80 * 40);
  });

  it('^GFA hex, ACS-compressed, :Z64: and :B64: data draw the same dots; a wrong CRC is a warning', () => {
    // 16 × 4 dots: rows F0F0, FFFF, 0000, 0F0F.
    const bytes = Uint8Array.from([0xf0, 0xf0, 0xff, 0xff, 0x00, 0x00, 0x0f, 0x0f]);
    const hex = 'F0F0FFFF00000F0F';
    const acs = 'F0F0J,0F0F'.replace('J', '!'); // ! fills the row with 1s; , ends a row white
    const z64 = deflateSync(bytes).toString('base64');
    const b64 = Buffer.from(bytes).toString('base64');
    const draw = (data: string) => only(`^XA^PW16^LL4^FO0,0^GFA,8,8,2,${data}^FS^XZ`);
    const expected = blackIn(dots(draw(hex).scene));
    expect(expected).toBe(8 + 16 + 8);
    expect(blackIn(dots(draw('F0F0!,0F0F').scene))).toBe(expected);
    expect(acs).toBe('F0F0!,0F0F');
    const z = draw(`:Z64:${z64}:${crc16Xmodem(z64)}`);
    expect(z.warnings).toEqual([]);
    expect(blackIn(dots(z.scene))).toBe(expected);
    expect(blackIn(dots(draw(`:B64:${b64}:${crc16Xmodem(b64)}`).scene))).toBe(expected);
    expect(draw(`:Z64:${z64}:0000`).warnings[0]?.message).toMatch(/CRC 0000 is wrong/);
  });

  it('ACS repeat counts: G–Y are 1–19, g–z 20–400, and ":" repeats the row above', () => {
    // 40 dots a row (5 bytes, 10 nibbles): "gF" is 20 F nibbles = two rows black; ":" repeats.
    const b = dots(only('^XA^PW40^LL3^FO0,0^GFA,15,15,5,gF:^FS^XZ').scene);
    expect(blackIn(b)).toBe(120);
    const c = dots(only('^XA^PW40^LL1^FO0,0^GFA,5,5,5,OFK0^FS^XZ').scene); // 9 F then 4 zero nibbles
    expect(blackIn(c)).toBe(36);
  });

  it('~DG stores a graphic that ^XG recalls with its magnification; a missing one is a warning', () => {
    const label = only(
      '~DGR:BOX.GRF,2,1,FFFF^XA^PW100^LL100^FO10,10^XGR:BOX.GRF,2,3^FS^FO0,0^XGR:NONE.GRF^FS^XZ',
    );
    expect(blackIn(dots(label.scene))).toBe(8 * 2 * 2 * 3);
    expect(label.warnings[0]).toMatchObject({
      command: '^XG',
      message: 'no graphic R:NONE.GRF in memory: nothing drawn.',
    });
  });

  it('a ^GF declaring more bytes than the budget is refused before anything is allocated', () => {
    const label = only('^XA^PW100^LL100^FO0,0^GFA,999999999999,999999999999,100,FF^FS^XZ');
    expect(label.warnings[0]?.message).toMatch(/declares 999999999999 bytes/);
    expect(label.scene.nodes).toEqual([]);
  });
});

describe('readZpl: label-wide commands and memory', () => {
  it('^PO I turns the whole label 180°; ^LS shifts fields left', () => {
    const inverted = dots(only('^XA^PW100^LL50^POI^FO0,0^GB10,10,10^FS^XZ').scene);
    expect(inkBox(inverted)).toEqual({ x0: 90, y0: 40, x1: 99, y1: 49 });
    const shifted = dots(only('^XA^PW100^LL50^LS5^FO20,0^GB10,10,10^FS^XZ').scene);
    expect(inkBox(shifted).x0).toBe(15);
  });

  it('~DY stores a binary GRF graphic that ^IM draws at the field origin', () => {
    // Binary data is bytes: a stream given as bytes keeps them (a JS string would be UTF-8 encoded).
    const label = only(
      Buffer.concat([
        Buffer.from('~DYR:LOGO,B,G,4,2,'),
        Buffer.from([0xff, 0x00, 0xff, 0x00]),
        Buffer.from('^XA^PW50^LL50^FO5,5^IMR:LOGO.GRF^FS^XZ'),
      ]),
    );
    expect(label.warnings).toEqual([]);
    expect(blackIn(dots(label.scene))).toBe(16);
    expect(inkBox(dots(label.scene))).toEqual({ x0: 5, y0: 5, x1: 12, y1: 6 });
  });

  it('^IS keeps what a label drew so far and ^IL starts a later label with it', () => {
    const { labels } = read(
      '^XA^PW50^LL50^FO0,0^GB10,10,10^FS^ISR:FORM.GRF^XZ^XA^ILR:FORM.GRF^FO20,20^GB5,5,5^FS^XZ',
    );
    expect(blackIn(dots(labels[1]!.scene))).toBe(100 + 25);
  });
});

describe('readZpl: text', () => {
  it('^A0 text at ^FO: the cell top at y, as tall as asked; ^FT puts the baseline at y', () => {
    const fo = dots(only('^XA^PW400^LL100^FO10,20^A0N,40,40^FDHIH^FS^XZ').scene);
    const box = inkBox(fo);
    expect(box.x0).toBeGreaterThanOrEqual(10);
    expect(box.x0).toBeLessThan(16);
    // Capitals fill most of the cell: their top a few dots below y, their foot above y + h.
    expect(box.y0).toBeGreaterThanOrEqual(20);
    expect(box.y1).toBeLessThan(60);
    expect(box.y1 - box.y0).toBeGreaterThan(26);
    const ft = inkBox(dots(only('^XA^PW400^LL100^FT10,60^A0N,40,40^FDHIH^FS^XZ').scene));
    expect(ft.y1).toBe(59);
  });

  it('^A0 width scales the text horizontally only', () => {
    const narrow = inkBox(dots(only('^XA^PW800^LL100^FO0,0^A0N,40,20^FDWAREHOUSE^FS^XZ').scene));
    const wide = inkBox(dots(only('^XA^PW800^LL100^FO0,0^A0N,40,40^FDWAREHOUSE^FS^XZ').scene));
    expect((wide.x1 - wide.x0) / (narrow.x1 - narrow.x0)).toBeCloseTo(2, 1);
    expect(wide.y1 - wide.y0).toBe(narrow.y1 - narrow.y0);
  });

  it('bitmap font D is an 18 × 10 cell with a 2-dot gap, magnified by whole numbers', () => {
    const one = only('^XA^PW800^LL100^FO0,0^ADN^FDMMMMMMMMMM^FS^XZ');
    const two = only('^XA^PW800^LL100^FO0,0^ADN,36,20^FDMMMMMMMMMM^FS^XZ');
    const w1 = inkBox(dots(one.scene));
    const w2 = inkBox(dots(two.scene));
    // Ten characters a cell of 12 dots each (10 + 2), twice that magnified.
    expect(w1.x1).toBeGreaterThan(100);
    expect(w1.x1).toBeLessThan(120);
    expect(w2.x1).toBeGreaterThan(200);
    expect(w2.x1).toBeLessThan(240);
  });

  it('^FW R and ^A0R rotate text 90° clockwise about the field origin', () => {
    const b = inkBox(dots(only('^XA^PW200^LL400^FO50,10^A0R,40,40^FDHELLO^FS^XZ').scene));
    expect(b.x0).toBeGreaterThanOrEqual(50);
    expect(b.x1).toBeLessThan(92);
    expect(b.y1 - b.y0).toBeGreaterThan(b.x1 - b.x0);
  });

  it('^FB wraps into lines of its width, aligns them and cuts what does not fit its lines with a warning', () => {
    const label = only(
      '^XA^PW400^LL300^FO0,0^FB200,2,0,C^A0N,30,30^FDone two three four five six seven eight^FS^XZ',
    );
    const text = find(label.scene.nodes, 'text')[0] as TextNode;
    expect(text.lines).toHaveLength(2);
    expect(label.warnings[0]).toMatchObject({ command: '^FB' });
    expect(label.warnings[0]?.message).toMatch(/left out/);
    const b = inkBox(dots(label.scene));
    expect(b.x1).toBeLessThan(200);
  });

  it('^FB with \\& breaks lines; 9999 lines are clamped to the budget with a warning', () => {
    const label = only('^XA^PW400^LL300^FO0,0^FB300,9999^A0N,30,30^FDa\\&b\\&c^FS^XZ');
    expect((find(label.scene.nodes, 'text')[0] as TextNode).lines.map((l) => l.text)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(label.warnings[0]?.message).toMatch(/9999 lines; at most 200/);
  });

  it('^FH decodes hex escapes; escapes that decode to control bytes are left out of text with a warning', () => {
    const label = only('^XA^PW400^LL100^CI28^FO0,0^FH^FD_C3_A9t_C3_A9_07^FS^XZ');
    expect((find(label.scene.nodes, 'text')[0] as TextNode).lines[0]?.text).toBe('été');
    expect(label.warnings[0]).toMatchObject({
      command: '^FH',
      message: expect.stringMatching(/control characters/),
    });
  });

  it('^CI28 reads UTF-8, ^CI27 Windows-1252', () => {
    const utf8 = only('^XA^CI28^FO0,0^FDZürich^FS^XZ');
    expect((find(utf8.scene.nodes, 'text')[0] as TextNode).lines[0]?.text).toBe('Zürich');
    const cp1252 = only(
      Uint8Array.from([...Buffer.from('^XA^CI27^FO0,0^FDZ'), 0xfc, ...Buffer.from('rich^FS^XZ')]),
    );
    expect((find(cp1252.scene.nodes, 'text')[0] as TextNode).lines[0]?.text).toBe('Zürich');
  });

  it('^TB wraps text in its width and cuts it at its height', () => {
    const label = only('^XA^PW400^LL300^FO0,0^A0N,30,30^TBN,150,60^FDone two three four five six^FS^XZ');
    const text = find(label.scene.nodes, 'text')[0] as TextNode;
    expect(text.lines).toHaveLength(2);
    expect(label.warnings[0]).toMatchObject({ command: '^TB' });
  });

  it('a font letter the printer does not have is drawn with ^A0 and named in a warning', () => {
    const label = only('^XA^PW200^LL100^FO0,0^AZN,30,30^FDdownloaded^FS^XZ');
    expect(find(label.scene.nodes, 'text')).toHaveLength(1);
    expect(label.warnings).toEqual([
      {
        command: '^A',
        offset: 21,
        message: "font Z is not one of the printer's (0, A–H, P–V): drawn with ^A0's.",
      },
    ]);
  });

  it('^GS draws the registered-trademark symbol in its cell', () => {
    const label = only('^XA^PW100^LL100^FO10,10^GSN,40,40^FDA^FS^XZ');
    expect((find(label.scene.nodes, 'text')[0] as TextNode).lines[0]?.text).toBe('®');
  });

  it('^FR over a black box prints the text white', () => {
    const label = only('^XA^PW400^LL100^FO0,0^GB400,100,100^FS^FR^FO20,20^A0N,50,50^FDWHITE^FS^XZ');
    const text = find(label.scene.nodes, 'text')[0] as TextNode;
    expect(text.color).toBe('#ffffff');
    expect(blackIn(dots(label.scene))).toBeLessThan(400 * 100 - 500);
  });
});

describe('readZpl: stored formats, copies and budgets', () => {
  it("^DF stores a format; ^XF recalls it and ^FN fields take the recalling format's data", () => {
    const { labels } = read(
      '^XA^DFR:SHIP.ZPL^FO10,10^A0N,30,30^FN1^FS^FO10,60^A0N,30,30^FN2"default"^FS^XZ' +
        '^XA^XFR:SHIP.ZPL^FN1^FDFirst^FS^FN2^FDSecond^FS^XZ',
    );
    expect(labels).toHaveLength(1);
    expect(find(labels[0]!.scene.nodes, 'text').map((t) => t.lines[0]?.text)).toEqual(['First', 'Second']);
  });

  it('^PQ counts copies within the budget; a huge ^PQ is clamped with a warning', () => {
    expect(only('^XA^PQ3^XZ').copies).toBe(3);
    const huge = only('^XA^PQ99999999^XZ');
    expect(huge.copies).toBe(10_000);
    expect(huge.warnings[0]).toMatchObject({
      command: '^PQ',
      message: expect.stringMatching(/99999999 copies/),
    });
  });

  it('^LL 32000 at 600 dpi is over the largest label: clamped with a warning', () => {
    const label = only('^XA^LL32000^XZ', 600);
    expect(label.scene.height).toBe(24_000);
    expect(label.warnings[0]).toMatchObject({ command: '^LL' });
  });
});

describe('readZpl: bar codes', () => {
  it('^BC mode N reads the subset invocation codes: the symbol carries the data without them', () => {
    const label = only('^XA^FO0,0^BY2^BCN,100,Y,N,N^FD>:AB>512345678^FS^XZ');
    const bc = find(label.scene.nodes, 'barcode')[0] as BarcodeNode;
    expect(bc.value).toBe('AB12345678');
    expect(bc.moduleWidth).toBe(2);
    // Start B, A, B, Code C, 4 pairs, check, stop: 11 modules each, stop 13.
    expect(bc.box.width).toBe((11 * 9 + 13) * 2);
  });

  it('^BY sets the module in whole dots and the wide bars of two-width symbols from its ratio', () => {
    const label = only('^XA^FO0,0^BY3,2.5,50^B3N,N,,N,N^FDA^FS^XZ');
    const bc = find(label.scene.nodes, 'barcode')[0] as BarcodeNode;
    const widths = new Set<number>();
    for (let i = 2; i < bc.rects.length; i += 4) widths.add(bc.rects[i]!);
    expect([...widths].sort()).toEqual([3, 8]);
    expect(bc.box.height).toBe(50);
  });

  it('a value a symbology refuses is a warning naming the command, not a failure', () => {
    const label = only('^XA^FO0,0^B3N^FDlower case ~ !^FS^XZ');
    expect(label.warnings[0]?.command).toBe('^B3');
  });
});

describe('readZpl: hostile input', () => {
  it('only ever answers labels and warnings, or a ZplBudgetError, for any input (fuzz)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '^XA',
        '^XZ',
        '^FO10,10',
        '^FT',
        '^FD',
        '^FS',
        '^FH',
        '^FH_',
        '_0',
        '_1F',
        '^GB',
        '^GB5,5,9',
        '^GC',
        '^GD',
        '^GE',
        '^GS',
        '^GFA,',
        '^GFB,',
        '^GFA,4,4,1,',
        ':Z64:',
        ':B64:',
        '~DGR:A,4,1,',
        '^XGA',
        '^IM',
        '~DYR:X,A,G,4,1,',
        '^DFR:F',
        '^XFR:F',
        '^FN1',
        '^A0N,',
        '^ADR,',
        '^A@',
        '^CF0,',
        '^CI28',
        '^CI27',
        '^FB',
        '^FB100,3',
        '^TB',
        '^FW',
        '^FWR',
        '^FR',
        '^LR',
        '^LRY',
        '^PON',
        '^POI',
        '^PW',
        '^LL',
        '^LH',
        '^LS',
        '^LT',
        '^BY',
        '^BC',
        '^BCN,,Y,N,N,',
        '>;',
        '>5',
        '>:',
        '^B3',
        '^B2',
        '^BE',
        '^B8',
        '^BU',
        '^B9',
        '^BA',
        '^BK',
        '^B7',
        '^BX',
        '^BQ',
        '^BD',
        '^BO',
        '^B0',
        '^SN',
        '^SF',
        '^PQ',
        '^IS',
        '^IL',
        ',',
        '9999',
        '-1',
        '0',
        'A',
        'QA,',
        '\\&',
        'é',
      ),
      fc.string({ maxLength: 6 }),
      fc.integer({ min: -5, max: 99999 }).map(String),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        try {
          const out = readZpl(pieces.join(''), {
            fonts,
            dpi: 203,
            budgets: { maxLabelInches: 8, maxGraphicBytes: 64 * 1024, maxBlockLines: 20, maxFieldChars: 200 },
          });
          for (const label of out.labels) {
            expect(label.scene.width).toBeGreaterThan(0);
            renderMono(label.scene, fonts);
          }
        } catch (e) {
          expect(e).toBeInstanceOf(ZplBudgetError);
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
