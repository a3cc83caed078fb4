/**
 * The SQLite write thread (see write-worker.ts): its own connection to the database file, with the
 * settings of the main one, writing the batches it is sent one after the other. The same code
 * serves the read thread of exports (`ReadRequest`: one query, its rows back). The writers are
 * the modules': the thread's entry (src/write-thread.ts) passes them to `serveWriteThread`.
 */
import { CompiledQuery, sql } from 'kysely';
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { openDatabase, type Database, type SqliteSynchronous } from './database.js';
import { writeBatch, type GroupWriter, type Outcome } from './group-commit.js';
import { threadReady } from './write-worker.js';

/** The writers a thread knows, by the name a batch gives (modules/writers.ts). */
export type ThreadWriters = Readonly<Record<string, GroupWriter<never, unknown>>>;

export interface WriteThreadOptions {
  /** Marks the thread's data, so that the module does nothing when imported anywhere else. */
  role: 'sqlite-write-thread';
  sqlitePath: string;
  sqliteSynchronous: SqliteSynchronous;
}

export interface BatchRequest {
  id: number;
  writer: string;
  items: unknown[];
}

/**
 * A read (exports, read thread): the compiled query; the answer is its rows. `transfer`: a column
 * whose BLOBs go back moved, not copied (exports' chunks of JSON text).
 */
export interface ReadRequest {
  id: number;
  read: { sql: string; parameters: readonly unknown[] };
  transfer?: string;
}

export type ReadReply = { id: number; rows: unknown[] } | { id: number; error: ThreadError };

/** An error as it crosses threads (a structured clone would drop its `code`). */
export interface ThreadError {
  name: string;
  message: string;
  code?: unknown;
}

export type BatchReply =
  | { id: number; outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: ThreadError }> }
  | { id: number; error: ThreadError };

function threadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(code !== undefined ? { code } : {}) };
}

/** How long a batch keeps trying to take the write lock held by the main connection. */
const lockPatienceMs = 60_000;

/**
 * Writes a batch. SQLite's busy handler waits for the write lock (busy_timeout) while the main
 * connection holds it; a run of main-connection transactions can still outlast that wait. A batch
 * that got SQLITE_BUSY wrote nothing (its BEGIN IMMEDIATE did not get the lock), so it is tried
 * again, as the main connection's own writes wait their turn.
 */
async function writeWhenUnlocked(
  database: Database,
  writer: GroupWriter<unknown, unknown>,
  items: unknown[],
): Promise<Array<Outcome<unknown>>> {
  const since = Date.now();
  for (;;) {
    try {
      return await writeBatch(database.db, writer, items);
    } catch (error) {
      const busy = (error as { code?: unknown }).code === 'SQLITE_BUSY';
      if (!busy || Date.now() - since > lockPatienceMs) throw error;
    }
  }
}

/**
 * The FTS5 indexes the write thread merges: the events' (migrations 002, 012), which its batches
 * write. Aux data is written on the main connection and keeps FTS5's own merging.
 */
const ftsTables = ['events_fts', 'events_fts_no_asnap'];

/** Pages of merge work per step: a few milliseconds, all a batch arriving meanwhile waits. */
const mergeStepPages = 64;

/**
 * FTS5 merges an index's segments as it is written (`automerge`): once a level holds 4 segments,
 * every transaction that writes also does merge work, 64 pages per leaf page it wrote. Under a
 * stream of event creates that made runs of group-commit batches ten times slower than the others
 * (35-40 ms instead of 3), about one batch in fifty: the tail of `POST /events`. So the
 * thread turns `automerge` off for these indexes and does the merging itself, in small steps
 * (`'merge'` of 64 pages, which only merges a level of 4 segments or more, as `automerge` would),
 * each its own transaction, only when no batch is waiting, until there is nothing left to merge.
 * Without the thread (`BENCH_WRITE_THREAD=0`, `:memory:` tests) the setting stays: FTS5 still
 * merges a level when it reaches 16 segments (`crisismerge`), in the transaction that wrote it.
 */
class FtsMerger {
  private configured = false;
  private next = 0;

  constructor(private readonly database: Database) {}

