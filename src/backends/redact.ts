/**
 * Secret hygiene. The API secret travels in one header and nowhere else; anything text-like that could reach
 * a message, a log line or a thrown value passes through `redact` first, in case a server (or a proxy) echoes
 * it back.
 */

export const REDACTED = '[redacted]';

/** `text` with every occurrence of each secret replaced (secrets shorter than 4 characters are left: too noisy). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * A fresh Error to keep as a cause: the original's name, code and redacted message, without its own cause
 * chain, stack or attached objects (undici errors may hold sockets and request data).
 */
export function safeCause(e: unknown, secrets: readonly string[]): Error {
  const original = e instanceof Error ? e : new Error(String(e));
  const inner = original.cause instanceof Error ? original.cause : undefined;
  const code = (inner as { code?: unknown } | undefined)?.code ?? (original as { code?: unknown }).code;
  const detail = inner ? `${original.message}: ${inner.message}` : original.message;
  const cause = new Error(redact(detail, secrets));
  cause.name = original.name;
  if (typeof code === 'string') (cause as Error & { code?: string }).code = code;
  return cause;
}

/** The low-level error code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…) of a fetch failure, if any. */
export function errorCode(e: unknown): string | undefined {
  let current: unknown = e;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}
