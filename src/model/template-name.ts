/**
 * Whether a template name can be a file name: the app saves a user template as `<name>.json` in the user's
 * folder and its revisions in `.revisions/<name>/`, so a name must be one file name on every system LabelDesk
 * runs on. The template schema is more lenient (hosted templates are named by their service); this check
 * applies where LabelDesk writes a file under the name (save, duplicate, import), and the designer's name box
 * shows the same sentence before a save is tried.
 */

/** Windows reserves these device names, with any extension (`CON.json`, `nul.txt`), in any case. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
/** Characters no Windows file name may hold, path separators, and control characters. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]/;
/** `<name>.json` must fit the 255-byte file-name limit of common file systems, with room to spare. */
export const MAX_TEMPLATE_FILE_NAME_BYTES = 200;

/** Why `name` cannot be a template's file name, as a sentence; null when it can. */
export function templateFileNameProblem(name: string): string | null {
  if (name.trim() === '') return 'a template needs a name';
  const bad = FORBIDDEN.exec(name);
  if (bad) {
    const ch = bad[0];
    const shown = ch.charCodeAt(0) < 0x20 || ch === '\u007f' ? 'a control character' : `"${ch}"`;
    return `a template name cannot contain ${shown} (it is the name of a file)`;
  }
  if (name.startsWith('.')) return 'a template name cannot start with "." (it would be a hidden file)';
  if (/[ .]$/.test(name)) return 'a template name cannot end with a space or "."';
  if (name !== name.trimStart()) return 'a template name cannot start with a space';
  if (WINDOWS_RESERVED.test(name)) return `"${name}" is a name Windows keeps for a device: choose another`;
  if (new TextEncoder().encode(name).length > MAX_TEMPLATE_FILE_NAME_BYTES)
    return `a template name can be at most ${MAX_TEMPLATE_FILE_NAME_BYTES} bytes long`;
  return null;
}
