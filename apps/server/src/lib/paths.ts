import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The server package's folder (apps/server), found the same way from the sources (src/…) and
 * from the compiled build (dist/main.js): the nearest folder above with a package.json.
 */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const serverRoot = packageRoot(import.meta.dirname);
