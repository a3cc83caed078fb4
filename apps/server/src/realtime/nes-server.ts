import os from 'node:os';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  executeOutputPath,
  executeOutputReply,
  executeOutputRouteId,
  isExecuteOutputEnd,
  messages,
  nesProtocolVersion,
  statusPhrase,
  wsPath,
  type NesErrorFrame,
  type NesId,
  type NesServerFrame,
  type WsChannel,
} from '@bathylog/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../lib/app-error.js';
import { authenticateToken, tokenFromCookie, type AuthContext } from '../plugins/auth.js';
import { isAllowedOrigin } from '../lib/origins.js';
import { channelForPath, type ChannelAccess } from './channel-access.js';

/**
 * The server side of the hapi nes protocol, version 2 (docs/wire.md#websocket), on a plain `ws` server that
 * shares the HTTP port. Unlike Sealog the socket is authenticated: the hello carries the same JWT
 * a REST request would, and every delivery re-checks (briefly cached) that the user still exists,
 * is enabled and holds the same roles, so a disabled user stops receiving.
 */
const refusedOriginLogIntervalMs = 3600_000;
const refusedOriginsRemembered = 100;

export interface NesServerOptions {
  /** Who may subscribe to and receive what (modules/access/channel-access.ts). */
  access: ChannelAccess;
  heartbeatIntervalMs: number;
  heartbeatTimeoutMs: number;
  /** A socket that has not said hello within this time is closed. */
  helloTimeoutMs: number;
  /** How long a verified token is trusted before the user is re-read; 0 = on every delivery. */
  authRecheckMs: number;
  useAccessControl: boolean;
  maxPayloadBytes: number;
  /**
   * Frames written per slice of a fan-out; between slices the event loop answers its I/O (a POST,
   * a NOTIFY, a database reply), so thousands of sockets never hold it for long.
   */
  fanOutSlice: number;
  /**
   * Origins allowed to authenticate with the `token` cookie of the upgrade request (the original
   * Sealog client sends its hello without a usable token). The server's own origin always is.
   */
  allowedOrigins: readonly string[];
}

export interface InjectRequest {
  method: string;
  url: string;
  payload?: unknown;
  headers: Record<string, string>;
  remoteAddress?: string;
}

export interface InjectResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/** Runs a REST route for a nes `request` frame (app.inject with the socket's token). */
export type InjectFn = (request: InjectRequest) => Promise<InjectResponse>;

/** Beyond this much unsent data a subscriber is too slow to keep up and is dropped. */
const maxBufferedBytes = 16 * 1024 * 1024;

const phrases: Record<number, string> = { 501: 'Not Implemented' };

/** An error answered to the client as a nes error frame. */
class NesFailure extends Error {
  path?: string;
  /** A refused hello or reauth: the socket is closed after the error frame. */
  closeAfter = false;
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

function refusal(statusCode: number, message: string): NesFailure {
  const err = new NesFailure(statusCode, message);
  err.closeAfter = true;
  return err;
}

const bad = (message: string) => new NesFailure(400, message);
const authUnavailable = 'Authentication is unavailable, try again';

class NesSocket {
  readonly subscriptions = new Set<string>();
  helloed = false;
  auth: AuthContext | null = null;
  token: string | null = null;
  /** When `auth` was last confirmed against the database. */
  authAt = 0;
  /** Heard from (or successfully sent to) since the last heartbeat check. */
  active = true;
  processing = 0;
  /** Serialises this socket's incoming frames, so a sub never overtakes its hello. */
  inbox: Promise<void> = Promise.resolve();
  /** Deliveries waiting for an auth re-check; keeps pubs in order. */
  outbox: Promise<void> | null = null;
  helloTimer: NodeJS.Timeout | null = null;
  closing = false;

