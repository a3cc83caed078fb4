import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { listenInRange } from '../realtime/testing/ws-test-client.js';

/**
 * An upload refused before its body is read (no token, no right, a record that is not there) is
 * answered once its body has arrived, so a client that sends the whole body before it reads
 * (as most HTTP clients do) sees the 401/403/404 rather than a reset connection
 * (docs/bad-input.md#refused-uploads).
 */
describe('refused uploads', () => {
  let t: TestApp;
  let port: number;
  let watcher: string;
  let eventId: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    port = await listenInRange(t.app);
    const admin = await t.login('admin', 'demo');
    const made = await t.api('POST', '/users', {
      token: admin,
      body: {
        username: 'watcher',
        fullname: 'W',
        email: 'w@example.org',
        password: 'secret-pw',
        roles: ['event_watcher'],
      },
    });
    expect(made.statusCode).toBe(201);
    watcher = await t.login('watcher', 'secret-pw');
    const event = await t.api('POST', '/events', { token: admin, body: { event_value: 'PHOTO' } });
    eventId = (event.json() as { insertedId: string }).insertedId;
  });
  afterAll(() => t?.close());

  /**
   * Sends a multipart upload of `size` bytes over a plain TCP connection, the whole body first (in
   * chunks, as a client streams a file), and only then reads; answers the status line it read, or
   * the socket error that ended it.
   */
  function upload(path: string, size: number, token?: string): Promise<string> {
    const boundary = 'bathylogboundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="filepond"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const length = head.length + size + tail.length;
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(answer.split('\r\n')[0] || `error ${err.code}`));
      socket.once('close', () => resolve(answer.split('\r\n')[0] || 'closed without an answer'));
      socket.once('connect', async () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
            `Content-Length: ${length}\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}\r\n` +
            head,
        );
        const chunk = Buffer.alloc(64 * 1024, 0xab);
        for (let sent = 0; sent < size && !socket.destroyed; sent += chunk.length) {
          const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
          if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r));
        }
        if (!socket.destroyed) socket.end(tail);
        // Reads only now, as a client that sends its whole request first.
        socket.on('data', (chunk: string) => (answer += chunk));
      });
    });
  }

  it('answers 401 without a token, 403 without the right, 404 for no event, once the body is in', async () => {
    const images = `/sealog-server/files/images/filepond/process/${eventId}`;
    const size = 6 * 1024 * 1024;
    expect(await upload(images, size)).toBe('HTTP/1.1 401 Unauthorized');
    expect(await upload(images, size, watcher)).toBe('HTTP/1.1 403 Forbidden');
    const admin = await t.login('admin', 'demo');
    expect(await upload('/sealog-server/files/images/filepond/process/64a0000000000000000000ff', size, admin)).toMatch(
      /^HTTP\/1\.1 (400|404) /,
    );
  });
});
