import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Nes from '@hapi/nes';
import { wsPath, type WsChannel } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { createUser } from '../../test/api-fixtures.js';
import { listenInRange } from './testing/ws-test-client.js';

/**
 * The Sealog 2.4.17 clients' check for events missing their required aux data
 * (docs/sealog-clients.md#realtime-channels-the-24-clients-watch), through the unmodified
 * @hapi/nes client: one socket subscribed to newEvents, deleteEvents, newEventAuxData and
 * updateEventAuxData, reading `id`/`ts` of events and `event_id`/`data_source` of aux records.
 */

const channels: WsChannel[] = ['newEvents', 'deleteEvents', 'newEventAuxData', 'updateEventAuxData'];
const eventKeys = ['event_author', 'event_free_text', 'event_options', 'event_value', 'id', 'ts'];
const auxKeys = ['data_array', 'data_source', 'event_id', 'id'];

describe.each(engines)('the required-aux-data channels on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let admin: string;
  let logger: string;
  let watcher: string;

  beforeAll(async () => {
    t = await createTestApp(engine, { realtime: { authRecheckMs: 0 } });
    port = await listenInRange(t.app);
    admin = await t.login('admin', 'demo');
    logger = (await createUser(t, admin, 'monlogger', ['event_logger'])).token;
    watcher = (await createUser(t, admin, 'monwatcher', ['event_watcher'])).token;
  });
  afterAll(() => t?.close());

  it('carries what the monitor reads on each of its four channels', async () => {
    const client = new Nes.Client(`ws://127.0.0.1:${port}/ws`);
    await client.connect({ auth: { headers: { Authorization: `Bearer ${watcher}` } }, reconnect: false });
    const seen: Array<[WsChannel, Record<string, unknown>]> = [];
    const waiters: Array<() => void> = [];
    const next = (channel: WsChannel, count = 1) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${channel} publication`)), 5000);
        const check = () => {
          const got = seen.filter(([c]) => c === channel);
          if (got.length >= count) {
            clearTimeout(timer);
            resolve(got[count - 1]![1]);
            return true;
          }
          return false;
        };
        if (!check()) waiters.push(() => void check());
      });
    try {
      for (const channel of channels) {
        // subscribe() resolves once the server acknowledged the sub.
        await client.subscribe(wsPath(channel), (message: unknown) => {
          seen.push([channel, message as Record<string, unknown>]);
          for (const w of waiters) w();
        });
      }

      const post = await t.api('POST', '/events', { token: logger, body: { event_value: 'DIVE_EVENT' } });
      expect(post.statusCode).toBe(201);
      const eventId = (post.json() as { insertedId: string }).insertedId;
      const created = await next('newEvents');
      expect(Object.keys(created).sort()).toEqual(eventKeys);
      expect(created).toMatchObject({ id: eventId, event_value: 'DIVE_EVENT', event_author: 'monlogger' });
      expect(Date.parse(created.ts as string)).not.toBeNaN();

      // An inserter adds the event's navigation, then replaces it, then a script patches it.
      const nav = {
        event_id: eventId,
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: '1000', data_uom: 'm' }],
      };
      const aux = await t.api('POST', '/event_aux_data', { token: admin, body: nav });
      expect(aux.statusCode).toBe(201);
      const auxId = (aux.json() as { insertedId: string }).insertedId;
      const added = await next('newEventAuxData');
      expect(Object.keys(added).sort()).toEqual(auxKeys);
      expect(added).toEqual({ ...nav, id: auxId });

      const replaced = { ...nav, data_array: [{ data_name: 'depth', data_value: '1001', data_uom: 'm' }] };
      expect((await t.api('POST', '/event_aux_data', { token: admin, body: replaced })).statusCode).toBe(204);
      expect(await next('updateEventAuxData')).toEqual({ ...replaced, id: auxId });
      const patch = { data_array: [{ data_name: 'heading', data_value: '90', data_uom: 'deg' }] };
      expect((await t.api('PATCH', `/event_aux_data/${auxId}`, { token: admin, body: patch })).statusCode).toBe(204);
      const patched = await next('updateEventAuxData', 2);
      expect(Object.keys(patched).sort()).toEqual(auxKeys);
      expect(patched).toMatchObject({ id: auxId, event_id: eventId, data_source: 'vehicleRealtimeNavData' });
      expect(patched.data_array).toEqual(expect.arrayContaining(patch.data_array));

      // The event goes: deleteEvents carries its id (and its aux records, as Sealog sends them).
      expect((await t.api('DELETE', `/events/${eventId}`, { token: admin })).statusCode).toBe(204);
      const deleted = await next('deleteEvents');
      expect(Object.keys(deleted).sort()).toEqual([...eventKeys, 'aux_data'].sort());
      expect(deleted).toMatchObject({ id: eventId, aux_data: [{ ...patched }] });
    } finally {
      await client.disconnect();
    }
  });

  it('refuses the monitor socket without a valid token', async () => {
    const client = new Nes.Client(`ws://127.0.0.1:${port}/ws`);
    const failure = await client
      .connect({ auth: { headers: { Authorization: 'Bearer nope' } }, reconnect: false })
      .then(
        () => null,
        (err: { statusCode?: number }) => err,
      );
    expect(failure).toMatchObject({ statusCode: 401 });
    await client.disconnect();
  });
});
