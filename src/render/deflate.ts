/**
 * The zlib compressor the renderers take as a port: `:Z64:` data (src/zpl/gfa.ts) and PDF /FlateDecode streams
 * (src/render/pdf/writer) are zlib streams (RFC 1950). Node injects native zlib (src/node/render-ports.ts); each
 * renderer has a pure-JS default that runs anywhere.
 *
 * `rowBytes` is given when the bytes are the rows of a 1-bit bitmap (`^GFA` data), so a compressor may tune its
 * search to the row length; any valid zlib stream is correct.
 */
export type Deflate = (bytes: Uint8Array, rowBytes?: number) => Uint8Array;
