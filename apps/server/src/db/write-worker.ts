import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Outcome } from './group-commit.js';
import type {
  BatchReply,
  BatchRequest,
  ReadReply,
  ReadRequest,
  ThreadError,
  WriteThreadOptions,
} from './write-worker-thread.js';

/** What the thread posts once its connection is open. */
export const threadReady = 'ready';

/**
 * The thread's code: src/write-thread.ts, the loop of write-worker-thread.ts with the modules'
 * writers (db/ imports no module). The server build bundles it as write-worker-thread.js beside
 * main.js (scripts/build-server.mjs). From the sources (tsx, tests) it is the .ts file, which a thread
 * can only load after registering tsx's loader in that thread (a loader given in `execArgv` is
 * not applied to a thread's entry).
 */
function threadEntry(): { entry: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts'))
    return { entry: new URL('./write-worker-thread.js', import.meta.url), eval: false };
  const source = new URL('../write-thread.ts', import.meta.url).href;
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(tsxPackage, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), exports['./esm/api'].import.default)).href;
  const code = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return { entry: code, eval: true };
}

interface Pending {
  thread: Worker;
  resolve(answer: Array<Outcome<unknown>> | unknown[]): void;
  reject(error: unknown): void;
}

function fromThread(error: ThreadError): Error {
  return Object.assign(
    new Error(error.message),
    { name: error.name },
    error.code !== undefined ? { code: error.code } : {},
  );
}

/**
 * SQLite group-commit batches written on a thread of their own
 * (docs/performance.md#durable-event-writes-group-commit). better-sqlite3 is
 * synchronous: on the main connection a batch's inserts, triggers and the fsync of its COMMIT
 * stop the event loop, so no request is read or answered meanwhile. The thread has its own
 * connection to the same file (WAL, same `synchronous`); SQLite's write lock and busy timeout
 * order its transactions with the main connection's (which begin IMMEDIATE, database.ts).
 * A batch's outcomes come back after its COMMIT returned, so nothing is acknowledged before it is
 * on disk. If the thread dies, the batches it had are failed (their rows may or may not have been
 * committed; none was acknowledged) and the next batch starts a new thread.
 */
export class WriteWorker {
  private thread: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closing: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  private readonly options: WriteThreadOptions;

  constructor(options: Omit<WriteThreadOptions, 'role'>) {
    this.options = { role: 'sqlite-write-thread', ...options };
  }

  /** Writes `items` with `writer` in one transaction on the thread; see `writeBatch`. */
  run<Item, Result>(writer: string, items: Item[]): Promise<Array<Outcome<Result>>> {
    if (this.closing) return Promise.reject(new Error('The database is closed'));
    const thread = this.thread ?? this.spawn();
    const id = this.nextId++;
    return new Promise<Array<Outcome<Result>>>((resolve, reject) => {
      this.pending.set(id, { thread, resolve: resolve as Pending['resolve'], reject });
      thread.ref();
      thread.postMessage({ id, writer, items } satisfies BatchRequest);
    });
  }

  /**
   * Runs one read query on the thread's connection and answers its rows (the read thread of
   * exports: the database works there while the main thread writes the previous chunk out).
   * `transfer`: a BLOB column whose memory is handed over instead of copied.
   */
  read<Row>(query: { sql: string; parameters: readonly unknown[] }, transfer?: string): Promise<Row[]> {
    if (this.closing) return Promise.reject(new Error('The database is closed'));
    const thread = this.thread ?? this.spawn();
    const id = this.nextId++;
    return new Promise<Row[]>((resolve, reject) => {
      this.pending.set(id, { thread, resolve: resolve as Pending['resolve'], reject });
      thread.ref();
      thread.postMessage({
        id,
        read: { sql: query.sql, parameters: query.parameters },
        ...(transfer !== undefined ? { transfer } : {}),
      } satisfies ReadRequest);
    });
  }

  /**
   * Starts the thread now, so that the first batch does not wait for it to load; resolves once
   * its connection is open, rejects if it could not start.
   */
  start(): Promise<void> {
    if (this.closing) return Promise.reject(new Error('The database is closed'));
    const thread = this.thread ?? this.spawn();
    if (this.pending.size === 0) thread.unref();
    return new Promise<void>((resolve, reject) => {
      const ready = (message: unknown) => {
        if (message !== threadReady) return;
        thread.off('message', ready).off('exit', exited);
        resolve();
      };
      const exited = () => {
        thread.off('message', ready);
        reject(new Error('The database write thread could not start'));
      };
      thread.on('message', ready).once('exit', exited);
    });
  }

  /** Waits for the batches sent, then stops the thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.pending.size > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      const thread = this.thread;
      this.thread = null;
      if (thread) await thread.terminate();
    })();
    return this.closing;
  }

  private spawn(): Worker {
    const { entry, eval: isCode } = threadEntry();
    const thread = new Worker(entry, { eval: isCode, workerData: this.options });
    thread.on('message', (answer: BatchReply | ReadReply | typeof threadReady) => {
      if (answer === threadReady) return;
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.settled(answer.id);
      if ('error' in answer) waiting.reject(fromThread(answer.error));
      else if ('rows' in answer) waiting.resolve(answer.rows);
      else waiting.resolve(answer.outcomes.map((o) => (o.ok ? o : { ok: false, error: fromThread(o.error) })));
    });
    thread.on('error', (error) => this.failAll(thread, error));
    thread.on('exit', (code) =>
      this.failAll(thread, new Error(`The database write thread stopped (exit code ${code})`)),
    );
    this.thread = thread;
    return thread;
  }

  /** The thread is gone: every batch it had fails, and the next batch starts a new thread. */
  private failAll(thread: Worker, error: unknown): void {
    if (this.thread === thread) this.thread = null;
    for (const [id, waiting] of this.pending) {
      if (waiting.thread !== thread) continue;
      this.settled(id);
      waiting.reject(error);
    }
  }

  private settled(id: number): void {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    // An idle thread does not keep the process alive.
    if (waiting && ![...this.pending.values()].some((p) => p.thread === waiting.thread)) waiting.thread.unref();
    if (this.pending.size === 0 && this.drained) this.drained();
  }
}
