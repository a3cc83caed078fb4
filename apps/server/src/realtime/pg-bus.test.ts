import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openTestDatabase } from '../../test/test-app.js';
import { migrateToLatest, type Database } from '../db/database.js';
import { PgBus } from './pg-bus.js';
import type { BusChannel } from './bus.js';
import { internalChannels } from './internal-channels.js';

/** An event as newEvents carries it, with `extra` fields a test tells apart. */
const wsEvent = <E extends object>(id: string, extra: E) => ({
  id,
  ts: '2023-03-15T00:00:00.000Z',
  event_author: 'bench',
  event_value: 'FISH',
  event_options: [],
  event_free_text: '',
  ...extra,
});

const url = process.env.TEST_DATABASE_URL;
const log = pino({ level: 'silent' });

/** Collects what a bus delivers on a channel and resolves once `count` messages arrived. */
function collect(bus: PgBus, channel: BusChannel) {
  const got: unknown[] = [];
  let want = Infinity;
  let done: () => void = () => undefined;
  bus.subscribe(channel, (p) => {
    got.push(p);
    if (got.length >= want) done();
  });
  return {
    got,
    until(count: number): Promise<unknown[]> {
      want = count;
      if (got.length >= count) return Promise.resolve(got);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`got ${got.length} of ${count}`)), 10_000);
        done = () => {
          clearTimeout(timer);
          resolve(got);
        };
      });
    },
  };
}

describe.skipIf(!url)('PostgreSQL LISTEN/NOTIFY bus', () => {
  let db: { database: Database; drop(): Promise<void> };
  let other: { database: Database; drop(): Promise<void> };
  const buses: PgBus[] = [];
  const bus = async (database: Database) => {
    const b = new PgBus({ url: database.url!, schema: database.schema, log });
    await b.start();
    buses.push(b);
    return b;
  };

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    other = await openTestDatabase('postgres');
    await migrateToLatest(db.database);
    await migrateToLatest(other.database);
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    await db?.drop();
    await other?.drop();
  });

  it('delivers a publish once in the own process and once in every other process, in order', async () => {
    const a = await bus(db.database);
    const b = await bus(db.database);
    const onA = collect(a, 'newEvents');
    const onB = collect(b, 'newEvents');
    const messages = Array.from({ length: 30 }, (_, i) => wsEvent(`e${i}`, { n: i }));
    // Large messages in between take the outbox path and must not overtake small ones.
    messages.splice(10, 0, wsEvent('big', { event_value: 'é'.repeat(6000), n: -1 }));
    for (const m of messages) a.publish('newEvents', m);
    expect(await onB.until(messages.length)).toEqual(messages);
    expect(onA.got).toEqual(messages);
    // Nothing arrives twice: a last marker proves the earlier notifications were all handled.
    a.publish('newEvents', wsEvent('marker', {}));
    await onB.until(messages.length + 1);
    await onA.until(messages.length + 1);
    expect(onA.got).toHaveLength(messages.length + 1);
    expect(onB.got).toHaveLength(messages.length + 1);
  });

  it('sends a burst together yet delivers identical messages each time, as they were when published', async () => {
    const a = await bus(db.database);
    const b = await bus(db.database);
    const onB = collect(b, 'updateCustomVars');
    const value = { id: 'v1', custom_var_name: 'asnapStatus', custom_var_value: 'On' };
    const same = { ...value };
    a.publish('updateCustomVars', value);
    a.publish('updateCustomVars', same);
    // Changed by the caller after publishing (before the burst went out).
    value.custom_var_value = 'changed later';
    a.publish('updateCustomVars', { ...same, custom_var_value: 'Off' });
    expect(await onB.until(3)).toEqual([
      { id: 'v1', custom_var_name: 'asnapStatus', custom_var_value: 'On' },
      { id: 'v1', custom_var_name: 'asnapStatus', custom_var_value: 'On' },
      { id: 'v1', custom_var_name: 'asnapStatus', custom_var_value: 'Off' },
    ]);
  });

  it('carries payloads beyond the 8000-byte NOTIFY limit through the outbox table', async () => {
    const a = await bus(db.database);
    const b = await bus(db.database);
    const onB = collect(b, 'deleteEvents');
    const payload = wsEvent('x', {
      aux_data: Array.from({ length: 400 }, (_, i) => ({ data_name: `n${i}`, data_value: 'v'.repeat(50) })),
    });
    expect(JSON.stringify(payload).length).toBeGreaterThan(8000);
    a.publish('deleteEvents', payload);
    expect(await onB.until(1)).toEqual([payload]);
    const rows = await db.database.db
      .selectFrom('realtime_outbox' as never)
      .selectAll()
      .execute();
    expect(rows.length).toBeGreaterThan(0);
  });

  it('keeps databases in different schemas apart', async () => {
    const a = await bus(db.database);
    const b = await bus(db.database);
    const stranger = await bus(other.database);
    const onStranger = collect(stranger, 'updateCustomVars');
    const onB = collect(b, 'updateCustomVars');
    a.publish('updateCustomVars', { id: '1', custom_var_name: 'asnapStatus', custom_var_value: 'On' });
    await onB.until(1);
    // The stranger's own marker arrives after anything a shared channel would have carried.
    const own = collect(stranger, internalChannels.executeOutput);
    const strangerPeer = await bus(other.database);
    strangerPeer.publish(internalChannels.executeOutput, 'marker');
    await own.until(1);
    expect(onStranger.got).toEqual([]);
  });
});
