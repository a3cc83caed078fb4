import { describe, expect, it } from 'vitest';
import { keysetWalk, type Keyset } from './event-queries.js';

/** A walk over the numbers 0..total-1 as rows (ts = id = the number), logging each read. */
function numbers(total: number, log: string[], failAt?: number) {
  return async (after: Keyset | undefined, skip: number, take: number) => {
    const from = (after ? after.ts + 1 : 0) + skip;
    log.push(`read ${from}+${take}`);
    await new Promise((r) => setTimeout(r, 1));
    if (failAt !== undefined && from >= failAt) throw new Error(`read at ${from} failed`);
    const out: number[] = [];
    for (let i = from; i < Math.min(total, from + take); i++) out.push(i);
    const last = out.length ? { ts: out[out.length - 1]!, id: String(out[out.length - 1]) } : undefined;
    return { out, n: out.length, ...(last ? { last } : {}) };
  };
}

async function collect(source: () => AsyncIterable<number[]>, log: string[]): Promise<number[]> {
  const rows: number[] = [];
  for await (const chunk of source()) {
    log.push(`got ${chunk[0]}..${chunk[chunk.length - 1]}`);
    rows.push(...chunk);
  }
  return rows;
}

describe('keysetWalk', () => {
  it('reads the page in chunks, offset on the first only, up to the limit', async () => {
    for (const prefetch of [false, true]) {
      const log: string[] = [];
      const rows = await collect(keysetWalk({ offset: 3, limit: 7 }, 3, numbers(100, log), { prefetch }), log);
      expect(rows).toEqual([3, 4, 5, 6, 7, 8, 9]);
      expect(log.filter((l) => l.startsWith('read'))).toEqual(['read 3+3', 'read 6+3', 'read 9+1']);
      const all = await collect(keysetWalk({ offset: 0, limit: undefined }, 4, numbers(10, []), { prefetch }), []);
      expect(all).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(await collect(keysetWalk({ offset: 0, limit: 0 }, 4, numbers(10, []), { prefetch }), [])).toEqual([]);
    }
  });

  it('without prefetch, reads the next chunk only after the consumer took the previous one', async () => {
    const log: string[] = [];
    await collect(keysetWalk({ offset: 0, limit: undefined }, 2, numbers(5, log)), log);
    expect(log).toEqual(['read 0+2', 'got 0..1', 'read 2+2', 'got 2..3', 'read 4+2', 'got 4..4']);
  });

  it('with prefetch, the next read is under way while the consumer handles a chunk', async () => {
    const log: string[] = [];
    await collect(keysetWalk({ offset: 0, limit: undefined }, 2, numbers(5, log), { prefetch: true }), log);
    expect(log).toEqual(['read 0+2', 'read 2+2', 'got 0..1', 'read 4+2', 'got 2..3', 'got 4..4']);
  });

  it('turns the event loop between chunks, even when every read is answered at once', async () => {
    // A SQLite read is synchronous: without the turn, a whole export ran before any other request.
    for (const prefetch of [false, true]) {
      const seen: string[] = [];
      const instant = async (after: Keyset | undefined, _skip: number, take: number) => {
        const from = after ? after.ts + 1 : 0;
        const out = [from, from + 1].slice(0, take).filter((n) => n < 6);
        return { out, n: out.length, ...(out.length ? { last: { ts: out[out.length - 1]!, id: '' } } : {}) };
      };
      for await (const chunk of keysetWalk({ offset: 0, limit: undefined }, 2, instant, { prefetch })()) {
        if (chunk[0] === 0) setImmediate(() => seen.push('other request'));
        seen.push(`chunk ${chunk[0]}`);
      }
      expect(seen).toEqual(['chunk 0', 'other request', 'chunk 2', 'chunk 4']);
    }
  });

  it('a failed read ahead fails the walk when reached, and is dropped quietly when the consumer stops', async () => {
    const log: string[] = [];
    await expect(
      collect(keysetWalk({ offset: 0, limit: undefined }, 2, numbers(10, log, 4), { prefetch: true }), log),
    ).rejects.toThrow('read at 4 failed');
    expect(log.filter((l) => l.startsWith('got'))).toEqual(['got 0..1', 'got 2..3']);

    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for await (const chunk of keysetWalk({ offset: 0, limit: undefined }, 2, numbers(10, [], 2), {
        prefetch: true,
      })()) {
        expect(chunk).toEqual([0, 1]);
        break; // the read of 2.. is under way and fails after this
      }
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
