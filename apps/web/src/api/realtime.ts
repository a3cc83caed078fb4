import {
  executeOutputPath,
  isExecuteOutputEnd,
  isNesErrorFrame,
  nesProtocolVersion,
  wsPath,
  type NesErrorFrame,
  type NesHeartbeat,
  type WsChannel,
  type WsPayloads,
} from '@bathylog/shared';

/**
 * The websocket client: the hapi nes protocol v2 (docs/wire.md#nes-protocol) over a plain
 * WebSocket, the same frames the Sealog scripts send. One connection per tab; subscriptions are
 * kept across reconnects (re-sent in each hello), the token is read afresh for every hello so a new
 * login re-authenticates, and a dropped link reconnects with exponential backoff. A hello refused
 * as unauthorised stops reconnecting until the token changes (reauthenticate()).
 */
export type RealtimeState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'unauthorized' | 'closed';

/** What the client needs of a WebSocket: the browser's, or `ws` in Node tests. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

export interface RealtimeClientOptions {
  /** Default: `ws(s)://<page host>/ws`. */
  url?: string;
  /**
   * Read for every hello and reauth: null without a session; '' when the session cookie of the
   * upgrade request authenticates (the hello then carries no auth, and a new session connects
   * again so that the upgrade carries the new cookie).
   */
  getToken: () => string | null;
  createSocket?: WebSocketFactory;
  /** Reconnect after a dropped link (default true). */
  reconnect?: boolean;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Replies that do not come within this time fail their request (default 10 s). */
  requestTimeoutMs?: number;
  /** Problems worth a console line (the original logs them too). */
  onError?: (err: RealtimeError) => void;
}

/** A refused frame (nes error) or a lost connection. */
export class RealtimeError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'RealtimeError';
  }
}

export interface RequestResult {
  statusCode: number;
  payload: unknown;
}

type Handler = (payload: unknown) => void;

interface Pending {
  resolve: (frame: Record<string, unknown>) => void;
  reject: (err: RealtimeError) => void;
  timer: ReturnType<typeof setTimeout>;
}

const OPEN = 1;

/** `ws(s)://<host>/ws` of the page the client runs on. */
export function defaultRealtimeUrl(): string {
  const page = (globalThis as unknown as { location?: { protocol: string; host: string } }).location;
  if (!page) throw new Error('No page location to derive the websocket address from; pass `url`');
  return `${page.protocol === 'https:' ? 'wss' : 'ws'}://${page.host}/ws`;
}

