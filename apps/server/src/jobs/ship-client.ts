import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { TokenBucket } from '../lib/token-bucket.js';

export class ShipHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ShipResponse {
  status: number;
  body: Buffer;
  /** Bytes on the wire both ways (request and response headers included, body as sent). */
  wireBytes: number;
}

const requestTimeoutMs = 60_000;
/**
 * An answer's status line and headers are taken with the request before it is sent (what came on
 * top is booked when it has arrived): with several requests in flight, headers booked only
 * afterwards would all pass on top of the cap at once. The size taken is what the last answer on
 * the same bucket (the same ship) brought; 1 KiB before the first.
 */
const answerHeaderBytes = new WeakMap<TokenBucket, number>();
const firstAnswerHeaderGuess = 1024;

/**
 * One request to a ship, its bytes counted against the follower's bucket: the expected size is
 * taken before it is sent, what came on top is booked after (docs/ship-to-shore.md#the-cap).
 */
export async function shipRequest(
  base: string,
  key: string,
  bucket: TokenBucket,
  req: { method: 'GET' | 'POST'; path: string; body?: unknown; range?: [number, number]; expect: number },
  signal?: AbortSignal,
): Promise<ShipResponse> {
  const url = new URL(`/sealog-server/api/v1${req.path}`, `${base}/`);
  const payload = req.body === undefined ? null : Buffer.from(JSON.stringify(req.body));
  const headers: Record<string, string> = {
    authorization: `Bearer ${key}`,
    'accept-encoding': 'gzip, deflate',
    ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
    ...(req.range ? { range: `bytes=${req.range[0]}-${req.range[1]}` } : {}),
  };
  const requestBytes =
    `${req.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`.length +
    Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 2) +
    (payload?.length ?? 0);
  const taken = requestBytes + (answerHeaderBytes.get(bucket) ?? firstAnswerHeaderGuess) + req.expect;
  await bucket.take(taken, signal);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<ShipResponse>((resolve, reject) => {
    const request = client.request(url, { method: req.method, headers, signal, timeout: requestTimeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let raw = 0;
      res.on('data', (chunk: Buffer) => {
        raw += chunk.length;
        chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        const headerBytes = res.rawHeaders.reduce((n, h) => n + h.length + 2, 20);
        answerHeaderBytes.set(bucket, headerBytes);
        const wireBytes = requestBytes + headerBytes + raw;
        bucket.settle(wireBytes - taken);
        let body = Buffer.concat(chunks);
        try {
          const encoding = res.headers['content-encoding'];
          if (encoding === 'gzip') body = zlib.gunzipSync(body);
          else if (encoding === 'deflate') body = zlib.inflateSync(body);
          else if (encoding === 'br') body = zlib.brotliDecompressSync(body);
        } catch (err) {
          reject(err as Error);
          return;
        }
        const status = res.statusCode ?? 0;
        if (status >= 400) {
          let message = `The ship answered ${status}`;
          try {
            const parsed = JSON.parse(body.toString('utf8')) as { message?: unknown };
            if (typeof parsed.message === 'string') message = `The ship answered ${status}: ${parsed.message}`;
          } catch {
            // not JSON
          }
          reject(new ShipHttpError(status, message));
          return;
        }
        resolve({ status, body, wireBytes });
      });
    });
    request.on('timeout', () => request.destroy(new Error('The ship did not answer in time')));
    request.on('error', reject);
    request.end(payload ?? undefined);
  });
}
