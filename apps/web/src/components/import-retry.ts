import { isApiError } from '../api/client';

/** Answers that mean "not now": the server's rate limit (429) or a full queue (503). */
const retryStatuses = [429, 503];
/** The wait when such an answer names none. */
const defaultWaitMs = 1000;

export interface RetryOptions {
  /** True once the user stopped the import: no more tries, the record counts as not imported. */
  stopped: () => boolean;
  /** Told each wait before it starts (the dialog shows it). */
  onWait?: (ms: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one record's import, and runs it again after the server's Retry-After each time the server
 * says "too many" or "busy", until it is answered otherwise or the import is stopped. A record is
 * never lost to a limit: the import slows down to the pace the server allows.
 */
export async function withRetry<T>(attempt: () => Promise<T>, opts: RetryOptions): Promise<T> {
  const sleep = opts.sleep ?? realSleep;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!retryStatuses.some((status) => isApiError(err, status)) || opts.stopped()) throw err;
      const seconds = (err as { retryAfterSeconds?: number }).retryAfterSeconds;
      const ms = seconds === undefined ? defaultWaitMs : seconds * 1000;
      opts.onWait?.(ms);
      await sleep(ms);
      if (opts.stopped()) throw err;
    }
  }
}
