import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One file of the built dashboard, held in memory. */
export interface DashboardAsset {
  readonly body: Uint8Array;
  readonly contentType: string;
  /** A content-hashed file (under `assets/`): cacheable for ever. */
  readonly immutable: boolean;
}

/** The built dashboard: its files by path relative to `/dashboard/` (`index.html`, `assets/…`). */
export type DashboardAssets = ReadonlyMap<string, DashboardAsset>;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** The directory the server's build copies the dashboard into: `dist/dashboard` beside the bundle. */
export function defaultDashboardDir(): string {
  return fileURLToPath(new URL('./dashboard/', import.meta.url));
}

/**
 * Reads a built dashboard (`apps/dashboard`'s `vite build` output) into memory: a handful of
 * small files, served without touching the disk again. Source maps and unknown file types are
 * left out.
 *
 * @param dir - the directory holding `index.html` and `assets/`
 * @returns the assets, or undefined when `dir` holds no `index.html`
 */
export function loadDashboardAssets(dir: string): DashboardAssets | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const assets = new Map<string, DashboardAsset>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      const contentType = CONTENT_TYPES[extname(name)];
      if (contentType === undefined) continue;
      const key = relative(dir, path).split(sep).join('/');
      assets.set(key, {
        body: readFileSync(path),
        contentType,
        immutable: key.startsWith('assets/'),
      });
    }
  };
  walk(dir);
  return assets;
}
