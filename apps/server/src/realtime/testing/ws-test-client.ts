import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

/** Ports the realtime tests may listen on (the range this work was given). */
const firstPort = 8700;
const lastPort = 8799;

/** Listens on the first free port of 8700-8799 and returns it (or the port it listens on already). */
export async function listenInRange(app: FastifyInstance): Promise<number> {
  // A retried test finds its app listening already.
  const listening = app.server.address();
  if (listening && typeof listening === 'object') return listening.port;
  const start = firstPort + Math.floor(Math.random() * (lastPort - firstPort + 1));
  for (let i = 0; i <= lastPort - firstPort; i++) {
    const port = firstPort + ((start - firstPort + i) % (lastPort - firstPort + 1));
    try {
      await app.listen({ port, host: '127.0.0.1' });
      return port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  throw new Error('no free port in 8700-8799');
}

export type Frame = Record<string, unknown>;

/**
 * A raw websocket client for protocol tests: sends frames exactly as given (as the Python
 * scripts do) and records every frame it receives.
 */
export class RawClient {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<{ match: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  private isClosed = false;

  private constructor(
    readonly ws: WebSocket,
    /** Answer server pings with {type:'ping', id} as websockets_test.py does. */
    public answerPings: boolean,
    private readonly pingId: string | number,
  ) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.isClosed = true;
        resolve({ code, reason: reason.toString() });
      });
    });
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      if (frame.type === 'ping' && this.answerPings) this.send({ type: 'ping', id: this.pingId });
      for (const w of [...this.waiters]) {
        if (w.match(frame)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(frame);
        }
      }
    });
  }

  static async open(
    port: number,
    opts: {
      path?: string;
      answerPings?: boolean;
      pingId?: string | number;
      /** Headers of the upgrade request (a browser sends Origin and its cookies). */
      headers?: Record<string, string>;
    } = {},
  ): Promise<RawClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${opts.path ?? '/ws'}`, { headers: opts.headers ?? {} });
    const client = new RawClient(ws, opts.answerPings ?? true, opts.pingId ?? 'websocketTest');
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  get isOpen(): boolean {
    return !this.isClosed && this.ws.readyState === WebSocket.OPEN;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The next frame (already received or still to come) that matches; fails after timeoutMs. */
  next(match: (f: Frame) => boolean, timeoutMs = 5000, seen = 0): Promise<Frame> {
    const found = this.frames.slice(seen).find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (f: Frame) => {
          clearTimeout(timer);
          resolve(f);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a frame and waits for the reply carrying its id (a reply or an error frame). */
  async call(frame: Frame, timeoutMs = 5000): Promise<Frame> {
    const seen = this.frames.length;
    this.send(frame);
    return this.next((f) => f.id === frame.id && f.type === frame.type, timeoutMs, seen);
  }

  /** Pub frames received so far for a path. */
  pubs(path: string): unknown[] {
    return this.frames.filter((f) => f.type === 'pub' && f.path === path).map((f) => f.message);
  }

  /** The first pub on `path` that arrives after this call (start waiting before the action). */
  async nextPub(path: string, timeoutMs = 5000): Promise<unknown> {
    const frame = await this.next((f) => f.type === 'pub' && f.path === path, timeoutMs, this.frames.length);
    return frame.message;
  }

  close(): void {
    if (!this.isClosed) this.ws.close();
  }
}

/** The hello a Python script sends (misc/python_sealog, websockets_test.py). */
export function scriptHello(token: string, subs: string[], id: string | number = 'websocketTest'): Frame {
  return { type: 'hello', id, auth: { headers: { Authorization: `Bearer ${token}` } }, version: '2', subs };
}

/** Resolves after ms; only for waiting out a period in which nothing may arrive. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
