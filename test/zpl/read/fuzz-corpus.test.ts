/**
 * Issue #33: the corpus labels, mutated at random (cut, repeated, spliced with ZPL fragments or random bytes),
 * still only ever read as labels with warnings, or as a ZplBudgetError naming the budget; every label draws.
 * Budgets keep each run small; nothing is timed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadBundledFonts } from '../../../src/node/fonts';
import { renderMono } from '../../../src/render/dots';
import { readZpl, ZplBudgetError } from '../../../src/zpl/read';
import { CORPUS, MORE_CORPUS } from './corpus';

const fonts = loadBundledFonts();
const SOURCES = [...CORPUS, ...MORE_CORPUS].map((l) => l.zpl);
const FRAGMENTS = [
  '^FS',
  '^XZ',
  '^XA',
  '^FO',
  '^FD',
  '^BD',
  '^SN',
  '^SF',
  '^FB',
  '^GF',
  '^PQ9999',
  ',',
  '~',
  '^',
  '_',
];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...FRAGMENTS) }),
  fc.record({ kind: fc.constant('bytes' as const), at: fc.nat(), text: fc.string({ maxLength: 12 }) }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), length: fc.nat({ max: 60 }) }),
);

function mutate(source: string, steps: Mutation[]): string {
  let s = source;
  for (const m of steps) {
    const at = s.length ? m.at % s.length : 0;
    if (m.kind === 'cut') s = s.slice(0, at) + s.slice(at + m.length);
    else if (m.kind === 'repeat')
      s = s.slice(0, at + m.length) + s.slice(at, at + m.length) + s.slice(at + m.length);
    else s = s.slice(0, at) + m.text + s.slice(at);
  }
  return s;
}
type Mutation =
  | { kind: 'cut'; at: number; length: number }
  | { kind: 'repeat'; at: number; length: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'bytes'; at: number; text: string };

describe('the ZPL reader on mutated corpus labels', () => {
  it('answers labels and warnings, or a ZplBudgetError; every label it answers draws', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: SOURCES.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        (index, steps) => {
          const zpl = mutate(SOURCES[index]!, steps);
          try {
            const { labels, warnings } = readZpl(zpl, {
              fonts,
              dpi: 203,
              budgets: { maxCopies: 20, maxSerialCopies: 3, maxLabelInches: 8, maxGraphicBytes: 64 * 1024 },
            });
            expect(Array.isArray(warnings)).toBe(true);
            for (const label of labels) {
              for (const w of label.warnings) expect(w.message.length).toBeGreaterThan(0);
              const dots = renderMono(label.scene, fonts);
              expect(dots.width).toBe(label.scene.width);
            }
          } catch (e) {
            expect(e).toBeInstanceOf(ZplBudgetError);
            expect((e as ZplBudgetError).message).toMatch(/\w/);
          }
        },
      ),
      { numRuns: 60, seed: 33 },
    );
  }, 120_000);
});
