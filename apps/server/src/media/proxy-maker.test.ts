import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peer } from '../../test/peers.js';
import { makeProxy, ProxyError } from './proxy-maker.js';

const ffmpeg = peer('ffmpeg');

/**
 * ffmpeg's last words reach the caller of a proxy that failed, but never a URL's query: a signed
 * URL (a copy in a bucket) or a camera server's token stays inside the server.
 */
describe.skipIf(!ffmpeg)('the message of a proxy ffmpeg could not make', () => {
  let server: Server;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'proxy-maker-'));
    server = createServer((_req, res) => res.writeHead(403).end('no'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the address without its query', async () => {
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/recordings/a.mp4?X-Amz-Credential=KEYID&X-Amz-Signature=deadbeef`;
    const made = makeProxy({
      ffmpeg: ffmpeg!,
      source: { kind: 'url', url },
      deinterlace: false,
      out: path.join(dir, 'out.mp4'),
      timeoutMs: 30_000,
    });
    await expect(made).rejects.toBeInstanceOf(ProxyError);
    const message = await made.catch((err: Error) => err.message);
    expect(message).toMatch(/^ffmpeg could not make the proxy: /);
    expect(message).toContain(`http://127.0.0.1:${port}/recordings/a.mp4`);
    expect(message).not.toMatch(/X-Amz|KEYID|deadbeef/);
  });
});
