/** Template names that become file names (issue #22): one file name on Linux, macOS and Windows alike. */
import { describe, expect, it } from 'vitest';
import { templateFileNameProblem } from '../../src/model/template-name';

describe('templateFileNameProblem', () => {
  it('accepts the names people give labels', () => {
    for (const name of [
      'shipping-4x6',
      'Bin label 2',
      'Étiquette colis',
      '货架标签',
      'v1.2 (draft)',
      'a'.repeat(200),
    ])
      expect(templateFileNameProblem(name), name).toBeNull();
  });

  it('refuses paths, characters Windows forbids, device names, hidden and trailing-dot names', () => {
    const cases: [string, RegExp][] = [
      ['../x', /"\/"/],
      ['a/b', /"\/"/],
      ['a\\b', /"\\"/],
      ['C:x', /":"/],
      ['what?', /"\?"/],
      ['a*b', /"\*"/],
      ['<x>', /"<"/],
      ['a|b', /"\|"/],
      ['say "hi"', /"""/],
      ['tab\there', /control character/],
      ['CON', /Windows/],
      ['nul.txt', /Windows/],
      ['Com1', /Windows/],
      ['LPT9.json', /Windows/],
      ['..', /start with "\."/],
      ['.revisions', /hidden/],
      ['x.', /end with/],
      ['x ', /end with/],
      [' x', /start with a space/],
      ['', /needs a name/],
      ['é'.repeat(101), /at most 200 bytes/],
    ];
    for (const [name, message] of cases) expect(templateFileNameProblem(name), name).toMatch(message);
  });
});
