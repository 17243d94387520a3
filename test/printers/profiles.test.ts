import { describe, expect, it } from 'vitest';
import {
  defaultPrintWidthDots,
  defaultProfile,
  parsePrinterProfile,
  parseProfilesFile,
  PrinterProfileError,
  withDetectedDpi,
  zplJobSettings,
} from '../../src/printers/profiles';
import { parsePrintersFile, PrintersFileError } from '../../src/printers/printers-file';
import { buildZplJob } from '../../src/zpl/job';
import { createMonoBitmap } from '../../src/render/bitmap';

describe('printer profiles', () => {
  it('applies defaults and stores the URI in canonical form', () => {
    expect(
      parsePrinterProfile({
        uri: 'TCP://Dock7',
        name: 'Dock 7',
        dpi: 203,
        dpiSource: 'detected',
        printWidthDots: 832,
      }),
    ).toEqual({
      uri: 'tcp://dock7:9100',
      name: 'Dock 7',
      dpi: 203,
      dpiSource: 'detected',
      printWidthDots: 832,
      offset: { x: 0, y: 0 },
      thermalMode: 'direct',
    });
    expect([152, 203, 300, 600].map(defaultPrintWidthDots)).toEqual([624, 832, 1232, 2464]);
  });

  it('names every problem with its path', () => {
    let error: unknown;
    try {
      parsePrinterProfile({
        uri: 'usb://zebra',
        name: '',
        dpi: 203.5,
        dpiSource: 'guessed',
        printWidthDots: 832,
        darkness: 31,
        offset: { x: -1, y: 0 },
        mediaType: 'tape',
        printSpeed: 15,
        printMode: 'fold',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PrinterProfileError);
    const paths = (error as PrinterProfileError).problems.map((p) => p.path);
    expect(paths).toEqual([
      'uri',
      'name',
      'dpi',
      'dpiSource',
      'darkness',
      'offset.x',
      'mediaType',
      'printSpeed',
      'printMode',
    ]);
    expect((error as PrinterProfileError).problems[0]?.message).toBe(
      '"usb://zebra": expected usb://VID:PID with hexadecimal ids, e.g. usb://0a5f:0181',
    );
  });

  it('one profile per printer in a profiles file, whatever the spelling of its URI', () => {
    const p = { name: 'A', dpi: 203, dpiSource: 'set', printWidthDots: 832 };
    expect(() =>
      parseProfilesFile({
        version: 1,
        profiles: [
          { ...p, uri: 'tcp://a' },
          { ...p, uri: 'tcp://A:9100' },
        ],
      }),
    ).toThrow('profiles[1].uri: same printer as profiles[0] (tcp://a:9100)');
  });

  it('a detected dpi never overrides a dpi a person set; the default width follows the dpi', () => {
    const detected = defaultProfile('tcp://a', 'A', 203, 'detected');
    expect(withDetectedDpi(detected, 300)).toMatchObject({ dpi: 300, printWidthDots: 1232 });
    const set = defaultProfile('tcp://a', 'A', 203, 'set');
    expect(withDetectedDpi(set, 300)).toBe(set);
  });

  it('feeds buildZplJob: width cap, ^LH offsets, ~SD darkness', () => {
    const profile = parsePrinterProfile({
      uri: 'tcp://a',
      name: 'A',
      dpi: 203,
      dpiSource: 'set',
      printWidthDots: 400,
      darkness: 20,
      offset: { x: 8, y: 16 },
    });
    expect(zplJobSettings(profile)).toEqual({
      maxWidthDots: 400,
      labelHome: { x: 8, y: 16 },
      darkness: { mode: 'absolute', level: 20 },
    });
    const job = buildZplJob({ bitmap: createMonoBitmap(832, 8), ...zplJobSettings(profile) });
    expect(job.split('\n').slice(0, 5)).toEqual(['^XA', '~SD20', '^PW400', '^LL8', '^LH8,16']);
  });

  it('sends media tracking, print mode and speed a person set, in ZPL, with every job (#42 item 10)', () => {
    const cases = [
      [{ mediaType: 'gap', printMode: 'tear-off', printSpeed: 4 }, ['^MNY', '^MMT', '^PR4']],
      [{ mediaType: 'mark', printMode: 'peel' }, ['^MNM', '^MMP']],
      [{ mediaType: 'continuous', printMode: 'cutter', printSpeed: 14 }, ['^MNN', '^MMC', '^PR14']],
      [{ printMode: 'rewind', printSpeed: 1 }, ['^MMR', '^PR1']],
      [{}, []],
    ] as const;
    for (const [media, commands] of cases) {
      const profile = parsePrinterProfile({
        uri: 'tcp://dock7',
        name: 'Dock 7',
        dpi: 203,
        dpiSource: 'set',
        printWidthDots: 832,
        ...media,
      });
      const job = buildZplJob({ bitmap: createMonoBitmap(832, 8), ...zplJobSettings(profile) });
      expect(job.split('\n').slice(0, commands.length + 2)).toEqual(['^XA', ...commands, '^PW832']);
    }
    expect(() =>
      parsePrinterProfile({
        uri: 'tcp://x',
        name: 'x',
        dpi: 203,
        dpiSource: 'set',
        printWidthDots: 8,
        printSpeed: 0,
      }),
    ).toThrow(/printSpeed/);
  });
});

describe('printers file', () => {
  it('parses the shared format and normalises URIs', () => {
    expect(parsePrintersFile([{ id: 7, uri: 'tcp://10.0.0.5', name: 'Dock 7' }])).toEqual([
      { id: 7, uri: 'tcp://10.0.0.5:9100', name: 'Dock 7' },
    ]);
  });

  it('lists every problem with its path', () => {
    let error: unknown;
    try {
      parsePrintersFile(
        [
          { id: 7, uri: 'tcp://a', name: 'A' },
          { id: 7, uri: 'ftp://b', name: 'B', extra: 1 },
          { id: -1, uri: 'tcp://c', name: '' },
        ],
        'printers.json',
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PrintersFileError);
    expect((error as Error).message).toBe(
      [
        'printers.json: [1].uri: "ftp://b": unknown scheme "ftp" (expected tcp, usb, serial, cups or file)',
        '[1]: unknown attribute "extra"',
        '[2].id: Too small: expected number to be >=0',
        '[2].name: Too small: expected string to have >=1 characters',
      ].join('\n'),
    );
    expect(() =>
      parsePrintersFile([
        { id: 7, uri: 'tcp://a', name: 'A' },
        { id: 7, uri: 'tcp://b', name: 'B' },
      ]),
    ).toThrow('[1].id: id 7 is already used by [0]');
    expect(() => parsePrintersFile({ printers: [] })).toThrow(PrintersFileError);
  });
});
