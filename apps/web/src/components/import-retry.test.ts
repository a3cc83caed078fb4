import { describe, expect, it, vi } from 'vitest';
import { ApiError, readError } from '../api/client';
import { withRetry } from './import-retry';

const tooMany = (seconds?: number) => new ApiError(429, 'Too many requests, try again in 2 seconds', seconds);

describe('withRetry (imports)', () => {
  it("waits the server's Retry-After on 429 and 503 and sends the same record again until it is stored", async () => {
    const answers: Array<ApiError | 'imported'> = [
      tooMany(2),
      new ApiError(503, 'Too many exports and full lists are waiting, try again in 5 seconds', 5),
      tooMany(),
      'imported',
    ];
    const attempt = vi.fn(async () => {
      const next = answers.shift()!;
      if (next instanceof ApiError) throw next;
      return next;
    });
    const sleep = vi.fn(async () => {});
    const onWait = vi.fn();
    await expect(withRetry(attempt, { stopped: () => false, sleep, onWait })).resolves.toBe('imported');
    expect(attempt).toHaveBeenCalledTimes(4);
    // Retry-After in seconds; one second when the answer named none.
    expect(sleep.mock.calls).toEqual([[2000], [5000], [1000]]);
    expect(onWait.mock.calls).toEqual([[2000], [5000], [1000]]);
  });

  it('does not retry other errors, nor once the import was stopped', async () => {
    const bad = new ApiError(400, 'duplicate event ID');
    await expect(withRetry(() => Promise.reject(bad), { stopped: () => false, sleep: async () => {} })).rejects.toBe(
      bad,
    );
    let stopped = false;
    const attempt = vi.fn(() => Promise.reject(tooMany(1)));
    const result = withRetry(attempt, {
      stopped: () => stopped,
      sleep: async () => {
        stopped = true;
      },
    });
    await expect(result).rejects.toMatchObject({ statusCode: 429 });
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it("reads Retry-After from the server's answer", async () => {
    const res = new Response(
      JSON.stringify({
        statusCode: 429,
        error: 'Too Many Requests',
        message: 'Too many requests, try again in 3 seconds',
      }),
      { status: 429, headers: { 'retry-after': '3', 'content-type': 'application/json' } },
    );
    const err = await readError(res);
    expect(err).toMatchObject({ statusCode: 429, retryAfterSeconds: 3 });
    expect((await readError(new Response('', { status: 500 }))).retryAfterSeconds).toBeUndefined();
  });
});
