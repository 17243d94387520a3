import { describe, expect, it } from 'vitest';
import { classifyZplCommand, describeFindings, planZplPrint } from '../../src/zpl/print-plan';
import { ZplBudgetError } from '../../src/zpl/read';

const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

const LABEL_1 =
  '^XA^FO50,50^GB400,200,4^FS^FO70,80^A0N,40,40^FDLABEL ONE^FS^BY2^FO70,300^BCN,100,Y,N,N^FD1234567^FS^XZ';
const LABEL_2 = '^XA^FO50,50^A0N,30,30^FDLABEL TWO^FS^PQ3^XZ';

describe('classifyZplCommand', () => {
  it('names printer settings and commands that reach beyond the label; label content is unclassified', () => {
    expect(classifyZplCommand({ prefix: '~', name: 'SD', params: '25' })).toEqual({
      kind: 'setting',
      what: 'darkness',
    });
    expect(classifyZplCommand({ prefix: '^', name: 'PR', params: '4' })?.kind).toBe('setting');
    expect(classifyZplCommand({ prefix: '^', name: 'JU', params: 'S' })?.kind).toBe('printer');
    expect(classifyZplCommand({ prefix: '~', name: 'JR', params: '' })?.kind).toBe('printer');
    expect(classifyZplCommand({ prefix: '^', name: 'ID', params: 'E:*.*' })?.kind).toBe('printer');
    expect(classifyZplCommand({ prefix: '^', name: 'NS', params: 'a,1.2.3.4' })?.kind).toBe('printer');
    // A download to RAM is label content; to E: (flash) it outlives the label.
    expect(
      classifyZplCommand({ prefix: '~', name: 'DG', params: 'R:LOGO.GRF,4,1,FF00FF00' }),
    ).toBeUndefined();
    expect(classifyZplCommand({ prefix: '~', name: 'DG', params: 'LOGO.GRF,4,1,FF00FF00' })).toBeUndefined();
    expect(classifyZplCommand({ prefix: '~', name: 'DG', params: 'E:LOGO.GRF,4,1,FF00FF00' })?.kind).toBe(
      'printer',
    );
    for (const name of ['FO', 'FD', 'GB', 'BC', 'PW', 'LL', 'LH', 'PQ', 'XG', 'FX']) {
      expect(classifyZplCommand({ prefix: '^', name, params: '' })).toBeUndefined();
    }
  });
});

describe('planZplPrint', () => {
  it('gives each ^XA…^XZ as its own bytes, unchanged, with ^PQ copies', () => {
    const plan = planZplPrint(`${LABEL_1}\r\n${LABEL_2}\r\n`);
    expect(plan.labels.map((l) => text(l.bytes))).toEqual([LABEL_1, `\r\n${LABEL_2}`]);
    expect(plan.labels.map((l) => l.copies)).toEqual([1, 3]);
    expect(plan.settings).toEqual([]);
    expect(plan.printerCommands).toEqual([]);
  });

  it('takes out settings and printer commands byte-exactly by default, naming them; keeps them when asked', () => {
    const file = `~SD25^XA^PR4^MD10^FO10,10^FDX^FS^JUS^XZ~JA^XA^FDY^FS^XZ`;
    const plan = planZplPrint(file);
    expect(plan.labels.map((l) => text(l.bytes))).toEqual(['^XA^FO10,10^FDX^FS^XZ', '^XA^FDY^FS^XZ']);
    expect(plan.settings.map((f) => [f.command, f.label, f.kept])).toEqual([
      ['~SD', 1, false],
      ['^PR', 1, false],
      ['^MD', 1, false],
    ]);
    expect(plan.printerCommands.map((f) => [f.command, f.label, f.kept])).toEqual([
      ['^JU', 1, false],
      ['~JA', 2, false],
    ]);
    expect(describeFindings(plan.settings)).toBe(
      '~SD25 (darkness), ^PR4 (print speed), ^MD10 (darkness adjustment)',
    );
    const kept = planZplPrint(file, { keepSettings: true, allowPrinterCommands: true });
    expect(kept.labels.map((l) => text(l.bytes)).join('')).toBe(file);
    const settingsOnly = planZplPrint(file, { keepSettings: true });
    expect(settingsOnly.labels.map((l) => text(l.bytes))).toEqual([
      '~SD25^XA^PR4^MD10^FO10,10^FDX^FS^XZ',
      '^XA^FDY^FS^XZ',
    ]);
  });

  it('sends a download with the label after it, and a copy before a later label that uses it', () => {
    const dg = '~DGR:LOGO.GRF,2,1,FF00\r\n';
    const file = `${dg}^XA^FO0,0^XGR:LOGO.GRF,1,1^FS^XZ^XA^FDno logo^FS^XZ^XA^FO5,5^XGLOGO.GRF^FS^XZ`;
    const plan = planZplPrint(file);
    expect(text(plan.labels[0]!.bytes)).toBe(`${dg}^XA^FO0,0^XGR:LOGO.GRF,1,1^FS^XZ`);
    expect(plan.labels[1]!.carried).toEqual([]);
    expect(text(plan.labels[2]!.bytes)).toBe(`${dg}^XA^FO5,5^XGLOGO.GRF^FS^XZ`);
    expect(plan.labels[2]!.carried).toEqual(['R:LOGO.GRF']);
    expect(plan.warnings).toEqual([]);
  });

  it('warns of a graphic the file never downloads, or whose download to flash was taken out', () => {
    const plan = planZplPrint('~DGE:LOGO.GRF,2,1,FF00^XA^XGE:LOGO.GRF^FS^XZ^XA^XGR:OTHER.GRF^FS^XZ');
    expect(text(plan.labels[0]!.bytes)).toBe('^XA^XGE:LOGO.GRF^FS^XZ');
    expect(plan.printerCommands.map((f) => f.command)).toEqual(['~DG']);
    const messages = plan.warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/label 1 uses R:LOGO.GRF, whose download to flash was taken out/);
    expect(messages).toMatch(/label 2 uses R:OTHER.GRF, which this file does not download/);
  });

  it('carries a stored format (^DF) to each label that recalls it', () => {
    const df = '^XA^DFR:SHIP.ZPL^FS^FO10,10^A0N,30,30^FN1^FS^XZ';
    const l1 = '^XA^XFR:SHIP.ZPL^FS^FN1^FDONE^FS^XZ';
    const l2 = '^XA^XFR:SHIP.ZPL^FS^FN1^FDTWO^FS^XZ';
    const plan = planZplPrint(df + l1 + l2);
    expect(plan.labels.map((l) => text(l.bytes))).toEqual([df + l1, df + l2]);
  });

  it('finds no label in a file without ^XA…^XZ, and refuses a stream over its budget', () => {
    expect(planZplPrint('hello').labels).toEqual([]);
    expect(() => planZplPrint(LABEL_1, { budgets: { maxInputBytes: 10 } })).toThrow(ZplBudgetError);
  });
});
