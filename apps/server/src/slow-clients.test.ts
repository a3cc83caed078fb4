import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { listenInRange, RawClient, scriptHello, sleep } from './realtime/testing/ws-test-client.js';

/**
 * Slow and silent clients (docs/bad-input.md): a client that trickles its headers or its body, sits idle,
 * or opens websockets without saying hello is cut off by the configured timeouts, and while a
 * crowd of them is connected a normal request is still answered.
 */
describe('slow clients', () => {
  let t: TestApp;
  let port: number;
  let admin: string;
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      http: { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 300, idleTimeoutMs: 1500 },
      realtime: { helloTimeoutMs: 400 },
    });
    port = await listenInRange(t.app);
    admin = await t.login('admin', 'demo');
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await t?.close();
  });

  /** A raw TCP connection that records what the server sends and when it hangs up. */
  function rawSocket(): Promise<{ socket: net.Socket; received: () => string; ended: Promise<void> }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      sockets.push(socket);
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (data += chunk));
      const ended = new Promise<void>((done) => socket.once('close', () => done()));
      socket.once('error', () => undefined);
      socket.once('connect', () => resolve({ socket, received: () => data, ended }));
      socket.once('error', reject);
    });
  }

  /** Sends `text` one byte every `everyMs` until the socket closes. */
  function trickle(socket: net.Socket, text: string, everyMs: number): void {
    let i = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || i >= text.length) return clearInterval(timer);
      socket.write(text[i++]!);
    }, everyMs);
    socket.once('close', () => clearInterval(timer));
  }

  const normalRequest = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/sealog-server/api/v1/auth/validate`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    return res.status;
  };

  it('cuts off clients that trickle their headers, answering others meanwhile', async () => {
    const slow = await Promise.all(Array.from({ length: 40 }, () => rawSocket()));
    const headers = `GET /sealog-server/server_time HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    for (const s of slow) trickle(s.socket, headers, 50);
    expect(await normalRequest()).toBe(200);
    await Promise.all(slow.map((s) => s.ended));
    for (const s of slow) {
      expect(s.received()).not.toContain('200 OK');
      expect(s.received()).toMatch(/^$|^HTTP\/1\.1 408/);
    }
  });

  it('cuts off clients that trickle their body, answering others meanwhile', async () => {
    const slow = await Promise.all(Array.from({ length: 40 }, () => rawSocket()));
    const body = JSON.stringify({ username: 'admin', password: 'x'.repeat(100) });
    for (const s of slow) {
      s.socket.write(
        `POST /sealog-server/api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      trickle(s.socket, body, 50);
    }
    expect(await normalRequest()).toBe(200);
    await Promise.all(slow.map((s) => s.ended));
    for (const s of slow) expect(s.received()).not.toMatch(/HTTP\/1\.1 (200|401)/);
  });

  it('closes connections that never send anything, and idle keep-alive connections', async () => {
    const silent = await Promise.all(Array.from({ length: 40 }, () => rawSocket()));
    expect(await normalRequest()).toBe(200);
    await Promise.all(silent.map((s) => s.ended));

    const kept = await rawSocket();
    kept.socket.write('GET /sealog-server/server_time HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await kept.ended;
    expect(kept.received()).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('closes a flood of websockets that never say hello, while a client that does is served', async () => {
    const flood = await Promise.all(Array.from({ length: 60 }, () => RawClient.open(port, { answerPings: false })));
    const polite = await RawClient.open(port);
    expect((await polite.call(scriptHello(admin, []))).type).toBe('hello');
    expect(await normalRequest()).toBe(200);
    await Promise.all(flood.map((c) => c.closed));
    for (const c of flood) expect(c.frames.filter((f) => f.type !== 'ping')).toEqual([]);
    // The client that said hello is still connected after the others were dropped.
    await sleep(100);
    expect(polite.isOpen).toBe(true);
    polite.close();
  });
});
