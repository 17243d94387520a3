/**
 * Node-only: which images an API request may make the server read. Image URLs can come from `apiData`
 * (a template's `{logo}`), so over HTTP a client could otherwise name any file on the workstation. Local files
 * are allowed only inside the template folders and the app's assets; data: and http(s) URLs are unchanged
 * (http(s) fetches have the image loader's timeout and size cap).
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RenderPorts } from '../../outputs/render';
import { ImageError } from '../../layout/images';

async function real(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

/** `ports` whose image loader refuses local files outside `roots` (relative paths resolve against `baseDir`). */
export function confineImageFiles(
  ports: RenderPorts,
  roots: readonly string[],
  baseDir: string,
): RenderPorts {
  const realRoots = Promise.all(roots.map(real));
  // Other schemes (ftp:, …) are refused by the loader itself; Windows paths (C:\…) are local.
  const isLocal = (url: string) =>
    url.startsWith('file:') || /^[a-z]:[\\/]/i.test(url) || !/^[a-z][a-z0-9+.-]*:/i.test(url);
  return {
    ...ports,
    loadImages: async (urls) => {
      const allowed = await realRoots;
      for (const url of urls.filter(isLocal)) {
        let path: string;
        try {
          path = url.startsWith('file:') ? fileURLToPath(url) : isAbsolute(url) ? url : resolve(baseDir, url);
        } catch {
          throw new ImageError(url, 'is not a valid file URL');
        }
        const target = await real(path);
        if (!allowed.some((root) => target === root || target.startsWith(root + sep))) {
          throw new ImageError(
            url,
            'is a local file outside the template folders, which API requests cannot read',
          );
        }
      }
      return ports.loadImages(urls);
    },
  };
}
