import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database.js';
import type { DB } from './schema.js';

type Work<T> = (trx: Transaction<DB>) => Promise<T>;

interface Job {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Writes sharing one commit at most; the rest wait for the next. */
const maxBatch = 256;

/**
 * Group commit (issue 13): writes that arrive together share one transaction, so one durable
 * commit (one fsync) serves them all. Each write runs in its own savepoint: a write that fails
 * is rolled back alone and only its caller gets the error. Every caller is answered only after
 * the commit returned, so nothing is acknowledged before it is on disk; when the commit itself
 * fails, every write of the batch fails with it.
 *
 * A batch starts on the next turn of the event loop after the first write arrives, taking what
 * has queued by then; writes arriving while it commits form the next batch.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private running = false;
  private scheduled = false;

  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `work` in the next shared transaction; resolves with its result once that has committed. */
  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.running = true;
    const batch = this.queue.splice(0, maxBatch);
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        if (batch.length === 1) {
          // Alone: its failure rolls back the transaction and is its own answer.
          outcomes.push({ ok: true, value: await batch[0]!.work(trx) });
          return;
        }
        for (const job of batch) {
          await sql`SAVEPOINT group_write`.execute(trx);
          try {
            const value = await job.work(trx);
            await sql`RELEASE SAVEPOINT group_write`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`ROLLBACK TO SAVEPOINT group_write`.execute(trx);
            await sql`RELEASE SAVEPOINT group_write`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
      batch.forEach((job, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.error);
      });
    } catch (error) {
      for (const job of batch) job.reject(error);
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}

const byDatabase = new WeakMap<Database, GroupCommit>();

/** The one group committer of a database (every service writing through it shares its batches). */
export function groupCommitFor(database: Database): GroupCommit {
  let gc = byDatabase.get(database);
  if (!gc) {
    gc = new GroupCommit(database.db);
    byDatabase.set(database, gc);
  }
  return gc;
}
