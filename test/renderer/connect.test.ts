import { describe, expect, it } from 'vitest';
import { takeWebToken } from '../../renderer/src/ipc/connect';

function fakeWindow(href: string) {
  const storage = new Map<string, string>();
  const win = {
    location: { href },
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    },
    history: {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => {
        win.location.href = new URL(url, win.location.href).href;
      },
    },
  };
  return win;
}

describe('web-mode token', () => {
  it('takes the token from the address, keeps it for reloads and strips it from the address bar', () => {
    const win = fakeWindow('http://127.0.0.1:5170/?token=abc123&x=1#/history');
    expect(takeWebToken(win as unknown as Window)).toBe('abc123');
    expect(win.location.href).toBe('http://127.0.0.1:5170/?x=1#/history');
    expect(takeWebToken(win as unknown as Window)).toBe('abc123');
  });
});
