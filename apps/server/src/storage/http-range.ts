import type { ByteRange } from './file-store.js';

/**
 * The one byte range of an HTTP `Range` header for a file of `size` bytes:
 * `bytes=a-b`, `bytes=a-` or `bytes=-n`. `null` when the header is absent, not a bytes range, or
 * names several ranges (answered with the whole file, as the RFC allows); `'unsatisfiable'` when it
 * starts past the end (a 416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}
