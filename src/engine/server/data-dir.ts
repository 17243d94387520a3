/**
 * Node-only: where `labeldesk serve`, `labeldesk keys` and `labeldesk usage` keep their state (keys.json,
 * usage.json, svg/). `--data-dir DIR` wins, then `$LABELDESK_DATA_DIR`, then the OS's per-user data folder:
 *  - Linux and other Unix: `$XDG_DATA_HOME/labeldesk`, else `~/.local/share/labeldesk`
 *  - macOS: `~/Library/Application Support/LabelDesk/engine`
 *  - Windows: `%LOCALAPPDATA%\LabelDesk\engine` (else `%APPDATA%`)
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function defaultDataDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.LABELDESK_DATA_DIR) return resolve(env.LABELDESK_DATA_DIR);
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'LabelDesk', 'engine');
    case 'win32':
      return join(env.LOCALAPPDATA ?? env.APPDATA ?? join(home, 'AppData', 'Local'), 'LabelDesk', 'engine');
    default:
      return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'labeldesk');
  }
}

/** The files inside a data folder. */
export const dataFiles = (dir: string) => ({
  keys: join(dir, 'keys.json'),
  usage: join(dir, 'usage.json'),
  svg: join(dir, 'svg'),
});
