/** A GS1 mistake in a CSV batch is reported by record, field and AI before anything prints (issue #23). */
import { describe, expect, it } from 'vitest';
import { formatRowProblems, planBatch } from '../../src/jobs/batch';
import { palletGs1Template } from '../support/gs1-label';

describe('GS1 values in a batch', () => {
  it('a wrong SSCC check digit and a date that is not one: each a line of the report, naming the AI', () => {
    const csv = [
      'sscc,contents',
      '35012345123456789,(02)05012345678900(37)12', // check digit computed
      '350123451234567895,(02)05012345678900(37)12', // wrong check digit
      '350123451234567894,(02)05012345678900(17)251332(37)12', // month 13
    ].join('\n');
    const plan = planBatch(`${csv}\n`, palletGs1Template());
    expect(plan.rows.map((r) => r.record)).toEqual([1]);
    expect(plan.badRecords).toEqual([2, 3]);
    expect(formatRowProblems(plan.problems).split('\n')).toEqual([
      'record 2 (line 3), SSCC: AI (00) SSCC: the check digit should be 4, not 5.',
      'record 3 (line 4), Contents: AI (17) expiry date: 251332 is not a date: there is no month 13 (YYMMDD).',
    ]);
  });

  it('several problems in one value: one line each', () => {
    const plan = planBatch(
      'sscc,contents\n350123451234567894,(02)05012345678901(37)1A\n',
      palletGs1Template(),
    );
    expect(formatRowProblems(plan.problems).split('\n')).toEqual([
      'record 1 (line 2), Contents: AI (02) GTIN of contained items: the check digit should be 0, not 1.',
      'record 1 (line 2), Contents: AI (37) count of items: "A" cannot be used: it takes digits only.',
    ]);
  });
});
