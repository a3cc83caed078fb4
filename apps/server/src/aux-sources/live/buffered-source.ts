import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import type { Socket } from 'node:net';
import type { AuxSource, Reading, ReadingRequest, ReadingResult, SourceHealth } from '../source.js';
import { ReadingBuffer } from './buffer.js';
import { limitsOf, type BufferOptions, type SourceDeps, type UdpOptions } from './config.js';
import { LiveHealth, LiveSourceError, Reconnector, safeMessage } from './health.js';

/**
 * What the streaming live sources (gpsd, NMEA, OpenRVDAS, MQTT) share: readings go into a
 * time-indexed buffer, requests are answered from it, and a lost peer is retried until it returns.
 * A subclass opens its transport in `open()` and calls `lost()` when it closes.
 */
export abstract class BufferedSource implements AuxSource {
  readonly historical = false;
  protected readonly buffer: ReadingBuffer;
  protected readonly state: LiveHealth;
  protected readonly reconnector: Reconnector;
  protected stopped = true;

  constructor(
    protected readonly options: BufferOptions,
    protected readonly deps: SourceDeps,
    protected readonly now: () => number = Date.now,
  ) {
    const limits = limitsOf(options);
    this.buffer = new ReadingBuffer(limits.buffer, now);
    this.state = new LiveHealth(limits.silenceMs, now);
    this.reconnector = new Reconnector(() => this.reopen(), ...limits.reconnectMs);
  }

  /** Opens the transport; must not throw (a peer that is down is reported through `lost`). */
  protected abstract open(): void;
  protected abstract close(): Promise<void>;

  private reopen(): void {
    if (this.stopped) return;
    try {
      this.open();
    } catch (error) {
      this.lost(error instanceof Error ? error.message : String(error));
    }
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.buffer.restart();
    this.reconnector.start();
    this.reopen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.reconnector.stop();
    await this.close();
    this.state.disconnected();
  }

  /** The transport is up: the retry delay starts again from its minimum. */
  protected opened(): void {
    if (!this.state.isUp) this.deps.log.info({ source: this.label }, 'aux source connected');
    this.state.connected();
    this.reconnector.connected();
  }

  /** The transport closed or failed: health says so and a retry is scheduled (logged once per loss). */
  protected lost(message?: string): void {
    if (this.state.isUp && !this.stopped) this.deps.log.warn({ source: this.label, error: message }, 'aux source lost');
    this.state.disconnected(message);
    if (!this.stopped) this.reconnector.schedule();
  }

  /** How log lines name this source: its kind and peer, never a credential. */
  protected abstract get label(): string;

  /**
   * A UDP listener on `host:port` (all interfaces by default), joined to a multicast group when one
   * is configured; `onMessage` gets each datagram. Bind and socket errors close it and retry.
   */
  protected listenUdp(where: UdpOptions, what: string, onMessage: (message: Buffer) => void): UdpSocket {
    const socket = createSocket({ type: 'udp4', reuseAddr: true });
    socket.on('listening', () => {
      if (where.multicast_group) {
        try {
          socket.addMembership(where.multicast_group, where.multicast_interface);
        } catch (error) {
          void closeUdp(socket);
          this.lost(`${what} UDP port ${where.port}: cannot join ${where.multicast_group}: ${safeMessage(error)}`);
          return;
        }
      }
      this.opened();
    });
    socket.on('message', onMessage);
    socket.on('error', (error) => {
      void closeUdp(socket);
      this.lost(`${what} UDP port ${where.port}: ${safeMessage(error)}`);
    });
    socket.bind(where.port, where.multicast_group ? '0.0.0.0' : (where.host ?? '0.0.0.0'));
    return socket;
  }

  /** One reading: stamped on receipt, or with the peer's own time when so configured. */
  protected record(values: Reading['values'], sourceTs?: number): void {
    if (Object.keys(values).length === 0) return;
    const ts =
      this.options.timestamps === 'source' && sourceTs !== undefined && Number.isFinite(sourceTs)
        ? sourceTs
        : this.now();
    this.buffer.push({ ts, values });
    this.state.reading(ts);
  }

  /**
   * The buffer's answer. A manager's health probe (`eventId` '', no event) fails while the peer is
   * lost or silent, with the reason, so the manager's state and last error follow the source; an
   * event is still answered from what the buffer holds.
   */
  async readingAt(request: ReadingRequest): Promise<ReadingResult> {
    if (request.eventId === '') {
      const health = this.health();
      if (!health.connected) throw new LiveSourceError(health.lastError ?? `${this.label}: not connected`);
    }
    return this.buffer.answer(request);
  }

  health(): SourceHealth {
    return this.state.snapshot();
  }
}

/**
 * Splits a byte stream into lines, refusing a line longer than `maxLength` (a peer that sends
 * garbage without newlines must not grow memory without bound).
 */
export class LineSplitter {
  private rest = '';

  constructor(private readonly maxLength = 64 * 1024) {}

  push(chunk: Buffer | string): string[] | 'overflow' {
    const text = this.rest + chunk.toString('utf8');
    const lines = text.split(/\r?\n/);
    this.rest = lines.pop() ?? '';
    if (this.rest.length > this.maxLength) {
      this.rest = '';
      return 'overflow';
    }
    return lines.filter((line) => line.trim() !== '');
  }

  reset(): void {
    this.rest = '';
  }
}

/** A JSON object's primitive leaves as `<prefix>.<dotted path>` keys (arrays by index). */
export function flatten(
  prefix: string,
  value: unknown,
  out: Record<string, Reading['values'][string]> = {},
  depth = 0,
): Record<string, Reading['values'][string]> {
  if (depth > 8) return out;
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    if (typeof value === 'number' && !Number.isFinite(value)) return out;
    out[prefix] = value;
  } else if (Array.isArray(value)) {
    value.slice(0, 256).forEach((item, i) => flatten(`${prefix}.${i}`, item, out, depth + 1));
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      flatten(`${prefix}.${key}`, item, out, depth + 1);
  }
  return out;
}

/** Closes a TCP socket and waits until it is closed (at once when it already is). */
export function destroySocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.closed) return resolve();
    socket.once('close', () => resolve());
    socket.destroy();
  });
}

/** Closes a UDP socket and waits (at once when it is already closed, as after a bind error). */
export function closeUdp(socket: UdpSocket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve();
    }
  });
}
