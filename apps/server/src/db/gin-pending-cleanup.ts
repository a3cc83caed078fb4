import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

/** How long after a write the pending lists are merged. */
const defaultDelayMs = 100;

/**
 * PostgreSQL's GIN indexes (the trigram search indexes on `events`, `event_search`,
 * `event_aux_search`) take new entries into a pending list, and the insert that finds a list over
 * `gin_pending_list_limit` (4 MB) merges all of it into the index before its statement returns.
 * Under a stream of event creates that was a group-commit batch every few hundred, held for tens
 * of milliseconds while every request in it waited: the tail of `POST /events`
 * (docs/performance.md#durable-event-writes-group-commit).
 * `fastupdate = off` made every insert pay instead (a third of the throughput); a larger limit
 * made the merges rarer but longer.
 *
 * So the server merges the lists itself, shortly after writes, on a pooled connection and off any
 * request's path (`gin_clean_pending_list`, one merge at a time): the lists stay small and an
 * insert seldom finds one over the limit. One that does while a merge is under way does not wait
 * for it (PostgreSQL lets one merge run per index; the insert only appends). Autovacuum merges
 * them too, but only every so often, and it may be off. Only the indexes of the current schema
 * that the server's role owns are merged (the function requires ownership). A failed merge (say
 * the connection went) is left to the next write, an insert over the limit, or vacuum.
 */
export class GinPendingCleanup {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly delayMs = defaultDelayMs,
  ) {}

  /** Rows were written into GIN-indexed tables: merge the pending lists soon. */
  wrote(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.merge();
    }, this.delayMs);
    // Pending merges never keep the process alive.
    this.timer.unref();
  }

  /** Merges no more (the database is closing). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async merge(): Promise<void> {
    this.running = true;
    this.again = false;
    try {
      await sql`SELECT gin_clean_pending_list(c.oid)
        FROM pg_class c JOIN pg_am a ON a.oid = c.relam
        WHERE a.amname = 'gin' AND c.relnamespace = current_schema()::regnamespace
          AND pg_has_role(c.relowner, 'USAGE')`.execute(this.db);
    } catch {
      // Left to the next write (see above).
    } finally {
      this.running = false;
    }
    if (this.again) this.wrote();
  }
}