  constructor(
    readonly id: string,
    readonly ws: WebSocket,
    readonly remoteAddress: string | undefined,
    /** The `token` cookie of an upgrade from an allowed origin: used by a hello without auth. */
    readonly cookieToken: string | undefined,
    /** The connection under the websocket (corked while a burst of publications is written). */
    readonly raw: Duplex,
  ) {}
}

/** One publication as every subscriber's delivery sees it. */
interface Delivery {
  path: string;
  /** The `pub` message as a whole websocket frame (header and text), the same bytes for every socket. */
  frame: Buffer;
  /** The channel rule for this publication, decided once per caller. */
  mayReceive(auth: AuthContext): boolean;
}

/** A publication waiting for its turn to be delivered (`publish`). */
interface Pending {
  channel: WsChannel;
  path: string;
  frame: Buffer;
  /** Who may see it, looked up as soon as it is published; `looked` once that answered. */
  lookup: Promise<unknown>;
  looked: boolean;
  visibility: unknown;
  delivered(): void;
}

const nextRound = () => new Promise<void>((resolve) => setImmediate(resolve));

type AuthOutcome = { ok: true; auth: AuthContext } | { ok: false; error: AppError } | { ok: 'unknown'; error: unknown };

export class NesServer {
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<NesSocket>();
  private readonly subscribers = new Map<string, Set<NesSocket>>();
  /** Publications not yet delivered, in publish order (`publish`). */
  private readonly pending: Pending[] = [];
  private delivering = false;
  private readonly outputListeners = new Set<NesSocket>();
  private readonly authCache = new Map<string, { at: number; outcome: Promise<AuthOutcome>; settled?: AuthOutcome }>();
  /** Connections corked for the frames not yet written (`cork`). */
  private readonly corked = new Set<Duplex>();
  private flushScheduled = false;
  private readonly serverId = `${os.hostname()}:${process.pid}:${Date.now().toString(36)}`;
  private counter = 0;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private heartbeatCheckTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly log: FastifyBaseLogger;
  /** Origins refused for the session cookie, with when that was last logged. */
  private readonly refusedOrigins = new Map<string, number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly inject: InjectFn,
    private readonly opts: NesServerOptions,
  ) {
    this.log = ctx.log.child({ module: 'realtime' });
    // No permessage-deflate (ws's default for servers, said here because publish writes its
    // pre-built frames beside ws's own and relies on it): one frame serves every socket only
    // uncompressed, and compressing 5,000 copies would cost more than sending them.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayloadBytes, perMessageDeflate: false });
    this.wss.on('error', (err) => this.log.warn({ err }, 'websocket server error'));
    this.heartbeatTimer = setInterval(() => this.beat(), opts.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
  }

  /** Number of open sockets (for diagnostics and tests of shutdown). */
  get connectionCount(): number {
    return this.sockets.size;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.stopped) {
      socket.destroy();
      return;
    }
    const cookie = tokenFromCookie(req.headers.cookie);
    const origin = req.headers.origin;
    // A browser page of another site must not ride the session cookie (cross-site websocket
    // hijacking): an upgrade carrying the cookie from an origin not allowed is refused outright.
    if (cookie && origin !== undefined && !this.isAllowedOrigin(origin, req.headers.host)) {
      this.reportRefusedOrigin(origin);
      socket.end(
        'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const cookieToken = cookie && origin !== undefined ? cookie : undefined;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.add(ws, req, cookieToken, socket));
  }

  /**
   * One log line per refused origin (again after an hour): a stock Sealog client served from
   * another port of the same host sends the session cookie on its websocket upgrade and is refused
   * until its origin is configured, and the operator needs to read which origin to name. The set is
   * bounded, so a page sending ever new Origin headers cannot grow it or flood the log.
   */
  private reportRefusedOrigin(origin: string): void {
    const now = Date.now();
    const last = this.refusedOrigins.get(origin);
    if (last !== undefined && now - last < refusedOriginLogIntervalMs) return;
    if (last === undefined && this.refusedOrigins.size >= refusedOriginsRemembered) return;
    this.refusedOrigins.set(origin, now);
    const shown = JSON.stringify(origin.slice(0, 200));
    this.log.warn(
      { origin: origin.slice(0, 200) },
      `websocket refused for origin ${shown}: the page sent the session cookie but its origin is not allowed; ` +
        `if a Sealog client is served there, add it to BATHYLOG_ALLOWED_ORIGINS (comma-separated), e.g. BATHYLOG_ALLOWED_ORIGINS=${shown}`,
    );
  }

  private isAllowedOrigin(origin: string, host: string | undefined): boolean {
    return isAllowedOrigin(origin, host, {
      publicUrl: this.ctx.config.publicUrl,
      allowedOrigins: this.opts.allowedOrigins,
    });
  }

  private add(ws: WebSocket, req: IncomingMessage, cookieToken: string | undefined, raw: Duplex): void {
    const socket = new NesSocket(
      `${Date.now()}:${this.serverId}:${this.counter++}`,
      ws,
      req.socket.remoteAddress,
      cookieToken,
      raw,
    );
    this.sockets.add(socket);
    socket.helloTimer = setTimeout(() => {
      if (!socket.helloed) this.disconnect(socket);
    }, this.opts.helloTimeoutMs);
    ws.on('error', (err) => this.log.debug({ err }, 'websocket error'));
    ws.on('message', (data: RawData) => this.onMessage(socket, data));
    ws.once('close', () => this.remove(socket));
  }

  private remove(socket: NesSocket): void {
    if (socket.helloTimer) clearTimeout(socket.helloTimer);
    this.sockets.delete(socket);
    this.outputListeners.delete(socket);
    for (const path of socket.subscriptions) this.subscribers.get(path)?.delete(socket);
    socket.subscriptions.clear();
  }

  private disconnect(socket: NesSocket, code = 1000, reason = ''): void {
    if (socket.closing) return;
    socket.closing = true;
    if (socket.helloTimer) clearTimeout(socket.helloTimer);
    // close() sends queued frames first; a peer that never answers the close is cut off.
    socket.ws.close(code, reason);
    setTimeout(() => socket.ws.terminate(), 2000).unref();
  }

  // ---- outgoing ----

  private sendText(socket: NesSocket, text: string, isPing = false): void {
    const ws = socket.ws;
    if (ws.readyState !== WebSocket.OPEN || socket.closing) return;
    if (ws.bufferedAmount > maxBufferedBytes) {
      this.log.warn({ socket: socket.id }, 'dropping a websocket that does not keep up');
      ws.terminate();
      return;
    }
    ws.send(text, (err) => {
      // As in nes: a successful send (other than a ping) proves the connection alive.
      if (!err && !isPing) socket.active = true;
    });
  }

  private send(socket: NesSocket, frame: NesServerFrame | NesErrorFrame): void {
    this.sendText(socket, JSON.stringify(frame));
  }

  private sendError(socket: NesSocket, err: NesFailure, request?: { type?: unknown; id?: unknown }): void {
    const frame: NesErrorFrame = {
      statusCode: err.statusCode,
      payload: { error: phrases[err.statusCode] ?? statusPhrase(err.statusCode), message: err.message },
    };
    if (request && (typeof request.type === 'string' || typeof request.type === 'number'))
      frame.type = String(request.type);
    if (request && (typeof request.id === 'string' || typeof request.id === 'number')) frame.id = request.id;
    if (err.path !== undefined) frame.path = err.path;
    this.send(socket, frame);
  }

  // ---- incoming ----

  private onMessage(socket: NesSocket, data: RawData): void {
    socket.active = true;
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data as ArrayBuffer).toString('utf8');
    socket.inbox = socket.inbox
      .then(() => this.process(socket, text))
      .catch((err: unknown) => {
        this.log.error({ err }, 'websocket message failed');
      });
  }

  private async process(socket: NesSocket, text: string): Promise<void> {
    if (socket.closing) return;
    let request: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      request = parsed as Record<string, unknown>;
    } catch {
      this.sendError(socket, bad('Cannot parse message'));
      return;
    }
    socket.processing++;
    try {
      const reply = await this.lifecycle(socket, request);
      if (reply) this.send(socket, reply);
    } catch (err) {
      if (err instanceof NesFailure) {
        this.sendError(socket, err, request);
        if (err.closeAfter) this.disconnect(socket, 1008, err.message.slice(0, 120));
      } else {
        this.log.error({ err }, 'websocket request failed');
        this.sendError(socket, new NesFailure(500, messages.internal), request);
      }
    } finally {
      socket.processing--;
    }
  }

