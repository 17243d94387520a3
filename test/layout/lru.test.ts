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
