import { applyChanges, MemoryQueueStorage, type QueueChange, type QueuedOp, type QueueStorage } from './offline-queue';

/**
 * IndexedDB storage for the offline queue: one object store keyed by an auto-incremented `seq`,
 * so the order of clicks is the order of sending, across reloads and browser restarts. Each
 * `transact` is one readwrite transaction (read all, plan, write), which IndexedDB runs atomically
 * and one at a time per store, also across tabs.
 */
const dbName = 'bathylog';
const storeName = 'event-queue';

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(dbName, 1);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(storeName))
        db.createObjectStore(storeName, { keyPath: 'seq', autoIncrement: true });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
    req.onblocked = () => reject(new Error('IndexedDB open blocked'));
  });
}

export class IndexedDbQueueStorage implements QueueStorage {
  private db: Promise<IDBDatabase> | null = null;
  /** Used when IndexedDB refuses to open (some private modes): the page keeps working. */
  private fallback: MemoryQueueStorage | null = null;

  private database(): Promise<IDBDatabase> {
    this.db ??= openDatabase().then((db) => {
      // Another tab upgrading the schema: let it, and reopen on the next call.
      db.onversionchange = () => {
        db.close();
        this.db = null;
      };
      return db;
    });
    return this.db;
  }

  async transact<R>(
    plan: (ops: readonly QueuedOp[]) => { changes: QueueChange[]; result: R },
    opts: { durable?: boolean } = {},
  ) {
    if (this.fallback) return this.fallback.transact(plan);
    let db: IDBDatabase;
    try {
      db = await this.database();
    } catch (err) {
      console.warn(
        'IndexedDB could not be opened; events waiting for the server are kept only until the page closes:',
        err,
      );
      this.fallback = new MemoryQueueStorage();
      return this.fallback.transact(plan);
    }
    return new Promise<{ ops: QueuedOp[]; result: R }>((resolve, reject) => {
      // What the user logged is flushed to disk before the line shows; the rest may wait.
      const tx = db.transaction(storeName, 'readwrite', { durability: opts.durable ? 'strict' : 'relaxed' });
      const store = tx.objectStore(storeName);
      let before: QueuedOp[] = [];
      let planned: { changes: QueueChange[]; result: R } | null = null;
      const newSeqs: number[] = [];
      let planError: unknown = null;
      const all = store.getAll();
      all.onsuccess = () => {
        before = (all.result as QueuedOp[]).sort((a, b) => a.seq - b.seq);
        try {
          planned = plan(before.map((op) => ({ ...op })));
        } catch (err) {
          planError = err;
          tx.abort();
          return;
        }
        for (const change of planned.changes) {
          if (change.type === 'remove') store.delete(change.seq);
          else if (change.type === 'put') store.put(change.op);
          else {
            const add = store.add(change.op);
            add.onsuccess = () => newSeqs.push(add.result as number);
          }
        }
      };
      tx.oncomplete = () => {
        const p = planned!;
        resolve({ ops: applyChanges(before, p.changes, newSeqs), result: p.result });
      };
      tx.onabort = () => reject(planError ?? tx.error ?? new Error('IndexedDB transaction aborted'));
      tx.onerror = () => undefined; // onabort follows and rejects
    });
  }
}

/**
 * IndexedDB when the browser has it; otherwise memory, with a warning (the queue then lasts only
 * as long as the page).
 */
export function createQueueStorage(): QueueStorage {
  if (typeof indexedDB === 'undefined') {
    console.warn('IndexedDB is not available: events waiting for the server are kept only until the page closes');
    return new MemoryQueueStorage();
  }
  return new IndexedDbQueueStorage();
}