  private async lifecycle(socket: NesSocket, request: Record<string, unknown>): Promise<NesServerFrame | null> {
    if (!request.type) throw bad('Cannot parse message');
    if (!request.id || (typeof request.id !== 'string' && typeof request.id !== 'number'))
      throw bad('Message missing id');
    const id = request.id as NesId;
    if (request.type === 'ping') return null;
    if (request.type === 'hello') return this.hello(socket, id, request);
    if (!socket.helloed || !socket.auth) throw bad('Connection is not initialized');
    switch (request.type) {
      case 'reauth':
        return this.reauth(socket, id, request);
      case 'request':
        return this.request(socket, id, request);
      case 'message':
        throw new NesFailure(501, 'Not Implemented');
      case 'sub': {
        const path = request.path;
        this.subscribe(socket, path);
        return { type: 'sub', id, path: path as string };
      }
      case 'unsub':
        if (typeof request.path === 'string') this.unsubscribe(socket, request.path);
        return { type: 'unsub', id };
      default:
        throw bad('Unknown message type');
    }
  }

  private async hello(socket: NesSocket, id: NesId, request: Record<string, unknown>): Promise<NesServerFrame> {
    if (socket.helloed) throw bad('Connection already initialized');
    if (request.version !== nesProtocolVersion) {
      const given = typeof request.version === 'string' && request.version ? request.version : 'none';
      throw bad(`Incorrect protocol version (expected ${nesProtocolVersion} but received ${given})`);
    }
    socket.helloed = true;
    if (socket.helloTimer) clearTimeout(socket.helloTimer);
    socket.helloTimer = null;
    const subs = request.subs;
    if (subs !== undefined && (!Array.isArray(subs) || subs.some((s) => typeof s !== 'string'))) {
      throw refusal(400, 'Invalid subscriptions list');
    }
    // The original Sealog client's hello carries no usable auth: its session cookie stands in.
    const token = tokenFromAuth(request.auth) ?? socket.cookieToken;
    const outcome = await this.verify(token, true, socket.remoteAddress);
    if (outcome.ok !== true) {
      const message = outcome.ok === false ? outcome.error.message : authUnavailable;
      if (outcome.ok === 'unknown') this.log.error({ err: outcome.error }, 'websocket authentication failed');
      throw refusal(outcome.ok === false ? outcome.error.statusCode : 503, message);
    }
    socket.auth = outcome.auth;
    socket.token = token ?? null;
    socket.authAt = Date.now();
    // The connection counts as initialised even when a subscription below fails (as in nes).
    for (const path of (subs as string[] | undefined) ?? []) {
      try {
        this.subscribe(socket, path);
      } catch (err) {
        if (err instanceof NesFailure) err.path = path;
        throw err;
      }
    }
    const heartbeat = { interval: this.opts.heartbeatIntervalMs, timeout: this.opts.heartbeatTimeoutMs };
    return { type: 'hello', id, heartbeat, socket: socket.id };
  }

