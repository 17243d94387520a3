/** zpl-image ships no types; the two functions the bench calls. */
declare module 'zpl-image' {
  interface Converted {
    length: number;
    rowlen: number;
    width: number;
    height: number;
  }
  interface Options {
    black?: number;
    rotate?: 'N' | 'L' | 'R' | 'I' | 'B';
    notrim?: boolean;
  }
  const zplImage: {
    rgbaToZ64(rgba: Uint8Array, width: number, opts?: Options): Converted & { z64: string };
    rgbaToACS(rgba: Uint8Array, width: number, opts?: Options): Converted & { acs: string };
  };
  export default zplImage;
}
