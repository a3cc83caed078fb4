import type { FastifyReply } from 'fastify';
import { AppError } from '../lib/app-error.js';
import type { ByteRange, FileStore } from './file-store.js';

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

/**
 * Answers one stored file after the route's own checks and headers: whole (200) or the byte range
 * asked for (206), streamed from the store; a range past the end is a 416 naming the size, and a
 * file deleted between the route's look-up and this read a 404 saying `missing`.
 */
export async function sendStoredRange(
  store: FileStore,
  reply: FastifyReply,
  file: { key: string; size: number },
  range: ByteRange | 'unsatisfiable' | null,
  missing: string,
): Promise<FastifyReply> {
  if (range === 'unsatisfiable')
    throw new AppError(
      'RANGE_NOT_SATISFIABLE',
      `The file has ${file.size} bytes: the range asked for is past its end`,
      {
        headers: { 'content-range': `bytes */${file.size}` },
      },
    );
  const body = await store.read(file.key, range ?? undefined);
  if (!body) throw new AppError('NOT_FOUND', missing);
  if (!range) return reply.header('content-length', file.size).send(body);
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(body);
}