  private async reauth(socket: NesSocket, id: NesId, request: Record<string, unknown>): Promise<NesServerFrame> {
    const token = tokenFromAuth(request.auth);
    const outcome = await this.verify(token, true, socket.remoteAddress);
    if (outcome.ok !== true) {
      if (outcome.ok === 'unknown') this.log.error({ err: outcome.error }, 'websocket authentication failed');
      throw outcome.ok === false
        ? refusal(outcome.error.statusCode, outcome.error.message)
        : refusal(503, authUnavailable);
    }
    socket.auth = outcome.auth;
    socket.token = token ?? null;
    socket.authAt = Date.now();
    return { type: 'reauth', id };
  }

  private async request(socket: NesSocket, id: NesId, request: Record<string, unknown>): Promise<NesServerFrame> {
    const method = request.method === undefined ? 'GET' : request.method;
    if (typeof method !== 'string' || !method) throw bad('Message missing method');
    if (typeof request.path !== 'string' || !request.path) throw bad('Message missing path');
    let path: string = request.path;
    const headers: Record<string, string> = {};
    if (request.headers !== undefined && request.headers !== null) {
      if (typeof request.headers !== 'object') throw bad('Invalid headers');
      for (const [k, v] of Object.entries(request.headers as Record<string, unknown>)) {
        if (k.toLowerCase() === 'authorization') throw bad('Cannot include an Authorization header');
        if (typeof v === 'string') headers[k.toLowerCase()] = v;
      }
    }
    if (path === executeOutputRouteId) path = executeOutputPath;
    else if (!path.startsWith('/')) throw new NesFailure(404, 'Not Found');
    if (path === executeOutputPath && method.toUpperCase() === 'GET') {
      // Only admins may run external calls, so only they may listen to their output.
      if (!socket.auth!.isAdmin) {
        return {
          type: 'request',
          id,
          statusCode: 403,
          payload: { statusCode: 403, error: 'Forbidden', message: messages.insufficientScope },
        };
      }
      this.outputListeners.add(socket);
      return { type: 'request', id, statusCode: 200, payload: executeOutputReply };
    }
    headers.authorization = `Bearer ${socket.token ?? ''}`;
    const res = await this.inject({
      method: method.toUpperCase(),
      url: path,
      headers,
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
      ...(socket.remoteAddress ? { remoteAddress: socket.remoteAddress } : {}),
    });
    return { type: 'request', id, statusCode: res.statusCode, payload: responsePayload(res) };
  }

