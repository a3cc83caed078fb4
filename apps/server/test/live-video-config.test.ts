import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * Live stream addresses per camera (docs/video.md#live-video) reach every console through the
 * runtime settings, so an address carrying credentials (or not http(s)) stops the server from
 * starting, and the error does not repeat the password.
 */
describe('live video streams', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('refuses an address with credentials or another scheme, without echoing the secret', () => {
    for (const value of [
      'cam1=https://pilot:hunter2@video.ship.example/cam1.m3u8',
      'cam1=rtsp://video.ship.example/cam1',
      'cam1=javascript:alert(1)',
      'bad camera=https://video.ship.example/cam1.m3u8',
    ]) {
      let error: unknown;
      try {
        loadConfig({ BATHYLOG_LIVE_VIDEO_STREAMS: value });
      } catch (err) {
        error = err;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect(String((error as Error).message)).toContain('liveVideoStreams');
      expect(String((error as Error).message)).not.toContain('hunter2');
    }
  });

  it('hands the configured streams to the client', async () => {
    const config = loadConfig({
      BATHYLOG_LIVE_VIDEO_STREAMS: 'cam1=https://video.ship.example/cam1.m3u8, cam2=http://10.0.0.5/cam2',
    });
    expect(config.client.liveVideoStreams).toEqual({
      cam1: 'https://video.ship.example/cam1.m3u8',
      cam2: 'http://10.0.0.5/cam2',
    });
    t = await createTestApp('sqlite', {
      client: { liveVideoStreams: { cam1: 'https://video.ship.example/cam1.m3u8' } },
    });
    const res = await t.app.inject({ method: 'GET', url: '/sealog-server/client_settings' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { liveVideoStreams: unknown }).liveVideoStreams).toEqual({
      cam1: 'https://video.ship.example/cam1.m3u8',
    });
  });
});
