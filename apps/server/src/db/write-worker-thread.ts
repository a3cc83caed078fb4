/**
 * The SQLite write thread (see write-worker.ts): its own connection to the database file, with the
 * settings of the main one, writing the batches it is sent one after the other. The same code
 * serves the read thread of exports (`ReadRequest`: one query, its rows back).
 */
import { CompiledQuery } from 'kysely';
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { eventCreateWriter } from '../modules/events/event-create-writer.js';
import { openDatabase, type Database, type SqliteSynchronous } from './database.js';
import { writeBatch, type GroupWriter, type Outcome } from './group-commit.js';
import { threadReady } from './write-worker.js';

/** The writers the thread knows, by the name a batch gives. */
const writers = { eventCreates: eventCreateWriter };

export type WorkerWriterName = keyof typeof writers;

export interface WriteThreadOptions {
  /** Marks the thread's data, so that the module does nothing when imported anywhere else. */
  role: 'sqlite-write-thread';
  sqlitePath: string;
  sqliteSynchronous: SqliteSynchronous;
}

export interface BatchRequest {
  id: number;
  writer: WorkerWriterName;
  items: unknown[];
}

/** A read (exports, read thread): the compiled query; the answer is its rows. */
export interface ReadRequest {
  id: number;
  read: { sql: string; parameters: readonly unknown[] };
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

const reply = (outcome: Outcome<unknown>) =>
  outcome.ok ? outcome : ({ ok: false, error: threadError(outcome.error) } as const);

/**
 * Runs a read; its rows go back with the memory of their BLOBs moved, not copied, where a BLOB
 * owns its whole buffer (exports' chunks of JSON text).
 */
async function read(database: Database, request: ReadRequest): Promise<[ReadReply, TransferListItem[]]> {
  try {
    const { rows } = await database.db.executeQuery(CompiledQuery.raw(request.read.sql, [...request.read.parameters]));
    const transfer: TransferListItem[] = [];
    for (const row of rows as Array<Record<string, unknown>>) {
      for (const value of Object.values(row)) {
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

const options = workerData as WriteThreadOptions | null;
if (parentPort && options?.role === 'sqlite-write-thread') {
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
  port.on('message', (request: BatchRequest | ReadRequest) => {
    if ('read' in request) {
      last = last.then(() => read(database, request).then(([answer, transfer]) => port.postMessage(answer, transfer)));
      return;
    }
    last = last.then(async () => {
      const writer = writers[request.writer] as GroupWriter<unknown, unknown>;
      let answer: BatchReply;
      try {
        answer = { id: request.id, outcomes: (await writeWhenUnlocked(database, writer, request.items)).map(reply) };
      } catch (error) {
        answer = { id: request.id, error: threadError(error) };
      }
      port.postMessage(answer);
    });
  });
}
