/**
 * Where the hosted API secret lives: main only, never in settings, logs or anything sent to the renderer.
 * The file holds the secret as the injected cipher left it: Electron's `safeStorage` (OS keychain / DPAPI /
 * libsecret) in the desktop app. Web mode (`npm run web`, a developer and test tool) has no OS keychain: it
 * stores the secret unencrypted in a file only the user can read (0600), and says so in its help.
 */
import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from '../../src/engine/server/atomic-file';

export interface SecretCipher {
  /** `electron-safe-storage` or `plain-file`: what protects the secret at rest. */
  readonly kind: string;
  encrypt(plain: string): Uint8Array;
  decrypt(data: Uint8Array): string;
}

export interface SecretStore {
  get(): Promise<string | null>;
  set(secret: string | null): Promise<void>;
}

/** No encryption: for web mode only (see the file header). */
export const plainCipher: SecretCipher = {
  kind: 'plain-file',
  encrypt: (plain) => new TextEncoder().encode(plain),
  decrypt: (data) => new TextDecoder().decode(data),
};

export function fileSecretStore(path: string, cipher: SecretCipher): SecretStore {
  return {
    async get() {
      let data: Uint8Array;
      try {
        data = await readFile(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
      try {
        return cipher.decrypt(data);
      } catch {
        // Encrypted by another user or machine (a copied profile): unusable, so as good as absent.
        return null;
      }
    },
    async set(secret) {
      if (secret === null) {
        await rm(path, { force: true });
        return;
      }
      await writeFileAtomic(path, cipher.encrypt(secret));
    },
  };
}
