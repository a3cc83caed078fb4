import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { isRefusedShipIp, refusedShipAddressMessage, shipLookup } from '../lib/ship-address.js';
import type { TokenBucket } from '../lib/token-bucket.js';

/**
 * The ship answered an error status. The message the shore shows is generic (the answer's status
 * and text are not reflected, docs/security.md#a-followed-ship); `detail` is for the server log.
 */
export class ShipHttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(status === 401 || status === 403 ? 'The ship refused the key' : 'The ship answered with an error');
  }
}

/** What the shore says of a ship's answer it would not take; safe to show as it is. */
export class ShipAnswerError extends Error {}

/** The message a ship's failure is shown with: the shore's own, never the text of a socket error. */
export function shownShipError(err: unknown): string {
  if (err instanceof ShipHttpError || err instanceof ShipAnswerError) return err.message;
  if ((err as { code?: unknown } | null)?.code === 'EREFUSEDADDRESS') return refusedShipAddressMessage;
  return 'The ship cannot be reached';
}

export interface ShipResponse {
  status: number;
  body: Buffer;
  /** Bytes on the wire both ways (request and response headers included, body as sent). */
  wireBytes: number;
}

const requestTimeoutMs = 60_000;
/** An error answer is read this far at most (its text is only logged). */
const errorBodyBytes = 64 * 1024;
/** Compression may make incompressible bytes a little larger than they were. */
const compressionSlack = 64 * 1024;
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
  req: {
    method: 'GET' | 'POST';
    path: string;
    body?: unknown;
    range?: [number, number];
    expect: number;
    /**
     * The most the answer may bring, as sent and once inflated: a larger one is cut off and
     * refused, so a small compressed answer cannot fill the shore's memory.
     */
    maxBytes: number;
  },
  signal: AbortSignal | undefined,
  opts: { allowPrivateHosts: boolean },
): Promise<ShipResponse> {
  const url = new URL(`/sealog-server/api/v1${req.path}`, `${base}/`);
  if (!opts.allowPrivateHosts && (url.hostname === 'localhost' || isRefusedShipIp(url.hostname))) {
    throw new ShipAnswerError(refusedShipAddressMessage);
  }
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
    let settled = false;
    const request = client.request(
      url,
      {
        method: req.method,
        headers,
        signal,
        timeout: requestTimeoutMs,
        ...(opts.allowPrivateHosts ? {} : { lookup: shipLookup }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const failed = status >= 400;
        const limit = failed ? errorBodyBytes : req.maxBytes;
        const chunks: Buffer[] = [];
        let raw = 0;
        let inflated = 0;
        const fail = (err: Error) => {
          if (settled) return;
          settled = true;
          decoder?.destroy();
          request.destroy();
          reject(err);
        };
        const tooLarge = () => fail(new ShipAnswerError('The ship answered more than was asked for'));
        const take = (chunk: Buffer) => {
          inflated += chunk.length;
          if (inflated > limit) tooLarge();
          else chunks.push(chunk);
        };
        const encoding = res.headers['content-encoding'];
        const decoder =
          encoding === 'gzip'
            ? zlib.createGunzip()
            : encoding === 'deflate'
              ? zlib.createInflate()
              : encoding === 'br'
                ? zlib.createBrotliDecompress()
                : null;
        const finish = () => {
          if (settled) return;
          settled = true;
          const headerBytes = res.rawHeaders.reduce((n, h) => n + h.length + 2, 20);
          answerHeaderBytes.set(bucket, headerBytes);
          const wireBytes = requestBytes + headerBytes + raw;
          bucket.settle(wireBytes - taken);
          const body = Buffer.concat(chunks);
          if (failed) {
            let detail = `HTTP ${status}`;
            try {
              const parsed = JSON.parse(body.toString('utf8')) as { message?: unknown };
              if (typeof parsed.message === 'string') detail = `HTTP ${status}: ${parsed.message.slice(0, 500)}`;
            } catch {
              // not JSON
            }
            reject(new ShipHttpError(status, detail));
            return;
          }
          resolve({ status, body, wireBytes });
        };
        if (Number(res.headers['content-length'] ?? 0) > limit + compressionSlack) {
          tooLarge();
          return;
        }
        decoder?.on('data', take);
        decoder?.on('error', () => fail(new ShipAnswerError('The ship answered with a broken compression')));
        decoder?.on('end', finish);
        res.on('data', (chunk: Buffer) => {
          raw += chunk.length;
          if (raw > limit + compressionSlack) tooLarge();
          else if (decoder) decoder.write(chunk);
          else take(chunk);
        });
        res.on('error', fail);
        res.on('end', () => {
          if (decoder) decoder.end();
          else finish();
        });
      },
    );
    request.on('timeout', () => request.destroy(new ShipAnswerError('The ship did not answer in time')));
    request.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(err);
    });
    request.end(payload ?? undefined);
  });
}
