/**
 * A durable, ordered queue of writes that must reach the server even when the ship's link is
 * down ("never lose an event", docs/screens.md#offline-logging). Every write is stored first (IndexedDB, see
 * offline-queue-idb.ts) and then sent in order by one flusher per browser; a write that cannot
 * be sent yet stays stored, survives reloads and browser restarts, and is retried with backoff.
 *
 * The queue knows nothing about HTTP: a `Sender` sends one operation and says whether it was
 * sent, must be retried later, or was refused for good (kept, shown, until discarded).
 *
 * Coalescing: an update or delete for an event whose create (or earlier update) has not been
 * picked up for sending yet is folded into it (a cancelled options modal leaves nothing to send).
 * Once the flusher has claimed an operation it is never changed again; later writes are appended
 * and sent after it. Claims and merges happen inside one storage transaction, so two tabs cannot
 * both change the same record.
 */

export type QueuedOpKind = 'create' | 'update' | 'delete' | 'attach';

export interface QueuedOp {
  /** Storage key; increases with every add, which gives the send order. */
  seq: number;
  kind: QueuedOpKind;
  /** The record the write is about (events get their id on the client, at click time). */
  eventId: string;
  /** create: the whole record; update: the fields to change; attach: the file and its name; delete: none. */
  body?: Record<string, unknown>;
  queuedAt: number;
  attempts: number;
  /** Set when a flusher picked the operation up; from then on it is never merged into. */
  claimedAt?: number;
  /** The last reason a send did not go through (network, server down). */
  lastError?: string;
  /** Refused for good by the server: kept and shown until the user discards it. */
  failed?: string;
}

export type NewQueuedOp = Omit<QueuedOp, 'seq'>;

/** One change a transaction makes. */
export type QueueChange =
  { type: 'add'; op: NewQueuedOp } | { type: 'put'; op: QueuedOp } | { type: 'remove'; seq: number };

export interface QueueStorage {
  /**
   * Reads every operation (in seq order), lets `plan` decide the changes from them, applies the
   * changes atomically and returns the operations after it plus the plan's result. `durable`
   * asks that the changes be on disk before it resolves (a new event); bookkeeping (claims,
   * attempts) may be written lazily, since losing it only causes a harmless resend.
   */
  transact<R>(
    plan: (ops: readonly QueuedOp[]) => { changes: QueueChange[]; result: R },
    opts?: { durable?: boolean },
  ): Promise<{ ops: QueuedOp[]; result: R }>;
}

