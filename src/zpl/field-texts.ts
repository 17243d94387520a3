/**
 * The texts of a ZPL label's fields (`^FD…`), in the order written, without laying the label out: what a person
 * recognises a carrier's label by (the name, the tracking number) in the app's list of a file's labels and in
 * History's summary of a ZPL job. Pure; Latin-1 as the bytes are stored (one char per byte).
 */

/** The first `max` different non-empty `^FD` texts of `zpl`, trimmed, each at most 80 characters. */
export function zplFieldTexts(zpl: string, max: number): string[] {
  const texts: string[] = [];
  for (const m of zpl.matchAll(/\^FD([^^~]*)/g)) {
    const text = (m[1] ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
    // A tracking number is often both the text and the bar code: said once.
    if (text && !texts.includes(text)) texts.push(text);
    if (texts.length >= max) break;
  }
  return texts;
}
