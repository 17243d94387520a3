/**
 * The desktop app's SecretCipher: Electron's `safeStorage` (macOS Keychain, Windows DPAPI, Linux libsecret or
 * KWallet). `isEncryptionAvailable()` is not enough on Linux: without a keyring Electron falls back to the
 * `basic_text` backend, which "encrypts" with a fixed password anyone can know. There (and where nothing is
 * available) the cipher says the secret cannot be protected; the settings then offer to keep it for the
 * session only (main/app/secret-store.ts).
 */
import { SecretNotProtectedError, type SecretCipher } from '../app/secret-store';

/** The part of Electron's `safeStorage` used here (Electron's own object fits it). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Linux backends that protect nothing: a fixed password, or none Electron could name. */
const UNPROTECTED_LINUX_BACKENDS = new Set(['basic_text', 'unknown']);

export function safeStorageCipher(safeStorage: SafeStorageLike, platform: NodeJS.Platform): SecretCipher {
  const unprotectedReason = (): string | null => {
    if (!safeStorage.isEncryptionAvailable()) {
      return 'This computer offers no secure storage for the API secret: keep it for this session only, or set up the system keychain and restart LabelDesk.';
    }
    const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend?.() : undefined;
    if (backend !== undefined && UNPROTECTED_LINUX_BACKENDS.has(backend)) {
      return 'This desktop has no keyring to protect the API secret with (it would be stored under a fixed password): keep it for this session only, or set up GNOME Keyring or KWallet and restart LabelDesk.';
    }
    return null;
  };
  return {
    kind: 'electron-safe-storage',
    unprotectedReason,
    encrypt(plain) {
      const reason = unprotectedReason();
      if (reason) throw new SecretNotProtectedError(reason);
      return safeStorage.encryptString(plain);
    },
    decrypt: (data) => safeStorage.decryptString(Buffer.from(data)),
  };
}