/** Applies changes to a list (used by the memory storage, and by the IndexedDB one for its answer). */
export function applyChanges(
  ops: readonly QueuedOp[],
  changes: readonly QueueChange[],
  newSeqs: readonly number[],
): QueuedOp[] {
  const bySeq = new Map(ops.map((op) => [op.seq, op]));
  let added = 0;
  for (const change of changes) {
    if (change.type === 'remove') bySeq.delete(change.seq);
    else if (change.type === 'put') bySeq.set(change.op.seq, change.op);
    else {
      const seq = newSeqs[added++]!;
      bySeq.set(seq, { ...change.op, seq });
    }
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** In-memory storage: tests, and browsers without IndexedDB (then the queue lasts a page's life). */
export class MemoryQueueStorage implements QueueStorage {
  private ops: QueuedOp[] = [];
  private nextSeq = 1;

  async transact<R>(plan: (ops: readonly QueuedOp[]) => { changes: QueueChange[]; result: R }) {
    const { changes, result } = plan(this.ops.map((op) => ({ ...op })));
    const seqs = changes.filter((c) => c.type === 'add').map(() => this.nextSeq++);
    this.ops = applyChanges(this.ops, changes, seqs);
    return { ops: this.ops.map((op) => ({ ...op })), result };
  }
}

// ---- the rules, as pure functions over the stored list -------------------------------------

function lastOpenOpFor(ops: readonly QueuedOp[], eventId: string): QueuedOp | undefined {
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i]!;
    if (op.eventId === eventId && !op.failed) return op;
  }
  return undefined;
}

/** An update: folded into the event's unclaimed create or update, else appended. */
export function planUpdate(
  ops: readonly QueuedOp[],
  eventId: string,
  patch: Record<string, unknown>,
  now: number,
): QueueChange[] {
  const last = lastOpenOpFor(ops, eventId);
  if (last && !last.claimedAt && (last.kind === 'create' || last.kind === 'update')) {
    return [{ type: 'put', op: { ...last, body: { ...last.body, ...patch } } }];
  }
  return [{ type: 'add', op: { kind: 'update', eventId, body: patch, queuedAt: now, attempts: 0 } }];
}

/**
 * A delete: when the event's create was never picked up, the create and its updates simply go
 * (nothing ever reached the server); otherwise unclaimed updates and attachments go and a delete
 * is appended.
 */
export function planDelete(ops: readonly QueuedOp[], eventId: string, now: number): QueueChange[] {
  const mine = ops.filter((op) => op.eventId === eventId && !op.failed);
  const create = mine.find((op) => op.kind === 'create');
  if (create && !create.claimedAt) return mine.map((op) => ({ type: 'remove', seq: op.seq }));
  const changes: QueueChange[] = mine
    .filter((op) => (op.kind === 'update' || op.kind === 'attach') && !op.claimedAt)
    .map((op) => ({ type: 'remove', seq: op.seq }));
  if (!mine.some((op) => op.kind === 'delete')) {
    changes.push({ type: 'add', op: { kind: 'delete', eventId, queuedAt: now, attempts: 0 } });
  }
  return changes;
}

/** The next operation to send: the oldest that has not failed for good. */
export function planClaim(ops: readonly QueuedOp[], now: number): { changes: QueueChange[]; result: QueuedOp | null } {
  const next = ops.find((op) => !op.failed);
  if (!next) return { changes: [], result: null };
  const claimed = { ...next, claimedAt: next.claimedAt ?? now };
  return { changes: [{ type: 'put', op: claimed }], result: claimed };
}

// ---- the queue ----------------------------------------------------------------------------

export type SendResult =
  { status: 'sent'; response?: unknown } | { status: 'retry'; message: string } | { status: 'failed'; message: string };

export type Sender = (op: QueuedOp) => Promise<SendResult>;

export interface OfflineQueueOptions {
  /** Backoff after a failed attempt: first delay and cap, ms. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Name of the Web Lock and BroadcastChannel shared by the tabs of one browser. */
  channelName?: string;
  now?: () => number;
}

type Listener = () => void;
type SentListener = (op: QueuedOp, response: unknown) => void;

export class OfflineQueue {
  private snapshot: readonly QueuedOp[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly sentListeners = new Set<SentListener>();
  private loaded: Promise<void> | null = null;
  private flushing = false;
  private flushAgain = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay: number;
  private started = false;
  private channel: BroadcastChannel | null = null;
  private readonly opts: Required<OfflineQueueOptions>;

  constructor(
    private readonly storage: QueueStorage,
    private readonly sender: Sender,
    opts: OfflineQueueOptions = {},
  ) {
    this.opts = {
      retryBaseMs: opts.retryBaseMs ?? 1000,
      retryMaxMs: opts.retryMaxMs ?? 5000,
      channelName: opts.channelName ?? 'bathylog-offline-queue',
      now: opts.now ?? Date.now,
    };
    this.retryDelay = this.opts.retryBaseMs;
  }

  /** Loads the stored operations and starts sending; safe to call many times. */
  start(): Promise<void> {
    if (!this.started) {
      this.started = true;
      if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
      if (typeof BroadcastChannel !== 'undefined') {
        this.channel = new BroadcastChannel(this.opts.channelName);
        // Another tab changed the queue: reread it (its flusher may also have sent ours).
        this.channel.onmessage = () => void this.reload();
      }
      void this.ensureLoaded().then(() => this.flush());
    }
    return this.ensureLoaded();
  }

  /** Stops timers and listeners (tests). */
  stop(): void {
    this.started = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    this.channel?.close();
    this.channel = null;
  }

  private readonly onOnline = () => this.retryNow();

  private ensureLoaded(): Promise<void> {
    this.loaded ??= this.reload();
    return this.loaded;
  }

  private async reload(): Promise<void> {
    const { ops } = await this.storage.transact(() => ({ changes: [], result: null }));
    this.setSnapshot(ops, false);
  }

  private setSnapshot(ops: readonly QueuedOp[], broadcast = true): void {
    this.snapshot = ops;
    if (broadcast) this.channel?.postMessage('changed');
    for (const l of this.listeners) l();
  }

  /** The stored operations, oldest first (for useSyncExternalStore: same array until a change). */
  getSnapshot = (): readonly QueuedOp[] => this.snapshot;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Called after each operation the server accepted, with its answer. */
  onSent(listener: SentListener): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  private async change(plan: (ops: readonly QueuedOp[]) => QueueChange[]): Promise<void> {
    if (!this.started) void this.start();
    await this.ensureLoaded();
    const { ops } = await this.storage.transact((current) => ({ changes: plan(current), result: null }), {
      durable: true,
    });
    this.setSnapshot(ops);
    void this.flush();
  }

  /** Stores a new record to create. Resolves once it is stored (not sent). */
  enqueueCreate(eventId: string, body: Record<string, unknown>): Promise<void> {
    const now = this.opts.now();
    return this.change(() => [{ type: 'add', op: { kind: 'create', eventId, body, queuedAt: now, attempts: 0 } }]);
  }

  enqueueUpdate(eventId: string, patch: Record<string, unknown>): Promise<void> {
    const now = this.opts.now();
    return this.change((ops) => planUpdate(ops, eventId, patch, now));
  }

  /** Stores a file to attach to the record; sent after every earlier write (its create first). */
  enqueueAttach(eventId: string, body: Record<string, unknown>): Promise<void> {
    const now = this.opts.now();
    return this.change(() => [{ type: 'add', op: { kind: 'attach', eventId, body, queuedAt: now, attempts: 0 } }]);
  }

  enqueueDelete(eventId: string): Promise<void> {
    const now = this.opts.now();
    return this.change((ops) => planDelete(ops, eventId, now));
  }

  /** Drops an operation the server refused for good. */
  discard(seq: number): Promise<void> {
    return this.change(() => [{ type: 'remove', seq }]);
  }

  /** Tries to send now instead of waiting for the next retry (link back, user asked). */
  retryNow(): void {
    this.retryDelay = this.opts.retryBaseMs;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.flush();
  }

  private scheduleRetry(): void {
    if (!this.started || this.retryTimer) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, this.opts.retryMaxMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flush();
    }, delay);
  }

  /** Sends stored operations in order until the queue is empty or a send must wait. */
  async flush(): Promise<void> {
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    this.flushing = true;
    try {
      await this.ensureLoaded();
      await withLock(this.opts.channelName, () => this.sendAll());
    } finally {
      this.flushing = false;
      if (this.flushAgain) {
        this.flushAgain = false;
        void this.flush();
      }
    }
  }

  private async sendAll(): Promise<void> {
    // A stopped queue (a page going away) claims nothing more.
    while (this.started) {
      const claim = await this.storage.transact((ops) => planClaim(ops, this.opts.now()));
      this.setSnapshot(claim.ops, false);
      const op = claim.result;
      if (!op) return;
      let result: SendResult;
      try {
        result = await this.sender(op);
      } catch (err) {
        result = { status: 'retry', message: err instanceof Error ? err.message : String(err) };
      }
      if (result.status === 'retry') {
        const { ops } = await this.storage.transact((current) => {
          const stored = current.find((o) => o.seq === op.seq);
          return {
            changes: stored
              ? [{ type: 'put', op: { ...stored, attempts: stored.attempts + 1, lastError: result.message } }]
              : [],
            result: null,
          };
        });
        this.setSnapshot(ops);
        this.scheduleRetry();
        return;
      }
      this.retryDelay = this.opts.retryBaseMs;
      const { ops } = await this.storage.transact((current) => {
        const stored = current.find((o) => o.seq === op.seq);
        if (!stored) return { changes: [], result: null };
        if (result.status === 'sent') return { changes: [{ type: 'remove', seq: op.seq }], result: null };
        return {
          changes: [{ type: 'put', op: { ...stored, attempts: stored.attempts + 1, failed: result.message } }],
          result: null,
        };
      });
      this.setSnapshot(ops);
      if (result.status === 'sent') for (const l of this.sentListeners) l(op, result.response);
    }
  }
}

/** One flusher per browser: the Web Locks API where there is one (all modern browsers). */
async function withLock(name: string, fn: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (!locks) return fn();
  await locks.request(name, () => fn());
}
