import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './schema.js';

/** How a kind of write is done: all of a batch at once (the usual case), or one item alone. */
export interface GroupWriter<Item, Result> {
  /** Writes every item (e.g. multi-row inserts); returns their results in order. May throw. */
  many(trx: Transaction<DB>, items: readonly Item[]): Promise<Result[]>;
  /** Writes one item. */
  one(trx: Transaction<DB>, item: Item): Promise<Result>;
  /**
   * Writes every item in one statement, outside a transaction (a statement is atomic): one round
   * trip for the whole batch where the dialect can (PostgreSQL's data-modifying `WITH`). Used
   * instead of `many` when given; may throw.
   */
  statement?(db: Kysely<DB>, items: readonly Item[]): Promise<Result[]>;
}

interface Job<Item, Result> {
  item: Item;
  resolve(value: Result): void;
  reject(error: unknown): void;
}

/** What became of one item of a batch: its result, or the error that failed it alone. */
export type Outcome<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

/**
 * Writes a batch and commits it; resolves with one outcome per item, in order, once the commit
 * returned. Rejects when the batch as a whole failed (e.g. its commit).
 */
export type BatchWrite<Item, Result> = (items: Item[]) => Promise<Array<Outcome<Result>>>;

/** Writes sharing one commit at most; the rest wait for the next. */
const maxBatch = 256;

/**
 * Group commit (docs/performance.md#durable-event-writes-group-commit): writes that arrive together
 * share one transaction, so one durable commit (one fsync) serves them all. Every caller is
 * answered only after the commit returned, so nothing is acknowledged before it is on disk; when
 * the commit itself fails, every write of the batch fails with it.
 *
 * A batch starts on the next turn of the event loop after the first write arrives, taking what
 * has queued by then; writes arriving meanwhile form the next batch. `concurrency` batches may
 * be in flight at once (PostgreSQL: commits on several connections). How a batch is written is
 * `write`: `writeBatch` on this thread's connection, or on the SQLite write thread
 * (`write-worker.ts`), which keeps the event loop free while SQLite writes and syncs.
 */
export class GroupCommit<Item, Result> {
  private queue: Array<Job<Item, Result>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly writeItems: BatchWrite<Item, Result>,
    private readonly concurrency = 1,
  ) {}

  /** Writes `item` in the next shared transaction; resolves with its result once that has committed. */
  write(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.concurrency || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight >= this.concurrency || this.queue.length === 0) return;
    this.inFlight++;
    const batch = this.queue.splice(0, maxBatch);
    this.schedule();
    try {
      const outcomes = await this.writeItems(batch.map((job) => job.item));
      batch.forEach((job, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.error);
      });
    } catch (error) {
      for (const job of batch) job.reject(error);
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }
}

/**
 * Writes a batch on `db`: at once, in one statement (`statement`) or else in one transaction (no
 * savepoint: on PostgreSQL each statement is a round trip). When writing it fails, that transaction is rolled back and the items are
 * written again in a new one, each alone in its own savepoint (`one`): an item that fails is
 * rolled back alone and only its caller gets the error; the others still commit. A failed commit
 * fails the whole batch (rejects).
 */
export async function writeBatch<Item, Result>(
  db: Kysely<DB>,
  writer: GroupWriter<Item, Result>,
  items: readonly Item[],
): Promise<Array<Outcome<Result>>> {
  if (writer.statement) {
    try {
      const values = await writer.statement(db, items);
      return values.map((value) => ({ ok: true, value }) as const);
    } catch (error) {
      // Alone: its failure is its own answer.
      if (items.length === 1) throw error;
    }
    return db.transaction().execute((trx) => writeEach(trx, writer, items));
  }
  let writeFailed = false;
  try {
    return await db.transaction().execute(async (trx) => {
      try {
        // Alone: its failure rolls back the transaction and is its own answer.
        if (items.length === 1) return [{ ok: true, value: await writer.one(trx, items[0]!) }];
        const values = await writer.many(trx, items);
        return values.map((value) => ({ ok: true, value }) as const);
      } catch (error) {
        writeFailed = items.length > 1;
        throw error;
      }
    });
  } catch (error) {
    if (!writeFailed) throw error;
  }
  return db.transaction().execute((trx) => writeEach(trx, writer, items));
}

async function writeEach<Item, Result>(
  trx: Transaction<DB>,
  writer: GroupWriter<Item, Result>,
  items: readonly Item[],
): Promise<Array<Outcome<Result>>> {
  const outcomes: Array<Outcome<Result>> = [];
  for (const item of items) {
    await sql`SAVEPOINT group_write`.execute(trx);
    try {
      const value = await writer.one(trx, item);
      await sql`RELEASE SAVEPOINT group_write`.execute(trx);
      outcomes.push({ ok: true, value });
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT group_write`.execute(trx);
      await sql`RELEASE SAVEPOINT group_write`.execute(trx);
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}
