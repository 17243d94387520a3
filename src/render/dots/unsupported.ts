/** A scene this rasteriser cannot draw faithfully; the caller renders it another way (resvg). */
export class MonoUnsupported extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MonoUnsupported';
  }
}