  // ---- subscriptions ----

  private subscribe(socket: NesSocket, path: unknown): void {
    if (typeof path !== 'string' || !path) throw new NesFailure(404, 'Subscription not found');
    if (path.includes('?')) throw bad('Subscription path cannot contain query');
    const channel = channelForPath(path);
    if (!channel) throw new NesFailure(404, 'Subscription not found');
    if (!this.opts.access.maySubscribe(socket.auth!, channel)) throw new NesFailure(403, messages.insufficientScope);
    if (socket.subscriptions.has(path)) return;
    socket.subscriptions.add(path);
    let set = this.subscribers.get(path);
    if (!set) this.subscribers.set(path, (set = new Set()));
    set.add(socket);
  }

  private unsubscribe(socket: NesSocket, path: string): void {
    if (!socket.subscriptions.delete(path)) return;
    this.subscribers.get(path)?.delete(socket);
  }

  // ---- delivery ----

  /**
   * Delivers one bus publication to every subscriber allowed to see it
   * (docs/realtime.md#fleet-scale). The frame is serialised and encoded once and the same bytes
   * go to every socket; who may receive it is decided once per caller (the sockets of one token
   * share one verified caller), with the same rule as before for each. Resolves once it is handed
   * to the connection of every socket allowed to see it (or queued behind that socket's re-check
   * of its user).
   */
  publish(channel: WsChannel, payload: unknown): Promise<void> {
    const path = wsPath(channel);
    const subs = this.subscribers.get(path);
    if (!subs || subs.size === 0) return Promise.resolve();
    const { access } = this.opts;
    return new Promise<void>((resolve) => {
      const pub: Pending = {
        channel,
        path,
        frame: serverTextFrame(Buffer.from(JSON.stringify({ type: 'pub', path, message: payload }), 'utf8')),
        // Who may see it is looked up at once (lookups run side by side), but publications are
        // delivered in the order they were made: a lookup that answers late (an event's new before
        // its update) must not let a later publication overtake it.
        lookup: access.visibility(this.ctx, channel, payload).then(
          (visibility) => {
            pub.visibility = visibility;
            pub.looked = true;
          },
          (err: unknown) => {
            this.log.error({ err, channel }, 'could not check who may see a publication; sending it to admins only');
            pub.visibility = access.adminsOnly;
            pub.looked = true;
          },
        ),
        looked: false,
        visibility: undefined,
        delivered: resolve,
      };
      this.pending.push(pub);
      if (!this.delivering) void this.deliverPending();
    });
  }

