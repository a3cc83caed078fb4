import type { Socket as UdpSocket } from 'node:dgram';
import { z } from 'zod';
import { BufferedSource, closeUdp, flatten } from './buffered-source.js';
import { bufferOptions, host, port, udpOptions, type SourceDeps } from './config.js';

export const openrvdasConfigSchema = z
  .object({
    /** The address to listen on (an OpenRVDAS UDPWriter's destination); all interfaces by default. */
    host: host.optional(),
    port,
    /** Only these `data_id`s are kept (all when absent). */
    data_ids: z.array(z.string().min(1, 'data_ids must not hold an empty name')).optional(),
    ...udpOptions,
    ...bufferOptions,
  })
  .strict();
export type OpenrvdasConfig = z.infer<typeof openrvdasConfigSchema>;

/** The largest datagram read: larger ones are not OpenRVDAS records and are dropped. */
const maxDatagram = 64 * 1024;

/**
 * OpenRVDAS records over UDP: each datagram is one JSON record `{data_id, timestamp, fields}` (a
 * DASRecord as its UDPWriter sends it) or a list of them. A record becomes a reading keyed
 * `<data_id>.<field>`; `timestamp` is in seconds since the epoch.
 */
export class OpenrvdasSource extends BufferedSource {
  private socket: UdpSocket | null = null;
  private readonly dataIds: Set<string> | null;
  rejected = 0;

  protected get label(): string {
    return `openrvdas udp :${this.config.port}`;
  }

  constructor(
    private readonly config: OpenrvdasConfig,
    deps: SourceDeps,
  ) {
    super(config, deps);
    this.dataIds = config.data_ids ? new Set(config.data_ids) : null;
  }

  protected open(): void {
    this.socket = this.listenUdp(this.config, 'OpenRVDAS', (message) => this.datagram(message));
  }

  private datagram(message: Buffer): void {
    if (message.length > maxDatagram) return this.reject('OpenRVDAS datagram larger than 64 kB dropped');
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.toString('utf8'));
    } catch {
      return this.reject('OpenRVDAS datagram that is not JSON dropped');
    }
    for (const record of Array.isArray(parsed) ? parsed : [parsed]) this.dasRecord(record);
  }

  private dasRecord(record: unknown): void {
    if (!record || typeof record !== 'object') return this.reject('OpenRVDAS record that is not an object dropped');
    const { data_id: dataId, timestamp, fields } = record as Record<string, unknown>;
    if (typeof dataId !== 'string' || !dataId || !fields || typeof fields !== 'object' || Array.isArray(fields))
      return this.reject('OpenRVDAS record without data_id or fields dropped');
    if (this.dataIds && !this.dataIds.has(dataId)) return;
    const values = flatten(dataId, fields);
    this.record(values, typeof timestamp === 'number' ? timestamp * 1000 : undefined);
  }

  private reject(message: string): void {
    this.rejected++;
    this.state.error(message);
  }

  protected async close(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (socket) await closeUdp(socket);
  }
}
