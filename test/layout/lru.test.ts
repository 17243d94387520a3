import { expect, it } from 'vitest';
import { LruCache } from '../../src/layout/lru';

it('keeps the most recently used entries and evicts the oldest', () => {
  const lru = new LruCache<string, number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  expect(lru.get('a')).toBe(1); // 'a' is now the most recent
  lru.set('c', 3);
  expect(lru.get('b')).toBeUndefined();
  expect([lru.get('a'), lru.get('c'), lru.size]).toEqual([1, 3, 2]);
});

it('never evicts an entry looked up at least once every capacity / 2 insertions', () => {
  const lru = new LruCache<number, string>(100);
  lru.set(-1, 'hot');
  lru.set(-2, 'cold');
  for (let i = 0; i < 1000; i++) {
    lru.set(i, String(i));
    if (i % 50 === 0) expect(lru.get(-1)).toBe('hot');
  }
  expect(lru.get(-2)).toBeUndefined();
  expect(lru.size).toBe(100);
});