  /**
   * Delivers the waiting publications in publish order, one fan-out at a time. A fan-out takes
   * every publication queued behind the first whose lookup has answered (a server that fell behind
   * sends each socket what it missed in one write), and runs in slices of `fanOutSlice` frames with
   * a round of the event loop between them, so the POSTs, NOTIFYs and database replies that arrive
   * meanwhile are handled at once instead of after thousands of writes.
   */
  private async deliverPending(): Promise<void> {
    this.delivering = true;
    try {
      while (this.pending.length > 0) {
        await this.pending[0]!.lookup;
        let n = 1;
        while (n < this.pending.length && this.pending[n]!.looked) n++;
        const batch = this.pending.splice(0, n);
        try {
          await this.fanOut(batch);
        } catch (err) {
          this.log.error({ err, channel: batch[0]!.channel }, 'websocket publication failed');
        }
        for (const pub of batch) pub.delivered();
      }
    } finally {
      this.delivering = false;
    }
  }

  private async fanOut(batch: Pending[]): Promise<void> {
    const deliveries = batch.map((pub) => this.delivery(pub));
    // The sockets subscribed when the fan-out starts; one that subscribes during it missed these.
    const targets = new Set<NesSocket>();
    for (const pub of batch) for (const socket of this.subscribers.get(pub.path) ?? []) targets.add(socket);
    const sockets = [...targets];
    const perSlice = Math.max(1, Math.floor(this.opts.fanOutSlice / deliveries.length));
    for (let from = 0; from < sockets.length; from += perSlice) {
      if (from > 0) await nextRound();
      const now = Date.now();
      const to = Math.min(sockets.length, from + perSlice);
      for (let i = from; i < to; i++) for (const delivery of deliveries) this.deliver(sockets[i]!, delivery, now);
      this.uncorkAll();
    }
  }

  private delivery(pub: Pending): Delivery {
    const { access, useAccessControl } = this.opts;
    const decisions = new Map<AuthContext, boolean>();
    return {
      path: pub.path,
      frame: pub.frame,
      mayReceive: (auth) => {
        let allowed = decisions.get(auth);
        if (allowed === undefined) {
          allowed = access.mayReceive(auth, pub.channel, pub.visibility, useAccessControl);
          decisions.set(auth, allowed);
        }
        return allowed;
      },
    };
  }

  private deliver(socket: NesSocket, delivery: Delivery, now: number): void {
    if (!socket.outbox && (now - socket.authAt < this.opts.authRecheckMs || this.confirmedByCache(socket, now))) {
      this.sendIfAllowed(socket, delivery);
      return;
    }
    const next: Promise<void> = (socket.outbox ?? Promise.resolve())
      .then(async () => {
        if (await this.recheck(socket)) this.sendIfAllowed(socket, delivery);
      })
      .catch((err: unknown) => this.log.error({ err }, 'websocket delivery failed'))
      .finally(() => {
        if (socket.outbox === next) socket.outbox = null;
      });
    socket.outbox = next;
  }

