import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

type Pair = [number, unknown];

/**
 * A CachedDataServer as OpenRVDAS documents and implements it (server/cached_data_server.py): a cache of
 * `[timestamp, value]` pairs per field; `subscribe` names fields with `seconds` (0: only values arriving from
 * then on, -1: the latest value first, n: n seconds back) and is answered `{"type":"subscribe","status":200}`;
 * each `ready` is answered `{"type":"data","status":200,"data":{field: [[ts, value], …]}}` with the values newer
 * than those already sent, and the next request is read only after the interval; a request it cannot serve is
 * answered `{"status":400,"error":…}`.
 */
export class CachedDataServer {
  readonly cache = new Map<string, Pair[]>();
  readonly requests: unknown[] = [];
  private server: WebSocketServer;

  private constructor(
    server: WebSocketServer,
    private readonly intervalMs: number,
  ) {
    this.server = server;
    server.on('connection', (ws) => this.serve(ws));
  }

  static async start(port = 0, intervalMs = 100): Promise<CachedDataServer> {
    const server = new WebSocketServer({ host: '127.0.0.1', port });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new CachedDataServer(server, intervalMs);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** What a logger's CachedDataWriter publishes: one record's fields at its timestamp (seconds). */
  publish(timestamp: number, fields: Record<string, unknown>): void {
    for (const [field, value] of Object.entries(fields)) {
      const list = this.cache.get(field) ?? [];
      list.push([timestamp, value]);
      this.cache.set(field, list);
    }
  }

  private serve(ws: WebSocket): void {
    let interval = this.intervalMs;
    let sent: Map<string, number> | null = null;
    const queue: string[] = [];
    let busy = false;
    const next = async () => {
      if (busy) return;
      busy = true;
      while (queue.length > 0) {
        const raw = queue.shift()!;
        let request: Record<string, unknown>;
        try {
          request = JSON.parse(raw) as Record<string, unknown>;
          this.requests.push(request);
        } catch {
          ws.send(JSON.stringify({ status: 400, error: 'received unparseable JSON' }));
          continue;
        }
        if (request.type === 'subscribe') {
          if (typeof request.interval === 'number') interval = request.interval * 1000;
          const fields = request.fields as Record<string, { seconds?: number }> | undefined;
          if (!fields || Object.keys(fields).length === 0) {
            ws.send(JSON.stringify({ type: 'subscribe', status: 400, error: 'no fields found in subscribe request' }));
            continue;
          }
          const now = Date.now() / 1000;
          sent = new Map(
            Object.entries(fields).map(([f, spec]) => {
              const back = spec?.seconds ?? 0;
              return [f, back === -1 ? -1 : now - back];
            }),
          );
          ws.send(JSON.stringify({ type: 'subscribe', status: 200 }));
        } else if (request.type === 'ready') {
          if (!sent) {
            ws.send(JSON.stringify({ type: 'ready', status: 400, error: 'client ready, but no data requested.' }));
            continue;
          }
          const results: Record<string, Pair[]> = {};
          for (const [field, latest] of sent) {
            const cached = this.cache.get(field);
            if (!cached?.length) continue;
            const newest = cached[cached.length - 1]!;
            if (latest === -1) results[field] = [newest];
            else if (newest[0] > latest) results[field] = cached.filter((p) => p[0] > latest);
            else continue;
            sent.set(field, newest[0]);
          }
          ws.send(JSON.stringify({ type: 'data', status: 200, data: results }));
          await new Promise((r) => setTimeout(r, interval));
        } else {
          ws.send(JSON.stringify({ status: 400, error: `unrecognized request type: ${String(request.type)}` }));
        }
      }
      busy = false;
    };
    ws.on('message', (data) => {
      queue.push(data.toString());
      void next();
    });
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
