import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventCreateWrite } from '../modules/events/event-create-writer.js';
import { migrateToLatest, openDatabase, type Database } from './database.js';
import { GroupCommit } from './group-commit.js';

const create = (n: number, id = `e${String(n).padStart(23, '0')}`): EventCreateWrite => ({
  row: {
    id,
    ts: Date.UTC(2024, 0, 1) + n,
    event_author: 'admin',
    event_value: `VALUE ${n}`,
    event_options: '[]',
    event_free_text: `note ${n}`,
  },
  audit: {
    at: Date.now(),
    user_id: null,
    key_id: null,
    actor_kind: 'none',
    actor_name: null,
    route: 'POST /events',
    action: 'create',
    record_type: 'event',
    record_id: id,
    old_value: null,
    new_value: JSON.stringify({ id }),
  },
});

describe('SQLite write thread (group-commit batches off the event loop)', () => {
  let dir: string;
  let database: Database;
  let committer: GroupCommit<EventCreateWrite, void>;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-write-worker-'));
    database = openDatabase({ url: null, sqlitePath: path.join(dir, 'bathylog.sqlite') });
    await migrateToLatest(database);
    const worker = database.writeWorker!;
    committer = new GroupCommit((items) => worker.run('eventCreates', items));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const storedIds = async () =>
    (await database.db.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);
  const auditIds = async () =>
    (await database.db.selectFrom('audit_log').select('record_id').orderBy('record_id').execute()).map(
      (r) => r.record_id,
    );

  it('writes concurrent creates with their audit rows; each is visible to the main connection when answered', async () => {
    const creates = Array.from({ length: 60 }, (_, i) => create(i));
    const seen: string[] = [];
    await Promise.all(
      creates.map((c) =>
        committer.write(c).then(async () => {
          const found = await database.db.selectFrom('events').select('id').where('id', '=', c.row.id).execute();
          seen.push(...found.map((r) => r.id));
        }),
      ),
    );
    const ids = creates.map((c) => c.row.id).sort();
    expect(seen.sort()).toEqual(ids);
    expect(await storedIds()).toEqual(ids);
    expect(await auditIds()).toEqual(ids);
    // The search index triggers ran on the thread's connection too.
    const hits = await sql<{ n: number }>`SELECT count(*) AS n FROM events_fts WHERE events_fts MATCH 'note'`.execute(
      database.db,
    );
    expect(hits.rows[0]!.n).toBe(60);
  });

  it('a failing create fails only its own caller, with the database error and its code', async () => {
    await database.db.insertInto('events').values(create(0, 'taken-id-000000000000000').row).execute();
    const results = await Promise.allSettled([
      committer.write(create(1)),
      committer.write(create(2, 'taken-id-000000000000000')),
      committer.write(create(3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const reason = (results[1] as PromiseRejectedResult).reason as Error & { code: string };
    expect(reason.message).toMatch(/UNIQUE constraint failed: events.id/);
    expect(reason.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(await storedIds()).toEqual([create(1).row.id, create(3).row.id, 'taken-id-000000000000000'].sort());
    expect(await auditIds()).toEqual([create(1).row.id, create(3).row.id].sort());
  });

  it('a thread that dies mid-batch fails that batch’s callers; the next batch gets a new thread; nothing acknowledged is lost', async () => {
    const post = Worker.prototype.postMessage;
    let killed = false;
    // The thread is stopped right after it was handed its first batch, before it can answer.
    vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, ...args) {
      post.apply(this, args);
      if (!killed) {
        killed = true;
        void this.terminate();
      }
    });
    const first = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => committer.write(create(i))));
    expect(first.every((r) => r.status === 'rejected')).toBe(true);
    expect(String((first[0] as PromiseRejectedResult).reason)).toMatch(/^Error: The database write thread stopped/);
    const second = Array.from({ length: 20 }, (_, i) => create(100 + i));
    await Promise.all(second.map((c) => committer.write(c)));
    const stored = await storedIds();
    expect(stored).toEqual(expect.arrayContaining(second.map((c) => c.row.id)));
    // Whatever of the first batch reached the file came whole, with its audit rows.
    expect(await auditIds()).toEqual(stored);
  });

  it('main-connection transactions that read then write run beside the thread’s batches without a busy error', async () => {
    await database.db.insertInto('events').values(create(0, 'edited-00000000000000000').row).execute();
    await committer.write(create(1)); // the thread is up
    let creating = true;
    // Writers that keep the thread busy, so that the edits' BEGINs find the write lock taken.
    let n = 2;
    const creates = Promise.all(
      Array.from({ length: 50 }, async () => {
        while (creating) await committer.write(create(n++));
      }),
    );
    for (let i = 0; i < 30; i++) {
      await database.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('events')
          .select('event_free_text')
          .where('id', '=', 'edited-00000000000000000')
          .executeTakeFirstOrThrow();
        // The thread commits meanwhile; this transaction's write must still go through.
        await new Promise((resolve) => setTimeout(resolve, 5));
        await trx
          .updateTable('events')
          .set({ event_free_text: `${row.event_free_text}+${i}` })
          .where('id', '=', 'edited-00000000000000000')
          .execute();
      });
    }
    creating = false;
    await creates;
    const edited = await database.db
      .selectFrom('events')
      .select('event_free_text')
      .where('id', '=', 'edited-00000000000000000')
      .executeTakeFirstOrThrow();
    expect(edited.event_free_text.split('+')).toHaveLength(31);
    expect((await storedIds()).length).toBeGreaterThan(2);
  });

  it('closing the database waits for the batches sent', async () => {
    const writes = Array.from({ length: 30 }, (_, i) => committer.write(create(i)));
    // Let the batch go to the thread first.
    await new Promise((resolve) => setImmediate(resolve));
    await database.close();
    await Promise.all(writes);
    const reopened = openDatabase({ url: null, sqlitePath: path.join(dir, 'bathylog.sqlite'), writeThread: false });
    const n = await reopened.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await reopened.close();
    database = openDatabase({ url: null, sqlitePath: path.join(dir, 'bathylog.sqlite') });
    expect(Number(n.n)).toBe(30);
  });

  it('merges the fulltext indexes itself, between batches, with automerge off', async () => {
    /** Whether a merge step on the main connection finds work left (FTS5: 2 changes or more). */
    const mergeLeft = async (table: string) => {
      const changes = async () =>
        (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(database.db)).rows[0]!.n;
      const before = await changes();
      await sql`INSERT INTO ${sql.table(table)}(${sql.ref(table)}, rank) VALUES ('merge', 64)`.execute(database.db);
      return (await changes()) - before >= 2;
    };
    // One batch at a time: each is a transaction, so a new segment of each index.
    for (let i = 0; i < 40; i++) await committer.write(create(i));
    // The thread merges once no batch waits.
    await vi.waitFor(
      async () => {
        const automerge = await sql<{ v: number }>`SELECT v FROM events_fts_config WHERE k = 'automerge'`.execute(
          database.db,
        );
        expect(automerge.rows[0]?.v).toBe(0);
      },
      { timeout: 5000 },
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await mergeLeft('events_fts')).toBe(false);
    expect(await mergeLeft('events_fts_no_asnap')).toBe(false);
    // Searches see every event.
    const hits = await sql<{ n: number }>`SELECT count(*) AS n FROM events_fts WHERE events_fts MATCH 'note'`.execute(
      database.db,
    );
    expect(hits.rows[0]!.n).toBe(40);
  });

  it('answers reads on the read thread: the transfer column handed over, other BLOBs and texts copied', async () => {
    const reader = database.readWorker!;
    const query = sql<{ body: Uint8Array; other: Uint8Array; label: string }>`
      SELECT CAST('[{"a":1}]' AS BLOB) AS body, CAST('xyz' AS BLOB) AS other, 'chunk' AS label`.compile(database.db);
    for (const transfer of ['body', undefined]) {
      const [row] = await reader.read<{ body: Uint8Array; other: Uint8Array; label: string }>(query, transfer);
      expect(Buffer.from(row!.body).toString()).toBe('[{"a":1}]');
      expect(Buffer.from(row!.other).toString()).toBe('xyz');
      expect(row!.label).toBe('chunk');
    }
    await expect(reader.read(sql`SELECT * FROM no_such_table`.compile(database.db), 'body')).rejects.toThrow(
      /no such table/,
    );
  });
});
