import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Path safety for everything the file routes touch. A request path or an uploaded file name is
 * accepted only as plain name segments; the joined path must stay under its root, and so must its
 * real path once symlinks are resolved.
 */

const maxNameBytes = 255;
// eslint-disable-next-line no-control-regex
const forbidden = /[\u0000-\u001f\u007f/\\]/;

/** One path segment or file name: not empty, not `.` or `..`, no separators or control characters. */
export function isSafeName(name: string): boolean {
  return (
    name.length > 0 &&
    name !== '.' &&
    name !== '..' &&
    !forbidden.test(name) &&
    Buffer.byteLength(name, 'utf8') <= maxNameBytes
  );
}

/** Splits a relative request path (`a/b.jpg`) into safe segments, or null when any is unsafe. */
export function safeSegments(relPath: string): string[] | null {
  if (relPath.length === 0 || relPath.startsWith('/')) return null;
  const segments = relPath.split('/');
  return segments.every(isSafeName) ? segments : null;
}

/**
 * The name to store an upload under: the last component of what the browser sent (some send a
 * full Windows path), or null when nothing safe remains.
 */
export function uploadFileName(raw: string | undefined): string | null {
  if (!raw) return null;
  const name = raw.split(/[\\/]/).pop()!.trim();
  return isSafeName(name) ? name : null;
}

function isInside(root: string, target: string): boolean {
  return target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** `root/segments…`, checked to be under root by name; null when not. */
export function joinInside(root: string, segments: readonly string[]): string | null {
  const target = path.resolve(root, ...segments);
  return isInside(path.resolve(root), target) ? target : null;
}

/**
 * The real path of `root/segments…` when it exists and, with symlinks resolved, is still under
 * the real root; otherwise null.
 */
export async function resolveExistingInside(root: string, segments: readonly string[]): Promise<string | null> {
  const joined = joinInside(root, segments);
  if (!joined) return null;
  try {
    const [realRoot, realTarget] = await Promise.all([realpath(root), realpath(joined)]);
    return isInside(realRoot, realTarget) ? realTarget : null;
  } catch {
    return null;
  }
}
