import http from 'node:http';
import zlib from 'node:zlib';

/** One answer of the hostile ship to a changes request: a page, or raw bytes already encoded. */
export type HostileAnswer =
  { page: Record<string, unknown> } | { raw: Buffer; encoding?: 'gzip'; status?: number; contentType?: string };

/**
 * A ship that is not a Bathylog server: a small HTTP server answering the sync protocol with pages
 * a test writes (docs/ship-to-shore.md#the-change-feed). The shore following it is real; this is
 * the attacker, or anyone sitting on the link, so its answers are crafted on purpose.
 *
 * Pages are served in order by cursor: page n answers `after=h.<n-1>` (the first, no cursor) and
 * says `next: h.<n>`; past the last page it answers an empty page at the same cursor. An answer
 * pushed with `once` is served to the next request only, whatever its cursor.
 */
export class HostileShip {
  private readonly server: http.Server;
  private readonly pages: Array<Array<Record<string, unknown>>> = [];
  private readonly once: HostileAnswer[] = [];
  /** Every changes request's `after` (undefined for none), in order. */
  readonly asked: Array<string | undefined> = [];
  /** The files it serves, by SHA-256. */
  readonly files = new Map<string, Buffer>();
  port = 0;

  constructor() {
    this.server = http.createServer((req, res) => this.answer(req, res));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The cursor after the last page pushed so far. */
  get lastCursor(): string {
    return `h.${this.pages.length}`;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** A page of changes (served after the pages before it). Returns the cursor after it. */
  push(changes: Array<Record<string, unknown>>): string {
    this.pages.push(changes);
    return this.lastCursor;
  }

  /** An answer served to the next changes request only. */
  pushOnce(answer: HostileAnswer): void {
    this.once.push(answer);
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://ship');
    const send = (status: number, body: Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-length': String(body.length), ...headers });
      res.end(body);
    };
    const json = (status: number, value: unknown) => {
      const body = zlib.gzipSync(Buffer.from(JSON.stringify(value)));
      send(status, body, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    };
    // Drain any body (comments).
    req.resume();
    if (url.pathname.endsWith('/sync/changes')) {
      const after = url.searchParams.get('after') ?? undefined;
      this.asked.push(after);
      const once = this.once.shift();
      if (once) {
        if ('page' in once) json(200, once.page);
        else
          send(once.status ?? 200, once.raw, {
            'content-type': once.contentType ?? 'application/json',
            ...(once.encoding ? { 'content-encoding': once.encoding } : {}),
          });
        return;
      }
      const index = after ? Number(after.slice(2)) : 0;
      const changes = this.pages[index];
      const next = changes ? `h.${index + 1}` : (after ?? 'h.0');
      json(200, {
        changes: changes ?? [],
        next,
        more: index + 1 < this.pages.length,
        head: this.lastCursor,
        head_bytes_behind: 0,
        head_records_behind: 0,
      });
      return;
    }
    const file = /\/sync\/files\/([0-9a-f]{64})$/.exec(url.pathname);
    if (file) {
      const bytes = this.files.get(file[1]!);
      if (!bytes) {
        json(404, { statusCode: 404, error: 'Not Found', message: 'gone' });
        return;
      }
      send(200, bytes, { 'content-type': 'application/octet-stream' });
      return;
    }
    if (url.pathname.endsWith('/sync/comments')) {
      send(201, Buffer.alloc(0));
      return;
    }
    json(404, { statusCode: 404, error: 'Not Found', message: 'nothing here' });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