  /** One step of merge work on the first index that has some; false when none had any. */
  async step(): Promise<boolean> {
    const { db } = this.database;
    if (!this.configured) {
      this.configured = true;
      for (const table of ftsTables)
        await sql`INSERT INTO ${sql.table(table)}(${sql.ref(table)}, rank) VALUES ('automerge', 0)`.execute(db);
    }
    const changes = async () => (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0]!.n;
    for (let i = 0; i < ftsTables.length; i++) {
      const table = ftsTables[(this.next + i) % ftsTables.length]!;
      const before = await changes();
      await sql`INSERT INTO ${sql.table(table)}(${sql.ref(table)}, rank) VALUES ('merge', ${mergeStepPages})`.execute(
        db,
      );
      // FTS5: fewer than 2 changes means there was nothing to merge.
      if ((await changes()) - before >= 2) {
        this.next = (this.next + i) % ftsTables.length;
        return true;
      }
    }
    return false;
  }
}

const reply = (outcome: Outcome<unknown>) =>
  outcome.ok ? outcome : ({ ok: false, error: threadError(outcome.error) } as const);

/**
 * Runs a read; the BLOBs of the request's `transfer` column go back with their memory moved, not
 * copied, where a BLOB owns its whole buffer. Other columns are copied (no walk over them).
 */
async function read(database: Database, request: ReadRequest): Promise<[ReadReply, TransferListItem[]]> {
  try {
    const { rows } = await database.db.executeQuery(CompiledQuery.raw(request.read.sql, [...request.read.parameters]));
    const transfer: TransferListItem[] = [];
    const column = request.transfer;
    if (column !== undefined) {
      for (const row of rows as Array<Record<string, unknown>>) {
        const value = row[column];
        if (
          Buffer.isBuffer(value) &&
          value.buffer instanceof ArrayBuffer &&
          value.byteOffset === 0 &&
          value.byteLength === value.buffer.byteLength
        )
          transfer.push(value.buffer);
      }
    }
    return [{ id: request.id, rows }, transfer];
  } catch (error) {
    return [{ id: request.id, error: threadError(error) }, []];
  }
}

/** Runs the thread's loop with `writers`; does nothing outside a write thread. */
export function serveWriteThread(writers: ThreadWriters): void {
  const options = workerData as WriteThreadOptions | null;
  if (!parentPort || options?.role !== 'sqlite-write-thread') return;
  const port = parentPort;
  const database = openDatabase({
    url: null,
    sqlitePath: options.sqlitePath,
    sqliteSynchronous: options.sqliteSynchronous,
    writeThread: false,
  });
  port.postMessage(threadReady);
  // One batch or read at a time, in the order sent (the connection is the thread's own).
  let last: Promise<void> = Promise.resolve();
  /** Batches received and not yet answered. */
  let waiting = 0;
  const merger = new FtsMerger(database);
  let mergeScheduled = false;
  // A step of FTS merging when no batch waits, and again while there is more to merge.
  const mergeWhenIdle = () => {
    if (mergeScheduled) return;
    mergeScheduled = true;
    setImmediate(() => {
      mergeScheduled = false;
      if (waiting > 0) return; // after that batch
      last = last.then(async () => {
        if (waiting > 0) return;
        try {
          if (await merger.step()) mergeWhenIdle();
        } catch {
          // Say the main connection held the lock past busy_timeout: merged after the next batch.
        }
      });
    });
  };
  port.on('message', (request: BatchRequest | ReadRequest) => {
    if ('read' in request) {
      // The read thread of exports: never writes, so never merges.
      last = last.then(() => read(database, request).then(([answer, transfer]) => port.postMessage(answer, transfer)));
      return;
    }
    waiting++;
    last = last.then(async () => {
      const writer = writers[request.writer] as GroupWriter<unknown, unknown> | undefined;
      let answer: BatchReply;
      try {
        if (!writer) throw new Error(`No writer ${request.writer} in the write thread`);
        answer = { id: request.id, outcomes: (await writeWhenUnlocked(database, writer, request.items)).map(reply) };
      } catch (error) {
        answer = { id: request.id, error: threadError(error) };
      }
      port.postMessage(answer);
      waiting--;
      mergeWhenIdle();
    });
  });
}
