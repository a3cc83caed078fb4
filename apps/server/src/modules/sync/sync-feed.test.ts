import { afterEach, describe, expect, it } from 'vitest';
import type { SyncChangesPage } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { openDatabase, migrateToLatest, type Database } from '../../db/database.js';
import { SyncFeedRepository, feedStart } from './sync-feed.repository.js';

/** The change feed a ship serves (docs/ship-to-shore.md#the-change-feed). */
describe.each(engines)('the change feed on %s', (engine) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  const page = async (token: string, after?: string, maxBytes = 4096): Promise<SyncChangesPage> => {
    await t.feedSettled();
    const q = new URLSearchParams({ max_bytes: String(maxBytes), ...(after !== undefined ? { after } : {}) });
    const res = await t.api('GET', `/sync/changes?${q}`, { token });
    expect(res.statusCode).toBe(200);
    return res.json() as SyncChangesPage;
  };

  /** Every change from a cursor to the head, page by page. */
  const drain = async (token: string, after?: string, maxBytes = 4096) => {
    const all: SyncChangesPage['changes'] = [];
    let cursor = after;
    let pages = 0;
    for (;;) {
      const p = await page(token, cursor, maxBytes);
      all.push(...p.changes);
      pages++;
      cursor = p.next;
      if (!p.more) return { all, cursor, pages };
    }
  };

  it('pages a first follow by size, then only what changed, resumable from any seq', async () => {
    t = await createTestApp(engine);
    const admin = await t.login('admin', 'demo');
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await t.api('POST', '/events', {
        token: admin,
        body: { event_value: `E${i}`, event_free_text: 'x'.repeat(300) },
      });
      ids.push((res.json() as { insertedId: string }).insertedId);
    }
    const first = await drain(admin);
    expect(first.pages).toBeGreaterThan(3);
    const events = first.all.filter((c) => c.record_type === 'event');
    expect(new Set(events.map((c) => c.record_id))).toEqual(new Set(ids));
    expect(events.every((c) => c.op === 'upsert' && c.record !== null)).toBe(true);

    // Nothing new: an empty page at the head.
    const idle = await page(admin, first.cursor);
    expect(idle).toMatchObject({ changes: [], more: false, next: first.cursor, head: first.cursor });

    // An edit and a delete arrive as the record now and as a deletion.
    await t.api('PATCH', `/events/${ids[0]}`, { token: admin, body: { event_value: 'CHANGED' } });
    await t.api('DELETE', `/events/${ids[1]}`, { token: admin });
    const next = await drain(admin, first.cursor);
    expect(next.all.map((c) => [c.op, c.record_id, c.record?.event_value ?? null])).toEqual([
      ['upsert', ids[0], 'CHANGED'],
      ['delete', ids[1], null],
    ]);
    // Each change's seq is a cursor: resuming from the first gives the second only.
    expect((await drain(admin, next.all[0]!.seq)).all.map((c) => c.record_id)).toEqual([ids[1]]);

    // Not a cursor: words, and positions beyond what a feed hands out (a sequence number past 2^53,
    // a transaction id past 2^64) are refused with the cursor named, never a database error.
    for (const after of [
      'nonsense',
      'c.1.99999999999999999999',
      'c.18446744073709551616.1',
      's.0.9007199254740993.0.5.',
    ]) {
      expect((await t.api('GET', `/sync/changes?after=${after}`, { token: admin })).json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: `Invalid cursor: ${after}`,
      });
    }
  });

  it('a caught-up follower asking to wait is answered by the next change, or empty when none came', async () => {
    t = await createTestApp(engine);
    const admin = await t.login('admin', 'demo');
    const head = (await drain(admin)).cursor!;
    let answered = false;
    const held = t
      .api('GET', `/sync/changes?after=${head}&wait=20`, { token: admin })
      .then((res) => ((answered = true), res));
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    const id = (
      (await t.api('POST', '/events', { token: admin, body: { event_value: 'WHILE_WAITING' } })).json() as {
        insertedId: string;
      }
    ).insertedId;
    const res = await held;
    expect(res.statusCode).toBe(200);
    const p = res.json() as SyncChangesPage;
    expect(p.changes.map((c) => [c.op, c.record_id])).toEqual([['upsert', id]]);

    // Nothing comes: an empty page at the head once the wait is over.
    const quiet = await t.api('GET', `/sync/changes?after=${p.next}&wait=1`, { token: admin });
    expect((quiet.json() as SyncChangesPage).changes).toEqual([]);
    // The wait is bounded.
    expect((await t.api('GET', `/sync/changes?after=${p.next}&wait=61`, { token: admin })).json()).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
    });
  });

  it('copies an import again (one audit row without ids), then goes on', async () => {
    t = await createTestApp(engine);
    const admin = await t.login('admin', 'demo');
    const start = await drain(admin);
    await t.ctx.database.db
      .insertInto('events')
      .values({
        id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        ts: 1,
        event_author: 'a',
        event_value: 'IMPORTED',
        event_options: '[]',
        event_free_text: '',
      })
      .execute();
    await t.ctx.database.db
      .insertInto('audit_log')
      .values({
        at: Date.now(),
        user_id: null,
        key_id: null,
        actor_kind: 'none',
        actor_name: null,
        route: null,
        action: 'import',
        record_type: 'event',
        record_id: null,
        detail: null,
        old_value: null,
        new_value: '{"events":1}',
      })
      .execute();
    const after = await drain(admin, start.cursor);
    expect(after.all.map((c) => c.record_id)).toContain('aaaaaaaaaaaaaaaaaaaaaaaa');
    expect((await page(admin, after.cursor)).changes).toEqual([]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the cursor on PostgreSQL', () => {
  let database: Database | null = null;
  let schema = '';
  afterEach(async () => {
    await database?.close();
    const admin = openDatabase({ url: process.env.TEST_DATABASE_URL!, poolSize: 1 });
    await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
    await admin.close();
  });

  it('never passes a row whose transaction is still open, even when a higher seq committed', async () => {
    schema = `t_cursor_${process.pid}_${Date.now().toString(36)}`;
    database = openDatabase({ url: process.env.TEST_DATABASE_URL!, schema, poolSize: 4 });
    await migrateToLatest(database);
    const repo = new SyncFeedRepository(database);
    const row = (id: string) => ({
      at: Date.now(),
      user_id: null,
      key_id: null,
      actor_kind: 'none',
      actor_name: null,
      route: null,
      action: 'create',
      record_type: 'event',
      record_id: id,
      detail: null,
      old_value: null,
      new_value: null,
    });
    const head = await repo.head();
    let releaseSlow!: () => void;
    const slowInserted = new Promise<void>((resolveInserted) => {
      const held = new Promise<void>((r) => (releaseSlow = r));
      void database!.db.transaction().execute(async (trx) => {
        await trx.insertInto('audit_log').values(row('slow')).execute();
        resolveInserted();
        await held;
      });
    });
    await slowInserted;
    // A later transaction takes a higher seq and commits first.
    await database.db.insertInto('audit_log').values(row('fast')).execute();
    const seqs = await database.db
      .selectFrom('audit_log')
      .select(['seq', 'record_id'])
      .where('record_id', 'in', ['slow', 'fast'])
      .execute();
    // Only the fast row is visible yet, and its seq is not the next after the head: a seq cursor would pass the slow one.
    expect(seqs.map((r) => r.record_id)).toEqual(['fast']);
    expect(Number(seqs[0]!.seq)).toBeGreaterThan(head.seq + 1);
    expect(await repo.rowsAfter(head, 100)).toEqual([]);
    expect(await repo.head()).toEqual(head);

    releaseSlow();
    await new Promise((r) => setTimeout(r, 100));
    const rows = await repo.rowsAfter(head, 100);
    expect(rows.map((r) => r.record_id)).toEqual(['slow', 'fast']);
    expect(await repo.rowsAfter({ xid: rows[1]!.xid, seq: rows[1]!.seq }, 100)).toEqual([]);
    expect((await repo.rowsAfter(feedStart, 1000)).map((r) => r.record_id)).toEqual(
      expect.arrayContaining(['slow', 'fast']),
    );
  });
});
