import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCruise, createUser } from '../../../test/api-fixtures.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';

/**
 * An image belongs to the event whose aux record first named it
 * (docs/security.md#who-may-change-an-events-data): naming another event's frame grab in an aux
 * record of an event one may see unlocks nothing, neither for oneself under access control nor for
 * the internet in the public archive.
 */

const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const images = '/sealog-server/files/images';

describe.each(engines)('image adoption on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let logger: string;
  /** An event of the public cruise that the logger created (so it may write its aux data). */
  let openEvent: string;

  const image = (name: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `${images}/${name}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const frameGrab = (eventId: string, file: string, token: string) =>
    t.api('POST', '/event_aux_data', {
      token,
      body: {
        event_id: eventId,
        data_source: 'framegrabber',
        data_array: [
          { data_name: 'camera_name', data_value: 'Main Camera' },
          { data_name: 'filename', data_value: `/grabs/${file}` },
        ],
      },
    });

  beforeAll(async () => {
    t = await createTestApp(engine, { useAccessControl: true, publicArchive: true });
    admin = await t.login('admin', 'demo');
    const member = await createUser(t, admin, 'member', ['event_watcher']);
    logger = (await createUser(t, admin, 'logger', ['event_logger'])).token;
    // A private cruise restricted to its member, with a frame grab the logger may not see.
    const secret = await createCruise(t, admin, {
      cruise_id: 'SECRET1',
      start_ts: '2023-01-01T00:00:00.000Z',
      stop_ts: '2023-01-31T00:00:00.000Z',
    });
    const perms = await t.api('PATCH', `/cruises/${secret}/permissions`, { token: admin, body: { add: [member.id] } });
    expect(perms.statusCode).toBe(204);
    const hidden = await t.api('POST', '/events', {
      token: admin,
      body: { event_value: 'SECRET', ts: '2023-01-10T00:00:00.000Z' },
    });
    const hiddenEvent = (hidden.json() as { insertedId: string }).insertedId;
    expect((await frameGrab(hiddenEvent, 'secret_grab.png', admin)).statusCode).toBe(201);
    // A public cruise, where the logger logs an event of its own.
    await createCruise(t, admin, {
      cruise_id: 'OPEN1',
      start_ts: '2023-03-01T00:00:00.000Z',
      stop_ts: '2023-03-31T00:00:00.000Z',
      cruise_public: true,
    });
    const open = await t.api('POST', '/events', {
      token: logger,
      body: { event_value: 'OPEN', ts: '2023-03-10T00:00:00.000Z' },
    });
    openEvent = (open.json() as { insertedId: string }).insertedId;
    for (const name of ['secret_grab.png', 'open_grab.png'])
      writeFileSync(path.join(t.ctx.paths.images, name), tinyPng);
  });
  afterAll(() => t?.close());

  it('a later aux record naming another event’s image grants nothing, to its writer or to the archive', async () => {
    expect((await image('secret_grab.png', logger)).statusCode).toBe(404);
    expect((await image('secret_grab.png')).statusCode).toBe(404);

    // The logger names the hidden frame grab in an aux record of its own, visible, public event.
    expect((await frameGrab(openEvent, 'secret_grab.png', logger)).statusCode).toBe(201);
    expect((await image('secret_grab.png', logger)).statusCode).toBe(404);
    expect((await image('secret_grab.png')).statusCode).toBe(404);
    // The admin still sees it.
    expect((await image('secret_grab.png', admin)).statusCode).toBe(200);
  });

  it('an image first brought in by a visible event is served with it, to its writer and to the archive', async () => {
    const grab = await t.api('POST', '/event_aux_data', {
      token: logger,
      body: {
        event_id: openEvent,
        data_source: 'stillCamera',
        data_array: [{ data_name: 'filename', data_value: '/grabs/open_grab.png' }],
      },
    });
    expect(grab.statusCode).toBe(201);
    expect((await image('open_grab.png', logger)).statusCode).toBe(200);
    expect((await image('open_grab.png')).statusCode).toBe(200);
  });
});
