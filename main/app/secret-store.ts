/**
 * Where the hosted API secret lives: main only, never in settings, logs or anything sent to the renderer.
 * The file holds the secret as the injected cipher left it: Electron's `safeStorage` (OS keychain / DPAPI /
 * libsecret) in the desktop app. Web mode (`npm run web`, a developer and test tool) has no OS keychain: it
 * stores the secret unencrypted in a file only the user can read (0600), and says so in its help.
 *
 * A desktop whose keychain cannot protect the secret (Linux without a keyring: Electron's `basic_text`
 * backend encrypts with a fixed password) refuses to store it; the user may keep it for this session only,
 * in memory, gone when LabelDesk quits.
 */
import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from '../../src/node/files/atomic-file';

export interface SecretCipher {
  /** `electron-safe-storage` or `plain-file`: what protects the secret at rest. */
  readonly kind: string;
  /** A sentence saying why a secret stored now would not be protected, or null when it would be. */
  unprotectedReason(): string | null;
  encrypt(plain: string): Uint8Array;
  decrypt(data: Uint8Array): string;
}

/** `stored`: at rest through the cipher; `session`: in memory until LabelDesk quits. */
export type SecretKeeping = 'stored' | 'session';

export interface SecretStore {
  get(): Promise<string | null>;
  /**
   * Stores (or, with null, forgets) the secret; `stored` throws SecretNotProtectedError where the cipher
   * cannot protect it.
   */
  set(secret: string | null, keeping?: SecretKeeping): Promise<void>;
  /** How the current secret is kept, or null when there is none. */
  kept(): Promise<SecretKeeping | null>;
  /** Why a secret cannot be stored here (only `session` works), or null. */
  storageProblem(): string | null;
}

/** The cipher cannot protect a secret at rest on this desktop: the message says so and what to do. */
export class SecretNotProtectedError extends Error {
  override name = 'SecretNotProtectedError';
}

/** No encryption: for web mode only (see the file header). */
export const plainCipher: SecretCipher = {
  kind: 'plain-file',
  unprotectedReason: () => null,
  encrypt: (plain) => new TextEncoder().encode(plain),
  decrypt: (data) => new TextDecoder().decode(data),
};

export function fileSecretStore(path: string, cipher: SecretCipher): SecretStore {
  let session: string | null = null;

  const stored = async (): Promise<string | null> => {
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
  };

  return {
    get: async () => session ?? (await stored()),
    async set(secret, keeping = 'stored') {
      if (secret !== null && keeping === 'stored') {
        const problem = cipher.unprotectedReason();
        if (problem) throw new SecretNotProtectedError(problem);
      }
      if (secret === null || keeping === 'session') {
        // A stored secret goes too: the one kept for the session must not be replaced by it after a restart.
        await rm(path, { force: true });
        session = secret;
        return;
      }
      await writeFileAtomic(path, cipher.encrypt(secret));
      session = null;
    },
    async kept() {
      if (session !== null) return 'session';
      return (await stored()) === null ? null : 'stored';
    },
    storageProblem: () => cipher.unprotectedReason(),
  };
}
