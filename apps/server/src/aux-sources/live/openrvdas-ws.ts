import WebSocket, { type RawData } from 'ws';
import { z } from 'zod';
import { BufferedSource, flatten } from './buffered-source.js';
import { bufferOptions, type SourceDeps } from './config.js';
import { safeMessage, withoutCredentials } from './health.js';
import type { Reading } from '../source.js';

export const openrvdasWsConfigSchema = z
  .object({
    /** The CachedDataServer's websocket: `ws://host:8766` (OpenRVDAS's default port), or `wss://`. */
    url: z
      .string({ message: 'url must be a ws:// or wss:// URL' })
      .refine((u) => /^wss?:\/\/[^/\s]+/i.test(u), 'url must be a ws:// or wss:// URL'),
    /** The fields subscribed, as OpenRVDAS names them (`S330Latitude`); each is a reading key. */
    fields: z
      .array(
        z.string({ message: 'fields must be a list of field names' }).min(1, 'fields must not hold an empty name'),
        {
          message: 'fields must be a list of field names',
        },
      )
      .min(1, 'fields must name at least one field')
      .max(500, 'fields may name at most 500 fields'),
    /** How often the server sends updates (its `interval`; the server's own default, 1 s, when absent). */
    interval_seconds: z
      .number({ message: 'interval_seconds must be a number of seconds' })
      .positive('interval_seconds must be more than 0')
      .max(60, 'interval_seconds must be at most 60')
      .optional(),
    ...bufferOptions,
  })
  .strict();
export type OpenrvdasWsConfig = z.infer<typeof openrvdasWsConfigSchema>;

/** The largest message read: one update of 500 fields at a few hertz is far smaller. */
const maxMessage = 4 * 1024 * 1024;
/** How long the opening handshake may take before the attempt counts as failed. */
const handshakeMs = 10_000;

type Value = Reading['values'][string];

/**
 * OpenRVDAS's CachedDataServer over its websocket (docs/aux-live-sources.md#openrvdas-cached-data-server-openrvdas_ws):
 * the source sends `{"type":"subscribe","fields":{"<field>":{"seconds":…}}}`, and after the server's answer
 * `{"type":"ready"}`; the server answers each `ready` with `{"type":"data","status":200,"data":{"<field>":[[ts,
 * value], …]}}` (the values that arrived since the last answer, timestamps in seconds since the epoch), and
 * the source sends `ready` again. A field's values become readings keyed by the field's name.
 */
export class OpenrvdasWsSource extends BufferedSource {
  private socket: WebSocket | null = null;
  private readonly secrets: string[] = [];
  private readonly fields: Set<string>;
  rejected = 0;

  protected get label(): string {
    return `openrvdas ${withoutCredentials(this.config.url)}`;
  }

  constructor(
    private readonly config: OpenrvdasWsConfig,
    deps: SourceDeps,
  ) {
    super(config, deps);
    this.fields = new Set(config.fields);
    try {
      const password = new URL(config.url).password;
      if (password) this.secrets.push(decodeURIComponent(password));
    } catch {
      // The schema admitted it; a URL that does not parse fails on connecting, with the reason in health.
    }
  }

  private get where(): string {
    return withoutCredentials(this.config.url);
  }

  protected open(): void {
    const socket = new WebSocket(this.config.url, {
      maxPayload: maxMessage,
      handshakeTimeout: handshakeMs,
      followRedirects: false,
      perMessageDeflate: false,
    });
    this.socket = socket;
    let failure: string | undefined;
    socket.on('open', () => {
      // `seconds: 0` asks for the values that arrive from now on; with the peer's own timestamps, `-1` also
      // gives each field's latest value at once (its own time says how old it is).
      const seconds = this.options.timestamps === 'source' ? -1 : 0;
      const fields = Object.fromEntries(this.config.fields.map((f) => [f, { seconds }]));
      this.send(socket, {
        type: 'subscribe',
        fields,
        ...(this.config.interval_seconds !== undefined ? { interval: this.config.interval_seconds } : {}),
      });
    });
    socket.on('message', (data: RawData, isBinary: boolean) => {
      const problem = this.message(socket, isBinary ? null : data);
      if (problem) {
        failure = problem;
        socket.terminate();
      }
    });
    socket.on('error', (error) => {
      failure = `OpenRVDAS data server ${this.where}: ${safeMessage(error, this.secrets)}`;
    });
    socket.on('close', () => {
      if (this.socket === socket) this.socket = null;
      this.lost(failure ?? `OpenRVDAS data server ${this.where} closed the connection`);
    });
  }

  private send(socket: WebSocket, message: object): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  /** One message of the server; answers why the connection must be dropped, if it must. */
  private message(socket: WebSocket, data: RawData | null): string | undefined {
    let parsed: unknown;
    try {
      parsed = data === null ? undefined : JSON.parse(data.toString());
    } catch {
      // Not fatal: the next message may be fine.
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      this.reject('OpenRVDAS data server sent a message that is not a JSON object');
      return;
    }
    const { type, status, error, data: payload } = parsed as Record<string, unknown>;
    if (status !== 200) {
      const reason = typeof error === 'string' ? error : `status ${String(status)}`;
      const message = `OpenRVDAS data server ${this.where} refused ${typeof type === 'string' ? type : 'a request'}: ${safeMessage(reason, this.secrets)}`;
      // A refused subscription will not serve data on this connection: drop it and subscribe again later.
      if (type === 'subscribe' || type === 'ready') return message;
      this.reject(message);
      return;
    }
    if (type === 'subscribe') {
      this.opened();
      this.send(socket, { type: 'ready' });
    } else if (type === 'data') {
      this.data(payload);
      this.send(socket, { type: 'ready' });
    }
    return;
  }

  /**
   * `{"<field>": [[ts, value], …]}` into readings, one per timestamp. With `timestamps: received` the values keep
   * their spacing and the newest is stamped when the message arrived (an update holds the values of up to an
   * interval); with `source`, each keeps its own time.
   */
  private data(payload: unknown): void {
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
      this.reject('OpenRVDAS data server sent data that is not an object of fields');
      return;
    }
    const byTs = new Map<number, Record<string, Value>>();
    let dropped = false;
    for (const [field, pairs] of Object.entries(payload as Record<string, unknown>)) {
      if (!this.fields.has(field)) continue;
      if (!Array.isArray(pairs)) {
        dropped = true;
        continue;
      }
      for (const pair of pairs) {
        const ts = Array.isArray(pair) && pair.length === 2 ? (pair[0] as unknown) : undefined;
        if (typeof ts !== 'number' || !Number.isFinite(ts)) {
          dropped = true;
          continue;
        }
        const values = byTs.get(ts) ?? {};
        flatten(field, (pair as unknown[])[1], values);
        byTs.set(ts, values);
      }
    }
    if (dropped) this.reject('OpenRVDAS data server sent values that are not [timestamp, value] pairs; dropped');
    if (byTs.size === 0) return;
    const times = [...byTs.keys()].sort((a, b) => a - b);
    const newest = times[times.length - 1]!;
    const received = this.now();
    for (const ts of times) {
      const values = byTs.get(ts)!;
      if (Object.keys(values).length === 0) continue;
      const at = this.options.timestamps === 'source' ? ts * 1000 : received - (newest - ts) * 1000;
      this.buffer.push({ ts: at, values });
      this.state.reading(at);
    }
  }

  private reject(message: string): void {
    this.rejected++;
    this.state.error(message);
  }

  protected async close(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.terminate();
    });
  }
}