  private sendIfAllowed(socket: NesSocket, delivery: Delivery): void {
    if (socket.auth && socket.subscriptions.has(delivery.path) && delivery.mayReceive(socket.auth)) {
      this.sendFrame(socket, delivery.frame);
    }
  }

  /**
   * The socket's re-check is due, but another socket of the same token has just been re-checked:
   * that answer stands for this one too (the verification cache is per token), without a round of
   * promises per socket. False when there is no such answer yet, or it refused the token: the
   * socket then takes the asynchronous path (`recheck`), which closes it when refused.
   */
  private confirmedByCache(socket: NesSocket, now: number): boolean {
    const cached = this.authCache.get(socket.token ?? '');
    if (!cached || now - cached.at >= this.opts.authRecheckMs || cached.settled?.ok !== true) return false;
    socket.auth = cached.settled.auth;
    socket.authAt = cached.at;
    return true;
  }

  /**
   * A pub frame, already framed, to one socket: written to the connection as it is, with no
   * framing or encoding per socket (docs/realtime.md#fleet-scale). Safe beside the frames `ws`
   * writes itself (hello answers, pings, close): without permessage-deflate `ws` writes every
   * frame at once, in call order, and never queues one, and nothing is written once the socket is
   * closing. No completion callback per socket: the socket counts as alive when what was sent to
   * it before has left (its buffer is empty), which is what a completed send told before.
   */
  private sendFrame(socket: NesSocket, frame: Buffer): void {
    const ws = socket.ws;
    if (ws.readyState !== WebSocket.OPEN || socket.closing) return;
    const buffered = ws.bufferedAmount;
    if (buffered > maxBufferedBytes) {
      this.log.warn({ socket: socket.id }, 'dropping a websocket that does not keep up');
      ws.terminate();
      return;
    }
    if (buffered === 0) socket.active = true;
    this.cork(socket);
    socket.raw.write(frame);
  }

