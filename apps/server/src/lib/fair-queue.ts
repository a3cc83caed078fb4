import { AppError } from './app-error.js';

export interface FairQueueLimits {
  /** How many may run at once. */
  concurrent: number;
  /** How many one caller may have waiting; past it that caller's next one is refused. */
  queuePerCaller: number;
  /** How many may wait in all. */
  queueTotal: number;
}

interface Waiter {
  caller: string;
  grant: (release: () => void) => void;
}

/** The answer to a request that finds the queue full. */
export function queueFullError(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'Too many exports and full lists are waiting, try again in 5 seconds', {
    headers: { 'retry-after': '5' },
  });
}

/**
 * A semaphore whose waiters are served fairly between callers: a free slot goes to the waiting
 * caller that runs the fewest at that moment, and among equals to the one served longest ago, so
 * one client with a hundred exports delays another's single export by at most one export's time.
 * Each caller's own requests keep their order. Waiting is bounded per caller and in all.
 */
export class FairQueue {
  private running = 0;
  private waitingCount = 0;
  private readonly runningBy = new Map<string, number>();
  /** Callers with waiters, in the order they are next considered (served ones move to the end). */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(private readonly limits: FairQueueLimits) {}

  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  /**
   * Resolves with the release of a slot once the caller may run; throws the 503 of
   * `queueFullError` when it would have to wait and may not. `cancel` (once, before the grant)
   * withdraws a waiter, e.g. when its client went away; it answers whether it was still waiting.
   */
  acquire(caller: string): { granted: Promise<() => void>; cancel: () => boolean } {
    if (this.running < this.limits.concurrent && this.waitingCount === 0) {
      return { granted: Promise.resolve(this.start(caller)), cancel: () => false };
    }
    const mine = this.waiting.get(caller);
    if ((mine?.length ?? 0) >= this.limits.queuePerCaller || this.waitingCount >= this.limits.queueTotal) {
      throw queueFullError();
    }
    let waiter!: Waiter;
    const granted = new Promise<() => void>((resolve) => {
      waiter = { caller, grant: resolve };
    });
    if (mine) mine.push(waiter);
    else this.waiting.set(caller, [waiter]);
    this.waitingCount++;
    const cancel = () => {
      const list = this.waiting.get(caller);
      const at = list ? list.indexOf(waiter) : -1;
      if (!list || at < 0) return false;
      list.splice(at, 1);
      if (list.length === 0) this.waiting.delete(caller);
      this.waitingCount--;
      return true;
    };
    return { granted, cancel };
  }

  private start(caller: string): () => void {
    this.running++;
    this.runningBy.set(caller, (this.runningBy.get(caller) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const n = this.runningBy.get(caller)! - 1;
      if (n === 0) this.runningBy.delete(caller);
      else this.runningBy.set(caller, n);
      this.next();
    };
  }

  private next(): void {
    while (this.running < this.limits.concurrent && this.waitingCount > 0) {
      let chosen: string | undefined;
      let fewest = Infinity;
      for (const caller of this.waiting.keys()) {
        const n = this.runningBy.get(caller) ?? 0;
        if (n < fewest) {
          fewest = n;
          chosen = caller;
          if (n === 0) break;
        }
      }
      const list = this.waiting.get(chosen!)!;
      const waiter = list.shift()!;
      this.waiting.delete(chosen!);
      // Served: to the end of the rotation, if it has more waiting.
      if (list.length > 0) this.waiting.set(chosen!, list);
      this.waitingCount--;
      waiter.grant(this.start(waiter.caller));
    }
  }
}
