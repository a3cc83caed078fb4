import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { loadPg } from '../db/database.js';
import type { FastifyBaseLogger } from 'fastify';
import type { BusChannel, BusListener, BusPayloads, ChannelBus, EmitterListener } from './bus.js';
import { withSessionOptions } from '../db/session-options.js';

/**
 * The channel bus across processes: several servers on one PostgreSQL database each LISTEN on
 * one notification channel, and every publish is NOTIFYed to the others. A publish reaches the
 * own process at once (never twice: notifications carrying the own origin are skipped).
 * NOTIFY payloads are limited to 8000 bytes; larger messages are stored in realtime_outbox
 * (migration 003) and the notification carries only the row id, which receivers fetch.
 */
export interface PgBusOptions {
  url: string;
  /** The schema the application's tables live in; also scopes the notification channel. */
  schema: string | null;
  log: FastifyBaseLogger;
  /** Rows older than this are removed from the outbox (receivers fetch within milliseconds). */
  outboxRetentionMs?: number;
}

/** NOTIFY allows 8000 bytes; keep room for the envelope and multi-byte characters. */
export const notifyPayloadLimit = 7900;

interface Envelope {
  /** Origin: the publishing bus instance. */
  o: string;
  /** Sequence number of the origin's messages. */
  s?: number;
  /** Channel. */
  c: string;
  /** Payload, or… */
  p?: unknown;
  /** …the outbox row holding it. */
  r?: number;
}

export class PgBus implements ChannelBus {
  private readonly emitter = new EventEmitter();
  private readonly origin = randomBytes(8).toString('hex');
  private readonly notifyChannel: string;
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private cleanupTimer: NodeJS.Timeout | null = null;
  /** Incoming notifications are handled one after another so outbox fetches keep the order. */
  private incoming: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  /** Messages waiting for the bus connection (publish order). */
  private outgoing: Array<{ notice: string } | { channel: string; stored: string }> = [];
  private sequence = 0;
  /** Queries on the bus connection run one after another (pg no longer queues them itself). */
  private queries: Promise<unknown> = Promise.resolve();
  private readonly log: FastifyBaseLogger;
  private readonly retentionMs: number;

  constructor(private readonly opts: PgBusOptions) {
    this.emitter.setMaxListeners(0);
    this.notifyChannel = `bathylog_bus${opts.schema ? `_${opts.schema}` : ''}`.slice(0, 63);
    this.log = opts.log.child({ module: 'pg-bus' });
    this.retentionMs = opts.outboxRetentionMs ?? 5 * 60_000;
  }

  /** Connects and starts listening; resolves once LISTEN is in place. */
  async start(): Promise<void> {
    await this.connect();
    this.cleanupTimer = setInterval(() => void this.cleanup(), 60_000);
    this.cleanupTimer.unref();
  }

