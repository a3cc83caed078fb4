import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, Peer, recordingDeps, requestAt, waitUntil } from '../../../test/aux-live.js';
import { peer } from '../../../test/peers.js';
import type { AuxSource } from '../source.js';
import { liveSources } from './index.js';
import { mqttConfigSchema } from './mqtt.js';

const mosquitto = peer('mosquitto');

describe.skipIf(!mosquitto)('MQTT source (a mosquitto the test starts)', () => {
  let port: number;
  let broker: Peer;
  let source: AuxSource;
  let publisher: MqttClient;
  const { deps, lines } = recordingDeps();
  const startBroker = () => new Peer(mosquitto!, ['-p', String(port)]);
  const publish = (topic: string, message: unknown) =>
    publisher.publishAsync(topic, typeof message === 'string' ? message : JSON.stringify(message));
  const keys = ['ship/nav.lat', 'ship/nav.lon', 'ship/nav.gyro.heading', 'rov/depth.value'];
  let started = 0;

  beforeAll(async () => {
    port = await freePort();
    broker = startBroker();
    publisher = await waitUntil('mosquitto up', () =>
      connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 200 }),
    );
    started = Date.now();
    source = liveSources.mqtt!.create(
      // Credentials in the URL: they must reach the broker and nothing else.
      { url: `mqtt://bathy:s3cret-pw@127.0.0.1:${port}`, topics: ['ship/#', 'rov/depth'], reconnect_seconds: 0.2 },
      deps,
    );
    await source.start();
    await waitUntil('subscribed', async () => source.health().connected);
    await new Promise((r) => setTimeout(r, 200)); // the SUBACK follows the CONNACK
  });
  afterAll(async () => {
    await publisher?.endAsync(true);
    await source?.stop();
    await broker.stop();
  });

  it('keys JSON messages by <topic>.<json path>, from wildcard subscriptions too', async () => {
    await publish('ship/nav', { lat: 23.522636, lon: -45.012302, gyro: { heading: 10.59 } });
    await publish('rov/depth', 1523.7);
    await publish('other/topic', { lat: 1 });
    const r = await waitUntil('both messages', async () => {
      const got = await source.readingAt(requestAt(Date.now(), keys));
      return got.kind === 'reading' && Object.keys(got.reading.values).length === 4 ? got : null;
    });
    expect(r.reading.values).toEqual({
      'ship/nav.lat': 23.522636,
      'ship/nav.lon': -45.012302,
      'ship/nav.gyro.heading': 10.59,
      'rov/depth.value': 1523.7,
    });
    expect(await source.readingAt(requestAt(Date.now(), ['other/topic.lat']))).toEqual({ kind: 'no_data' });
  });

  it('gives an event outside the window no value', async () => {
    expect(await source.readingAt(requestAt(started - 1, keys))).toEqual({ kind: 'not_backfillable' });
    await new Promise((r) => setTimeout(r, 400));
    expect(await source.readingAt(requestAt(Date.now(), keys, { maxAgeMs: 300 }))).toMatchObject({ kind: 'stale' });
  });

  it('says not connected while the broker is down, resubscribes when it returns, and never shows the password', async () => {
    await broker.stop();
    await waitUntil('health to say not connected', async () => !source.health().connected);
    const down = source.health();
    expect(down.lastError).toMatch(/MQTT broker mqtt:\/\/127\.0\.0\.1:\d+\/? (closed the connection|is offline)/);
    broker = startBroker();
    await waitUntil('source reconnected', async () => source.health().connected, 20_000);
    await waitUntil('publisher reconnected', async () => publisher.connected, 20_000);
    await waitUntil(
      'a message after the broker returned',
      async () => {
        await publish('ship/nav', { lat: 23.522532, lon: -45.010954 });
        const got = await source.readingAt(requestAt(Date.now(), ['ship/nav.lat']));
        return got.kind === 'reading' && got.reading.values['ship/nav.lat'] === 23.522532;
      },
      20_000,
    );
    const everything = JSON.stringify(source.health()) + down.lastError + lines.join('\n');
    expect(everything).not.toContain('s3cret-pw');
  });

  it('refuses a configuration with a message naming the key', () => {
    const r = mqttConfigSchema.safeParse({ url: 'http://broker', topics: [] });
    expect(r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'url: url must be an mqtt:// or mqtts:// URL',
      'topics: topics must name at least one topic',
    ]);
  });
});
