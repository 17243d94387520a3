/**
 * When the desktop app's cipher says the API secret cannot be protected: Linux's `basic_text` (a fixed
 * password) and `unknown` backends, or no encryption at all; a keyring, macOS and Windows protect it.
 * `safeStorage` is a stand-in (Electron's binary cannot run here) with the same methods.
 */
import { describe, expect, it } from 'vitest';
import { safeStorageCipher, type SafeStorageLike } from '../../../main/electron/safe-storage-cipher';
import { SecretNotProtectedError } from '../../../main/app/secret-store';

const storage = (available: boolean, backend: string): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  getSelectedStorageBackend: () => backend,
  encryptString: (s) => Buffer.from(s).reverse(),
  decryptString: (b) => Buffer.from(b).reverse().toString(),
});

describe('safeStorage cipher', () => {
  it('protects with a keyring on Linux, and on macOS and Windows', () => {
    for (const [backend, platform] of [
      ['gnome_libsecret', 'linux'],
      ['kwallet6', 'linux'],
      ['basic_text', 'darwin'], // the backend is a Linux notion; elsewhere the OS store is used
      ['unknown', 'win32'],
    ] as const) {
      const cipher = safeStorageCipher(storage(true, backend), platform);
      expect(cipher.unprotectedReason(), `${platform} ${backend}`).toBeNull();
      expect(cipher.decrypt(cipher.encrypt('sk-1'))).toBe('sk-1');
    }
  });

  it('says why it cannot on Linux without a keyring, or with no encryption at all, and encrypts nothing', () => {
    for (const [available, backend, words] of [
      [true, 'basic_text', /no keyring.*keep it for this session only.*GNOME Keyring or KWallet/],
      [true, 'unknown', /no keyring/],
      [false, 'gnome_libsecret', /no secure storage.*keep it for this session only/],
    ] as const) {
      const cipher = safeStorageCipher(storage(available, backend), 'linux');
      expect(cipher.unprotectedReason()).toMatch(words);
      expect(() => cipher.encrypt('sk-1')).toThrow(SecretNotProtectedError);
    }
  });
});