  private connect(): Promise<void> {
    if (this.connecting) return this.connecting;
    this.connecting = (async () => {
      // Its commits (a NOTIFY takes a transaction id, so each one is a commit) do not wait for
      // the WAL to reach the disk: notifications are delivered from memory at commit and are not
      // kept across a database restart anyway (nor need the outbox rows of large ones be, which
      // other sessions see at once all the same), and every write's answer waits for them
      // (publish-barrier.ts), so a flush here put a second disk sync on each POST's path.
      const client = new (loadPg().Client)({
        connectionString: withSessionOptions(this.opts.url, [
          this.opts.schema && `search_path=${this.opts.schema}`,
          'synchronous_commit=off',
        ]),
      });
      client.on('notification', (msg) => {
        if (msg.channel !== this.notifyChannel || msg.payload === undefined) return;
        const text = msg.payload;
        this.incoming = this.incoming
          .then(() => this.receive(text))
          .catch((err: unknown) => {
            this.log.error({ err }, 'could not handle a bus notification');
          });
      });
      client.on('error', (err) => {
        this.log.warn({ err }, 'bus connection lost');
        this.dropClient(client);
      });
      client.on('end', () => this.dropClient(client));
      await client.connect();
      await client.query(`LISTEN ${quoteIdent(this.notifyChannel)}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private dropClient(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    if (!this.closed) this.scheduleReconnect(1000);
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect().then(
        () => this.log.info('bus connection restored'),
        (err: unknown) => {
          this.log.warn({ err }, 'bus reconnect failed');
          this.scheduleReconnect(Math.min(delayMs * 2, 30_000));
        },
      );
    }, delayMs);
    this.retryTimer.unref();
  }

  publish<C extends BusChannel>(channel: C, payload: BusPayloads[C]): void {
    this.emitter.emit(channel, payload);
    if (!this.client) {
      this.log.warn({ channel }, 'bus not connected; the message reaches this process only');
      if (!this.connecting) this.scheduleReconnect(100);
      return;
    }
    // Serialized now: a payload changed by the caller after publishing is sent as it was.
    // `s` keeps identical messages apart (PostgreSQL folds identical notifications of one query).
    const text = JSON.stringify({ o: this.origin, s: this.sequence++, c: channel, p: payload } satisfies Envelope);
    this.outgoing.push(
      Buffer.byteLength(text, 'utf8') <= notifyPayloadLimit
        ? { notice: text }
        : { channel, stored: JSON.stringify(payload ?? null) },
    );
    if (this.outgoing.length > 1) return;
    // The first message of a burst: everything published until the bus connection is free goes
    // out with it, in one query (otherwise one round trip per created event otherwise).
    let started = false;
    const sending = this.serial((client) => {
      started = true;
      return this.send(client);
    });
    this.inFlight.add(sending);
    void sending
      .catch((err: unknown) => {
        // Never sent (the connection went): this burst reaches this process only, and the next
        // publish starts a new one.
        if (!started) this.outgoing = [];
        this.log.error({ err }, 'could not forward messages to other processes');
      })
      .finally(() => this.inFlight.delete(sending));
  }

  /** Runs queries on the bus connection after those already queued; fails when disconnected. */
  private serial<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const next = this.queries.then(() => {
      const client = this.client;
      if (!client) throw new Error('bus not connected');
      return work(client);
    });
    this.queries = next.catch(() => undefined);
    return next;
  }

  /** Sends the waiting messages in order: runs of small ones in one query, large ones through the outbox. */
  private async send(client: pg.Client): Promise<void> {
    const messages = this.outgoing;
    this.outgoing = [];
    let notices: string[] = [];
    const flush = async () => {
      if (notices.length === 0) return;
      const texts = notices;
      notices = [];
      // unnest keeps the array's order, and so the notifications keep the publish order.
      await client.query('SELECT pg_notify($1, n) FROM unnest($2::text[]) AS n', [this.notifyChannel, texts]);
    };
    for (const message of messages) {
      if ('notice' in message) {
        notices.push(message.notice);
        continue;
      }
      await flush();
      const res = await client.query<{ id: string | number }>(
        'INSERT INTO realtime_outbox (created_at, channel, payload) VALUES ($1, $2, $3) RETURNING id',
        [Date.now(), message.channel, message.stored],
      );
      notices.push(
        JSON.stringify({ o: this.origin, c: message.channel, r: Number(res.rows[0]!.id) } satisfies Envelope),
      );
    }
    await flush();
  }

  private async receive(text: string): Promise<void> {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.o === this.origin || typeof envelope.c !== 'string') return;
    let payload = envelope.p;
    if (envelope.r !== undefined) {
      const id = envelope.r;
      const res = await this.serial((client) =>
        client.query<{ payload: string }>('SELECT payload FROM realtime_outbox WHERE id = $1', [id]),
      );
      const row = res.rows[0];
      if (!row) {
        this.log.warn({ id: envelope.r }, 'bus message no longer in the outbox');
        return;
      }
      payload = JSON.parse(row.payload) as unknown;
    }
    this.emitter.emit(envelope.c, payload);
  }

  private async cleanup(): Promise<void> {
    if (!this.client) return;
    try {
      await this.serial((client) =>
        client.query('DELETE FROM realtime_outbox WHERE created_at < $1', [Date.now() - this.retentionMs]),
      );
    } catch (err) {
      this.log.warn({ err }, 'outbox cleanup failed');
    }
  }

  /**
   * Every message published so far is in a send under way (a burst's first publish starts one that
   * takes all queued after it), so waiting for those sends covers them all.
   */
  async sent(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  subscribe<C extends BusChannel>(channel: C, listener: BusListener<C>): () => void {
    const onMessage = listener as EmitterListener;
    this.emitter.on(channel, onMessage);
    return () => this.emitter.off(channel, onMessage);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.cleanupTimer) clearInterval(this.cleanupTimer);
    this.emitter.removeAllListeners();
    await this.connecting?.catch(() => undefined);
    // Let queued NOTIFYs go out before the connection ends.
    await Promise.all(this.inFlight);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
