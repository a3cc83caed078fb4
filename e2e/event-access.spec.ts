import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ApiClient, apiLogin, createLowering, createUser } from './support/api';
import { test, expect } from './support/fixtures';
import { startServer, type StartedServer } from './support/server';
import { sessionOn } from './support/session';

/**
 * Frame grabs of a lowering restricted to one user, with access control on: the member's review
 * gallery shows them (the browser's session cookie carries the token to the image route); another
 * signed-in user's browser gets no image and no event of that dive.
 */

/** The smallest PNG (1×1). */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

test.describe.serial('event access on a server with access control', () => {
  let server: StartedServer;
  let admin: ApiClient;
  let member: ApiClient;
  let outsider: ApiClient;
  let lowering: string;

  test.beforeAll(async () => {
    server = await startServer({ mode: 'production', config: { useAccessControl: true } });
    admin = await apiLogin('admin', 'demo', server.url);
    const m = await createUser(admin, { roles: ['event_watcher'] });
    const o = await createUser(admin, { roles: ['event_watcher'] });
    member = await apiLogin(m.username, m.password, server.url);
    outsider = await apiLogin(o.username, o.password, server.url);
    await admin.post('cruises', {
      cruise_id: 'AC2023',
      start_ts: '2023-03-01T00:00:00.000Z',
      stop_ts: '2023-03-31T00:00:00.000Z',
      cruise_location: 'Kane FZ',
      cruise_additional_meta: { cruise_vessel: 'R/V Falkor (too)', cruise_pi: 'Dr. Who' },
      cruise_tags: [],
    });
    lowering = await createLowering(admin, {
      lowering_id: 'S0001',
      start_ts: '2023-03-14T00:00:00.000Z',
      stop_ts: '2023-03-15T00:00:00.000Z',
      lowering_location: 'Kane FZ',
    });
    await admin.patch(`lowerings/${lowering}/permissions`, { add: [m.id] });
    const { insertedId } = await admin.post<{ insertedId: string }>('events', {
      event_value: 'FRAMEGRAB',
      ts: '2023-03-14T12:00:00.000Z',
    });
    await admin.post('event_aux_data', {
      event_id: insertedId,
      data_source: 'vehicleRealtimeFramegrabberData',
      data_array: [
        { data_name: 'camera_name', data_value: 'Main Cam' },
        { data_name: 'filename', data_value: '/data/grabs/restricted_grab.png' },
      ],
    });
    const images = path.join(server.dataDir, 'files', 'images');
    mkdirSync(images, { recursive: true });
    writeFileSync(path.join(images, 'restricted_grab.png'), tinyPng);
  });

  test.afterAll(async () => {
    await Promise.all([admin?.dispose(), member?.dispose(), outsider?.dispose()]);
    await server?.stop();
  });

  test("the member's gallery shows the frame grab; the outsider's browser gets neither image nor event", async ({
    page,
    context,
  }) => {
    await sessionOn(context, server.url, member);
    await page.goto(`${server.url}/review_gallery/${lowering}`);
    const image = page.locator('[data-testid="gallery-image"] img').first();
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

    const url = `${server.url}/sealog-server/files/images/restricted_grab.png`;
    expect((await page.request.get(url)).status()).toBe(200);
    await sessionOn(context, server.url, outsider);
    expect((await page.request.get(url)).status()).toBe(404);
    const events = await page.request.get(`${server.url}/sealog-server/api/v1/events?value=FRAMEGRAB`);
    expect(events.status()).toBe(404);
    await context.clearCookies();
    expect((await page.request.get(url)).status()).toBe(401);
  });
});