function browserSocket(url: string): WebSocketLike {
  const Impl = (globalThis as unknown as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (!Impl) throw new Error('No WebSocket in this environment; pass `createSocket`');
  return new Impl(url);
}

export class RealtimeClient {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly updateHandlers = new Set<(message: unknown) => void>();
  private readonly stateHandlers = new Set<(state: RealtimeState) => void>();
  private readonly reconnectHandlers = new Set<() => void>();
  private readonly pending = new Map<number, Pending>();
  /** Paths the server refused (e.g. missing role) for the current user; retried after reauth. */
  private readonly refused = new Set<string>();
  private ws: WebSocketLike | null = null;
  private ids = 0;
  private attempt = 0;
  private everOpened = false;
  private current: RealtimeState = 'idle';
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: NesHeartbeat | null = null;
  private stopped = true;
  private readonly opts: Required<Omit<RealtimeClientOptions, 'url' | 'onError'>> &
    Pick<RealtimeClientOptions, 'url' | 'onError'>;

  constructor(options: RealtimeClientOptions) {
    this.opts = {
      reconnect: true,
      minDelayMs: 500,
      maxDelayMs: 15_000,
      requestTimeoutMs: 10_000,
      createSocket: browserSocket,
      ...options,
    };
  }

  get state(): RealtimeState {
    return this.current;
  }

  private setState(state: RealtimeState): void {
    if (this.current === state) return;
    this.current = state;
    for (const h of [...this.stateHandlers]) h(state);
  }

  onState(handler: (state: RealtimeState) => void): () => void {
    this.stateHandlers.add(handler);
    return () => this.stateHandlers.delete(handler);
  }

  /** Called after a reconnect: whatever was published while offline was missed, so refetch. */
  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  /** `update` frames (external-call output after a /ws/execute_output request). */
  onUpdate(handler: (message: unknown) => void): () => void {
    this.updateHandlers.add(handler);
    return () => this.updateHandlers.delete(handler);
  }

  /** Starts connecting (and keeps reconnecting until close()). */
  connect(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  /** Stops for good: no reconnects; subscriptions are kept for a later connect(). */
  close(): void {
    this.stopped = true;
    this.dropSocket('Connection closed');
    this.setState('closed');
  }

  /**
   * The token changed (login, switch user): an open socket sends `reauth`; a socket refused as
   * unauthorised, or none, connects again with the new token.
   */
  reauthenticate(): void {
    if (this.stopped) return;
    if (this.current === 'open' && this.ws) {
      const token = this.opts.getToken();
      if (!token) {
        this.restart();
        return;
      }
      this.call({ type: 'reauth', auth: authOf(token) }).then(
        () => this.resubscribeRefused(),
        () => undefined, // a refused reauth closes the socket; onclose decides what comes next
      );
      return;
    }
    this.restart();
  }

  /**
   * Stops the timers, detaches the socket's handlers before closing it (so its close starts no
   * reconnect) and fails the calls still waiting on it with `reason`.
   */
  private dropSocket(reason: string): void {
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.onerror = null;
      ws.close(1000);
    }
    this.failPending(new RealtimeError(reason, 0));
  }

  private restart(): void {
    this.refused.clear();
    this.dropSocket('Connection restarted');
    this.attempt = 0;
    this.open();
  }

  /** Subscribes to a channel (docs/wire.md#channels); returns the unsubscribe function. */
  subscribe<C extends WsChannel>(channel: C, handler: (payload: WsPayloads[C]) => void): () => void {
    return this.subscribePath(wsPath(channel), handler as Handler);
  }

  subscribePath(path: string, handler: Handler): () => void {
    let set = this.handlers.get(path);
    const isNew = !set;
    if (!set) this.handlers.set(path, (set = new Set()));
    set.add(handler);
    if (isNew && this.current === 'open') this.sendSub(path);
    return () => {
      const handlers = this.handlers.get(path);
      if (!handlers?.delete(handler) || handlers.size > 0) return;
      this.handlers.delete(path);
      this.refused.delete(path);
      if (this.current === 'open') this.call({ type: 'unsub', path }).catch(() => undefined);
    };
  }

  /** A nes request: runs a server route with the socket's user. */
  async request(path: string, init: { method?: string; payload?: unknown } = {}): Promise<RequestResult> {
    const reply = await this.call({
      type: 'request',
      method: init.method ?? 'GET',
      path,
      ...(init.payload !== undefined ? { payload: init.payload } : {}),
    });
    return { statusCode: reply.statusCode as number, payload: reply.payload };
  }

  private sendSub(path: string): void {
    this.call({ type: 'sub', path }).then(
      () => this.refused.delete(path),
      (err: RealtimeError) => {
        if (err.statusCode === 403 || err.statusCode === 404) this.refused.add(path);
        this.report(err);
      },
    );
  }

  /** After a reauth the new user may hold roles the old one lacked: try refused paths again. */
  private resubscribeRefused(): void {
    const paths = [...this.refused].filter((p) => this.handlers.has(p));
    this.refused.clear();
    for (const path of paths) this.sendSub(path);
  }

  private open(): void {
    if (this.stopped) return;
    const token = this.opts.getToken();
    if (token === null) {
      // Nothing to authenticate with: wait for reauthenticate() after a login.
      this.setState('unauthorized');
      return;
    }
    this.setState(this.everOpened ? 'reconnecting' : 'connecting');
    let ws: WebSocketLike;
    try {
      ws = this.opts.createSocket(this.opts.url ?? defaultRealtimeUrl());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.hello(ws);
    ws.onmessage = (ev) => this.receive(ws, ev.data);
    ws.onerror = () => undefined; // onclose follows and decides
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.clearWatchdog();
      this.failPending(new RealtimeError('Connection lost', 0));
      if (this.current === 'unauthorized' || this.stopped) return;
      this.scheduleReconnect();
    };
  }

  private hello(ws: WebSocketLike): void {
    const token = this.opts.getToken();
    const subs = [...this.handlers.keys()];
    this.call(
      {
        type: 'hello',
        version: nesProtocolVersion,
        ...(token ? { auth: authOf(token) } : {}),
        ...(subs.length ? { subs } : {}),
      },
      ws,
    ).then(
      (reply) => this.opened(reply, subs),
      (err: RealtimeError) => {
        if (err.statusCode === 401) {
          this.setState('unauthorized');
          this.report(err);
          ws.close(1000);
          return;
        }
        if (err.path) {
          // The connection is up; the refused path and the ones after it in the hello were not
          // subscribed: subscribe the rest one by one.
          this.refused.add(err.path);
          this.report(err);
          this.opened({}, subs);
          const after = subs.slice(subs.indexOf(err.path) + 1);
          for (const path of after) this.sendSub(path);
          return;
        }
        this.report(err);
        ws.close(1000);
      },
    );
  }

  private opened(reply: Record<string, unknown>, sentInHello: readonly string[]): void {
    const hb = reply.heartbeat as NesHeartbeat | false | undefined;
    if (hb) this.heartbeat = hb;
    this.attempt = 0;
    const again = this.everOpened;
    this.everOpened = true;
    this.setState('open');
    // Subscriptions made while the hello was on its way were in neither the hello nor a sub frame.
    for (const path of this.handlers.keys()) if (!sentInHello.includes(path)) this.sendSub(path);
    this.beat();
    if (again) for (const h of [...this.reconnectHandlers]) h();
  }

  private scheduleReconnect(): void {
    if (this.stopped || !this.opts.reconnect) {
      this.setState('closed');
      return;
    }
    this.setState('reconnecting');
    const base = Math.min(this.opts.maxDelayMs, this.opts.minDelayMs * 2 ** this.attempt);
    this.attempt++;
    // Jitter spreads a ship's worth of browsers after a server restart.
    const delay = base / 2 + Math.random() * (base / 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
  }

  private receive(ws: WebSocketLike, data: unknown): void {
    if (this.ws !== ws) return;
    this.beat();
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(typeof data === 'string' ? data : String(data)) as Record<string, unknown>;
    } catch {
      return;
    }
    if (frame.type === 'ping' && frame.id === undefined) {
      this.send({ type: 'ping', id: ++this.ids }, ws);
      return;
    }
    if (frame.type === 'pub' && typeof frame.path === 'string') {
      for (const h of [...(this.handlers.get(frame.path) ?? [])]) {
        try {
          h(frame.message);
        } catch (err) {
          console.error('Realtime handler failed', err);
        }
      }
      return;
    }
    if (frame.type === 'update') {
      for (const h of [...this.updateHandlers]) h(frame.message);
      return;
    }
    if (frame.type === 'revoke' && typeof frame.path === 'string') {
      this.refused.add(frame.path);
      return;
    }
    const id = typeof frame.id === 'number' ? frame.id : undefined;
    const waiting = id !== undefined ? this.pending.get(id) : undefined;
    if (!waiting) {
      if (isNesErrorFrame(frame)) this.report(toError(frame));
      return;
    }
    this.pending.delete(id!);
    clearTimeout(waiting.timer);
    if (isNesErrorFrame(frame)) waiting.reject(toError(frame));
    else waiting.resolve(frame);
  }

  private send(frame: Record<string, unknown>, ws = this.ws): boolean {
    if (!ws || ws.readyState !== OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  }

  /** Sends a frame with a fresh id and waits for the reply (or error) carrying that id. */
  private call(frame: Record<string, unknown>, ws = this.ws): Promise<Record<string, unknown>> {
    const id = ++this.ids;
    return new Promise((resolve, reject) => {
      if (!this.send({ ...frame, id }, ws)) {
        reject(new RealtimeError('Not connected', 0));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RealtimeError('Request timed out', 0));
      }, this.opts.requestTimeoutMs);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  private failPending(err: RealtimeError): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }

  /** No frame for a whole heartbeat period (+ timeout) means the link is dead: reconnect. */
  private beat(): void {
    this.clearWatchdog();
    if (!this.heartbeat || this.current !== 'open') return;
    const ws = this.ws;
    this.watchdog = setTimeout(
      () => {
        if (ws && this.ws === ws) ws.close(4000, 'heartbeat timeout');
      },
      this.heartbeat.interval + this.heartbeat.timeout + 1000,
    );
  }

  private clearWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private clearTimers(): void {
    this.clearWatchdog();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private report(err: RealtimeError): void {
    // Requests cut short by our own close or restart (logout, new login) are not connection problems.
    if (err.statusCode === 0 && (err.message === 'Connection restarted' || err.message === 'Connection closed')) return;
    if (this.opts.onError) this.opts.onError(err);
    else console.error('Problem connecting to websocket subscriptions:', err.message);
  }
}

function authOf(token: string) {
  return { headers: { Authorization: `Bearer ${token}` } };
}

function toError(frame: NesErrorFrame): RealtimeError {
  return new RealtimeError(frame.payload?.message ?? frame.payload?.error ?? 'Error', frame.statusCode, frame.path);
}

export interface ExecuteOutputOptions extends Pick<RealtimeClientOptions, 'url' | 'getToken' | 'createSocket'> {
  /** Each line of output, starting with "Executing <command>". */
  onLine: (line: string) => void;
  /** The command finished (end marker) or the connection ended. */
  onEnd?: () => void;
}

/**
 * The output of an external call (docs/realtime.md#external-calls): a one-off connection without
 * reconnect that asks /ws/execute_output, then receives the command's lines as `update` frames
 * until the end marker, after which the server closes it. Resolves once the server has registered
 * the socket, so the export can be started (GET /external_calls/…).
 */
export async function openExecuteOutput(options: ExecuteOutputOptions): Promise<{ close(): void }> {
  const client = new RealtimeClient({ ...options, reconnect: false, onError: () => undefined });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    options.onEnd?.();
  };
  client.onUpdate((message) => {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    for (const line of text.split(/\r?\n/)) options.onLine(line);
    if (isExecuteOutputEnd(message)) end();
  });
  const ready = new Promise<void>((resolve, reject) => {
    client.onState((state) => {
      if (state === 'open') resolve();
      if (state === 'closed' || state === 'unauthorized') {
        reject(new RealtimeError('Could not connect for the command output', 0));
        end();
      }
    });
  });
  client.connect();
  await ready;
  const reply = await client.request(executeOutputPath);
  if (reply.statusCode !== 200) {
    client.close();
    const message = (reply.payload as { message?: string } | null)?.message ?? 'Output not available';
    throw new RealtimeError(message, reply.statusCode);
  }
  return { close: () => client.close() };
}
