import type * as Mqtt from 'mqtt';
import { z } from 'zod';
import { lazyPackage } from '../../lib/lazy-package.js';
import { BufferedSource, flatten } from './buffered-source.js';
import { bufferOptions, type SourceDeps } from './config.js';
import { safeMessage, withoutCredentials } from './health.js';

/** mqtt.js, loaded when an MQTT source starts. */
const loadMqtt = lazyPackage<typeof Mqtt>('mqtt');

export const mqttConfigSchema = z
  .object({
    /** The broker: `mqtt://host:1883` or `mqtts://host:8883` (credentials go in username/password). */
    url: z
      .string({ message: 'url must be an mqtt:// or mqtts:// URL' })
      .refine((u) => /^mqtts?:\/\/[^/\s]+/i.test(u), 'url must be an mqtt:// or mqtts:// URL'),
    /** Topics subscribed (MQTT wildcards allowed); keys are `<topic>.<json path>` with the message's topic. */
    topics: z
      .array(z.string().min(1, 'topics must not hold an empty topic'), { message: 'topics must be a list of topics' })
      .min(1, 'topics must name at least one topic'),
    username: z.string().optional(),
    password: z.string().optional(),
    /** A JSON field of the message holding its time (ISO text, or seconds since the epoch), for `timestamps: source`. */
    time_field: z.string().min(1).optional(),
    ...bufferOptions,
  })
  .strict();
export type MqttConfig = z.infer<typeof mqttConfigSchema>;

/** The largest message read: sensor messages are small, a larger one is dropped. */
const maxMessage = 256 * 1024;

/**
 * JSON messages on MQTT topics. Each message on a subscribed topic becomes a reading keyed
 * `<topic>.<json path>` (`ship/nav.lat`, `rov/ctd.temp`); a message that is a bare number or text
 * is keyed `<topic>.value`. mqtt.js reconnects by itself; health follows its state.
 */
export class MqttSource extends BufferedSource {
  private client: Mqtt.MqttClient | null = null;
  private readonly secrets: string[];
  rejected = 0;

  protected get label(): string {
    return `mqtt ${withoutCredentials(this.config.url)}`;
  }

  constructor(
    private readonly config: MqttConfig,
    deps: SourceDeps,
  ) {
    super(config, deps);
    this.secrets = [config.password ?? '', config.username ?? ''].filter(Boolean);
  }

  private get where(): string {
    return withoutCredentials(this.config.url);
  }

  protected open(): void {
    const url = new URL(this.config.url);
    // Credentials in the URL are taken as options, so the URL itself never carries them onward.
    const username = this.config.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
    const password = this.config.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
    if (url.password) this.secrets.push(decodeURIComponent(url.password));
    url.username = '';
    url.password = '';
    const client = loadMqtt().connect(url.toString(), {
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password } : {}),
      reconnectPeriod: this.options.reconnect_seconds * 1000,
      connectTimeout: 10_000,
      clean: true,
    });
    this.client = client;
    client.on('connect', () => {
      this.opened();
      client.subscribe(this.config.topics, { qos: 0 }, (error) => {
        if (error) this.state.error(`MQTT subscribe at ${this.where}: ${safeMessage(error, this.secrets)}`);
      });
    });
    client.on('message', (topic, payload) => this.message(topic, payload));
    client.on('error', (error) => this.state.error(`MQTT ${this.where}: ${safeMessage(error, this.secrets)}`));
    client.on('close', () => this.down(`MQTT broker ${this.where} closed the connection`));
    client.on('offline', () => this.down(`MQTT broker ${this.where} is offline`));
  }

  /** mqtt.js retries by itself: only health and the log follow. */
  private down(message: string): void {
    if (this.state.isUp && !this.stopped) this.deps.log.warn({ source: this.label, error: message }, 'aux source lost');
    this.state.disconnected(message);
  }

  private message(topic: string, payload: Buffer): void {
    if (payload.length > maxMessage) return this.reject(`MQTT message on ${topic} larger than 256 kB dropped`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload.toString('utf8'));
    } catch {
      return this.reject(`MQTT message on ${topic} that is not JSON dropped`);
    }
    const values =
      parsed !== null && typeof parsed === 'object' ? flatten(topic, parsed) : flatten(`${topic}.value`, parsed);
    let sourceTs: number | undefined;
    if (this.config.time_field) {
      const t = values[`${topic}.${this.config.time_field}`];
      sourceTs = typeof t === 'number' ? t * 1000 : typeof t === 'string' ? Date.parse(t) : undefined;
    }
    this.record(values, sourceTs);
  }

  private reject(message: string): void {
    this.rejected++;
    this.state.error(message);
  }

  protected async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await client.endAsync(true);
  }
}
