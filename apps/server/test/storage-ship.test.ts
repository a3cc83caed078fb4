import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShipAndShore, waitUntil, type ShipAndShore } from './ship-and-shore.js';
import { TestS3Server } from './s3-server.js';

/**
 * Files copied from a ship land in the shore's bucket (docs/storage.md#the-layout-in-a-bucket):
 * a ship on its local folder, a shore on S3, the frame grab and its thumbnail fetched through the
 * change feed into the bucket, checked by sha256, and served by the shore.
 */
const sync = { pollIntervalMs: 100 };
const s3 = new TestS3Server();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a shore on S3 following a ship on its folder', () => {
  let both: ShipAndShore;
  beforeAll(async () => {
    await s3.start();
    both = await startShipAndShore({
      ship: { sync },
      shore: { config: { sync, storage: s3.settings({ prefix: 'shore/' }) } },
    });
  }, 60_000);
  afterAll(async () => {
    await both?.close();
    await s3.destroy();
  });

  it('copies a frame grab into the bucket, verified, and serves it', async () => {
    const { ship, shore, shipAdmin, shoreAdmin, key, proxy } = both;
    const image = Buffer.alloc(60_000);
    for (let i = 0; i < image.length; i++) image[i] = (i * 17) & 0xff;
    await ship.ctx.store.put('images/grab_0001.jpg', image);
    const event = (
      await ship.api('POST', '/events', { token: shipAdmin, body: { event_value: 'FRAMEGRAB' } })
    ).json() as { insertedId: string };
    const aux = await ship.api('POST', '/event_aux_data', {
      token: shipAdmin,
      body: {
        event_id: event.insertedId,
        data_source: 'vehicleRealtimeFramegrabberData',
        data_array: [{ data_name: 'filename', data_value: '/framegrabs/grab_0001.jpg' }],
      },
    });
    expect(aux.statusCode).toBe(201);
    const added = await shore.api('POST', '/ships', {
      token: shoreAdmin,
      body: { name: 'Falkor (too)', url: proxy.url, key },
    });
    expect(added.statusCode).toBe(201);

    const copied = await waitUntil(
      'the frame grab in the shore bucket',
      async () => {
        const body = await shore.ctx.store.readBuffer('images/grab_0001.jpg');
        return body && sha(body) === sha(image) ? body : null;
      },
      30_000,
    );
    expect(copied.length).toBe(image.length);
    // Nothing of it in the shore's data folder: the staging copy went to the bucket.
    expect(shore.ctx.store.kind).toBe('s3');
    const served = await shore.app.inject({
      method: 'GET',
      url: '/sealog-server/files/images/grab_0001.jpg',
      headers: { authorization: `Bearer ${shoreAdmin}` },
    });
    expect(served.statusCode).toBe(200);
    expect(sha(served.rawPayload)).toBe(sha(image));
  }, 60_000);
});
