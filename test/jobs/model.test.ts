import { describe, expect, it } from 'vitest';
import {
  isInFlight,
  isUnfinished,
  JOB_STATES,
  LABEL_STATES,
  readLabelTag,
  retagLabel,
  tagLabel,
} from '../../src/jobs/model';

describe('job and label states', () => {
  it('unfinished jobs are queued, printing, paused (by a fault) and held (paused by a person)', () => {
    expect(JOB_STATES.filter(isUnfinished)).toEqual(['queued', 'printing', 'paused', 'held']);
  });

  it('a label whose fate is open is one in sending or sent', () => {
    expect(LABEL_STATES.filter(isInFlight)).toEqual(['sending', 'sent']);
  });
});

describe('tagLabel', () => {
  it('puts a ^FX comment naming job and label right after ^XA (printers ignore it)', () => {
    const tagged = tagLabel('~SD15^XA^FO0,0^FDx^FS^XZ', 12, 7);
    expect(tagged).toBe('~SD15^XA^FXLabelDesk job 12 label 7^FS^FO0,0^FDx^FS^XZ');
    expect(readLabelTag(tagged)).toEqual({ jobId: 12, labelNumber: 7 });
  });

  it('retagLabel gives a reprinted label its new job and number, every other byte kept', () => {
    const original = tagLabel('^XA^FO0,0^FDx^FS^XZ', 3, 9);
    const again = retagLabel(original, 8, 1);
    expect(again).toBe('^XA^FXLabelDesk job 8 label 1^FS^FO0,0^FDx^FS^XZ');
    expect(again.replace(/\^FX[^^]*\^FS/, '')).toBe(original.replace(/\^FX[^^]*\^FS/, ''));
  });

  it('refuses a payload that is not a ZPL format', () => {
    expect(() => tagLabel('%PDF-1.7', 1, 1)).toThrow(/label 1 is not a ZPL format/);
    expect(readLabelTag('^XA^XZ')).toBeUndefined();
  });
});
