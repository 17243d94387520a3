/** Bundles the browser SDK (see build-sdk.mjs). */
export function buildSdk(outfile?: string): Promise<void>;
