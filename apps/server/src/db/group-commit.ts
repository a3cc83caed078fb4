import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './schema.js';

/** How a kind of write is done: all of a batch at once (the usual case), or one item alone. */
export interface GroupWriter<Item, Result> {
  /** Writes every item (e.g. multi-row inserts); returns their results in order. May throw. */
  many(trx: Transaction<DB>, items: readonly Item[]): Promise<Result[]>;
  /** Writes one item. */
  one(trx: Transaction<DB>, item: Item): Promise<Result>;
}

interface Job<Item, Result> {
  item: Item;
  resolve(value: Result): void;
  reject(error: unknown): void;
}

type Outcome<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

/** Writes sharing one commit at most; the rest wait for the next. */
const maxBatch = 256;

/**
 * Group commit (issue 13): writes that arrive together share one transaction, so one durable
 * commit (one fsync) serves them all. Every caller is answered only after the commit returned,
 * so nothing is acknowledged before it is on disk; when the commit itself fails, every write of
 * the batch fails with it.
 *
 * A batch is first written at once (`many`). If that fails, its transaction is rolled back and
 * the items are written again in a new one, each alone in its own savepoint (`one`): an item that
 * fails is rolled back alone and only its caller gets the error; the others still commit.
 *
 * A batch starts on the next turn of the event loop after the first write arrives, taking what
 * has queued by then; writes arriving meanwhile form the next batch. `concurrency` batches may
 * be in flight at once (PostgreSQL: commits on several connections; SQLite has one connection).
 */
export class GroupCommit<Item, Result> {
  private queue: Array<Job<Item, Result>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly writer: GroupWriter<Item, Result>,
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
      const outcomes = await this.writeBatch(batch);
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

  /**
   * The batch at once in one transaction (no savepoint: on PostgreSQL each statement is a round
   * trip). When writing it fails, that transaction is rolled back and the items are written again
   * in a new one, each in its own savepoint. A failed commit fails the whole batch.
   */
  private async writeBatch(batch: Array<Job<Item, Result>>): Promise<Array<Outcome<Result>>> {
    let writeFailed = false;
    try {
      return await this.db.transaction().execute(async (trx) => {
        try {
          // Alone: its failure rolls back the transaction and is its own answer.
          if (batch.length === 1) return [{ ok: true, value: await this.writer.one(trx, batch[0]!.item) }];
          const values = await this.writer.many(
            trx,
            batch.map((job) => job.item),
          );
          return values.map((value) => ({ ok: true, value }) as const);
        } catch (error) {
          writeFailed = batch.length > 1;
          throw error;
        }
      });
    } catch (error) {
      if (!writeFailed) throw error;
    }
    return this.db.transaction().execute((trx) => this.writeEach(trx, batch));
  }

  private async writeEach(trx: Transaction<DB>, batch: Array<Job<Item, Result>>): Promise<Array<Outcome<Result>>> {
    const outcomes: Array<Outcome<Result>> = [];
    for (const job of batch) {
      await sql`SAVEPOINT group_write`.execute(trx);
      try {
        const value = await this.writer.one(trx, job.item);
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
}
