import { redactUrl } from '../../lib/redact-url.js';
import type { SourceHealth } from '../source.js';

/** A live source's failure; its message is for operators (a manager shows it) and holds no credential. */
export class LiveSourceError extends Error {
  override name = 'LiveSourceError';
}

/**
 * An operator-facing message with every credential taken out: the user and password of a URL
 * (`rtsp://user:secret@cam/…`, `mqtt://user:secret@host`), credentials in query parameters, and any
 * configured secret that appears verbatim (a driver may quote it back).
 */
export function safeMessage(error: unknown, secrets: readonly string[] = []): string {
  let text = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code || cause?.message) text += `: ${cause.code ?? cause.message}`;
  text = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
  text = text.replace(/\S+:\/\/\S+/g, (url) => redactUrl(url));
  for (const secret of secrets) if (secret.length >= 3) text = text.split(secret).join('[redacted]');
  return text.slice(0, 300);
}

/** The URL without its user and password, for messages. */
export function withoutCredentials(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return redactUrl(url.toString());
  } catch {
    return '[invalid URL]';
  }
}

/**
 * A live source's health: connected while its transport is up and readings keep arriving (a peer
 * that holds the connection open but sends nothing for `silenceMs` is not healthy), the time of
 * the last reading, the last error (already free of secrets).
 */
export class LiveHealth {
  private up = false;
  private upSince = 0;
  private lastReadingTs?: number;
  private lastSuccessAt?: number;
  private lastError?: string;
  private lastErrorAt?: number;

  constructor(
    private readonly silenceMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  connected(): void {
    if (!this.up) this.upSince = this.now();
    this.up = true;
  }

  disconnected(message?: string): void {
    this.up = false;
    if (message) this.error(message);
  }

  reading(ts: number): void {
    this.lastReadingTs = ts;
    this.lastSuccessAt = this.now();
  }

  error(message: string): void {
    this.lastError = message;
    this.lastErrorAt = this.now();
  }

  get isUp(): boolean {
    return this.up;
  }

  snapshot(): SourceHealth {
    const now = this.now();
    const lastHeard = Math.max(this.lastSuccessAt ?? 0, this.upSince);
    const silent = this.up && this.silenceMs > 0 && now - lastHeard > this.silenceMs;
    const health: SourceHealth = { connected: this.up && !silent };
    if (this.lastReadingTs !== undefined) health.lastReadingTs = this.lastReadingTs;
    if (this.lastSuccessAt !== undefined) health.lastSuccessAt = this.lastSuccessAt;
    if (silent) {
      health.lastError = `connected, but no readings for ${Math.round((now - lastHeard) / 1000)} s`;
      health.lastErrorAt = now;
    } else if (this.lastError !== undefined) {
      health.lastError = this.lastError;
      health.lastErrorAt = this.lastErrorAt!;
    }
    return health;
  }
}

/**
 * Retries a connection with a growing delay (doubling from `minMs` up to `maxMs`) until `stop()`;
 * `connected()` resets the delay. The timer never keeps the process alive.
 */
export class Reconnector {
  private timer: NodeJS.Timeout | null = null;
  private delay: number;
  private stopped = false;

  constructor(
    private readonly connect: () => void,
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {
    this.delay = minMs;
  }

  schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, this.delay);
    this.timer.unref();
    this.delay = Math.min(this.maxMs, this.delay * 2);
  }

  connected(): void {
    this.delay = this.minMs;
  }

  start(): void {
    this.stopped = false;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