  /**
   * A connection is corked at its first frame and uncorked when the slice of the fan-out writing
   * it ends (or, for a frame sent outside a fan-out, after the current round of the event loop):
   * the frames of every publication in a fan-out leave each connection in one write (the kernel's
   * cost is per write far more than per byte), and everything a connection is sent (pings and
   * answers too) waits in the same corked stream, so the order is kept.
   */
  private cork(socket: NesSocket): void {
    if (this.corked.has(socket.raw)) return;
    socket.raw.cork();
    this.corked.add(socket.raw);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.uncorkAll();
    });
  }

  private uncorkAll(): void {
    for (const raw of this.corked) raw.uncork();
    this.corked.clear();
  }

  /** Re-reads the socket's user; false (and the socket closed) when the token is no longer valid. */
  private async recheck(socket: NesSocket): Promise<boolean> {
    if (socket.closing) return false;
    if (Date.now() - socket.authAt < this.opts.authRecheckMs) return true;
    const outcome = await this.verify(socket.token ?? undefined, false, socket.remoteAddress);
    if (outcome.ok === true) {
      socket.auth = outcome.auth;
      socket.authAt = Date.now();
      return true;
    }
    if (outcome.ok === 'unknown') {
      // The database is unreachable: keep the socket; the next delivery checks again.
      this.log.warn({ err: outcome.error }, 'could not re-check a websocket user');
      return true;
    }
    this.disconnect(socket, 1008, outcome.error.message);
    return false;
  }

  /** Verifies a token; results are shared between sockets of the same token for authRecheckMs. */
  private verify(token: string | undefined, fresh: boolean, address: string | undefined): Promise<AuthOutcome> {
    const now = Date.now();
    const key = token ?? '';
    const cached = this.authCache.get(key);
    if (!fresh && cached && now - cached.at < this.opts.authRecheckMs) return cached.outcome;
    const entry: { at: number; outcome: Promise<AuthOutcome>; settled?: AuthOutcome } = {
      at: now,
      outcome: authenticateToken(this.ctx, token, address ?? null).then(
        (auth) => (entry.settled = { ok: true as const, auth }),
        (error: unknown) =>
          (entry.settled =
            error instanceof AppError ? { ok: false as const, error } : { ok: 'unknown' as const, error }),
      ),
    };
    if (this.opts.authRecheckMs > 0) this.authCache.set(key, entry);
    return entry.outcome;
  }

  /**
   * Tokens were revoked (sign out everywhere, a password change, a revoked device key): the
   * sockets of that user or key check their token again now and close when it no longer holds.
   */
  async revoked(target: { userId?: string; keyId?: string }): Promise<void> {
    this.authCache.clear();
    const checks: Array<Promise<boolean>> = [];
    for (const socket of this.sockets) {
      const auth = socket.auth;
      if (!auth) continue;
      const matches = target.keyId ? auth.key?.id === target.keyId : !auth.key && auth.user.id === target.userId;
      if (!matches) continue;
      socket.authAt = 0;
      checks.push(this.recheck(socket));
    }
    await Promise.all(checks);
  }

  /** Output of an external call: to every socket that asked for it; the end marker closes them. */
  sendOutput(message: string): void {
    const text = JSON.stringify({ type: 'update', message });
    const end = isExecuteOutputEnd(message);
    for (const socket of this.outputListeners) {
      this.sendText(socket, text);
      if (end) this.disconnect(socket);
    }
    if (end) this.outputListeners.clear();
  }

  // ---- heartbeat ----

  private beat(): void {
    const ping = JSON.stringify({ type: 'ping' });
    for (const socket of this.sockets) this.sendText(socket, ping, true);
    if (this.heartbeatCheckTimer) clearTimeout(this.heartbeatCheckTimer);
    this.heartbeatCheckTimer = setTimeout(() => {
      for (const socket of this.sockets) {
        if (!socket.active && socket.processing === 0) this.disconnect(socket);
        else socket.active = false;
      }
    }, this.opts.heartbeatTimeoutMs);
    this.heartbeatCheckTimer.unref();
    // Forget cached verifications nobody uses any more.
    const now = Date.now();
    for (const [key, entry] of this.authCache) if (now - entry.at > this.opts.authRecheckMs) this.authCache.delete(key);
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.heartbeatCheckTimer) clearTimeout(this.heartbeatCheckTimer);
    const closing = [...this.sockets].map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.ws.readyState === WebSocket.CLOSED) return resolve();
          socket.ws.once('close', () => resolve());
          this.disconnect(socket, 1001, 'Server shutting down');
          setTimeout(resolve, 2500).unref();
        }),
    );
    await Promise.all(closing);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/**
 * A complete, final, unmasked text frame (RFC 6455 section 5.2) holding `payload`: what `ws` would
 * write for `send(text)` without compression, built once per publication instead of once per socket.
 */
export function serverTextFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 0x10000 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n < 0x10000) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(n / 0x100000000), 2);
    frame.writeUInt32BE(n >>> 0, 6);
  }
  payload.copy(frame, head);
  return frame;
}

/** The JWT from `hello.auth.headers.Authorization` (any case; with or without "Bearer"). */
export function tokenFromAuth(auth: unknown): string | undefined {
  if (typeof auth !== 'object' || auth === null) return undefined;
  const headers = (auth as { headers?: unknown }).headers;
  if (typeof headers !== 'object' || headers === null) return undefined;
  for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
    if (k.toLowerCase() === 'authorization' && typeof v === 'string') {
      const token = v.replace(/bearer/gi, '').replace(/\s+/g, '');
      return token || undefined;
    }
  }
  return undefined;
}

function responsePayload(res: InjectResponse): unknown {
  if (res.body === '') return null;
  const type = String(res.headers['content-type'] ?? '');
  if (/^application\/json/i.test(type)) {
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      return res.body;
    }
  }
  return res.body;
}
