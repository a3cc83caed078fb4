import type { Socket as UdpSocket } from 'node:dgram';
import { Socket } from 'node:net';
import { parseNmeaSentence } from 'nmea-simple';
import { z } from 'zod';
import { BufferedSource, closeUdp, destroySocket, LineSplitter } from './buffered-source.js';
import { bufferOptions, host, port, udpOptions, type SourceDeps } from './config.js';
import { safeMessage } from './health.js';

export const nmeaConfigSchema = z
  .object({
    /** `udp`: listen for datagrams on host:port; `tcp`: connect to a talker at host:port. */
    transport: z.enum(['udp', 'tcp'], { message: "transport must be 'udp' or 'tcp'" }),
    host: host.optional(),
    port,
    /** Sentences read (by their three-letter id); others are ignored. */
    sentences: z
      .array(z.string().regex(/^[A-Z]{3}$/, 'sentences must be three-letter ids such as GGA'))
      .default(['GGA', 'RMC', 'HDT', 'VTG', 'ZDA']),
    /**
     * TCP only: one line sent after connecting, for talkers that stream on request (gpsd's raw
     * NMEA: `?WATCH={"enable":true,"nmea":true}`).
     */
    hello: z.string().max(512, 'hello must be at most 512 characters').optional(),
    ...udpOptions,
    ...bufferOptions,
  })
  .strict();
export type NmeaConfig = z.infer<typeof nmeaConfigSchema>;

type Values = Record<string, number | string | boolean | null>;

/**
 * Raw NMEA 0183 over UDP or TCP. Each sentence whose checksum is right becomes a reading keyed
 * `<sentence>.<field>` as nmea-simple names the fields (`GGA.latitude`, `GGA.longitude`,
 * `GGA.altitudeMeters`, `RMC.speedKnots`, `RMC.trackTrue`, `HDT.heading`, `VTG.speedKmph`,
 * `ZDA.datetime`); the talker (GP, GN, HE, …) is not part of the key. A sentence with a wrong or
 * missing checksum is dropped and counted in health.
 */
export class NmeaSource extends BufferedSource {
  private udp: UdpSocket | null = null;
  private tcp: Socket | null = null;
  private readonly lines = new LineSplitter(4096);
  private readonly sentences: Set<string>;
  /** Sentences dropped for a bad checksum or an unreadable body since start. */
  rejected = 0;

  protected get label(): string {
    return `nmea ${this.config.transport} ${this.config.host ?? ''}:${this.config.port}`;
  }

  constructor(
    private readonly config: NmeaConfig,
    deps: SourceDeps,
  ) {
    super(config, deps);
    this.sentences = new Set(config.sentences);
  }

  protected open(): void {
    if (this.config.transport === 'udp') this.openUdp();
    else this.openTcp();
  }

  private openUdp(): void {
    this.udp = this.listenUdp(this.config, 'NMEA', (message) => {
      for (const line of message.toString('latin1').split(/\r?\n/)) if (line.trim()) this.sentence(line.trim());
    });
  }

  private openTcp(): void {
    const socket = new Socket();
    const where = `${this.config.host ?? '127.0.0.1'}:${this.config.port}`;
    this.tcp = socket;
    this.lines.reset();
    socket.setKeepAlive(true, 10_000);
    socket.on('connect', () => {
      if (this.config.hello) socket.write(`${this.config.hello}\n`);
      this.opened();
    });
    socket.on('data', (chunk) => {
      const lines = this.lines.push(chunk);
      if (lines === 'overflow') {
        this.state.error(`NMEA talker ${where} sent a line longer than 4 kB; reconnecting`);
        socket.destroy();
        return;
      }
      for (const line of lines) this.sentence(line.trim());
    });
    socket.on('error', (error) => this.state.error(`NMEA talker ${where}: ${safeMessage(error)}`));
    socket.on('close', (hadError) => {
      if (this.tcp === socket) this.tcp = null;
      this.lost(hadError ? undefined : `NMEA talker ${where} closed the connection`);
    });
    socket.connect(this.config.port, this.config.host ?? '127.0.0.1');
  }

  private sentence(line: string): void {
    const start = line.search(/[$!]/);
    if (start < 0) return;
    const text = line.slice(start);
    const id = text.slice(3, 6);
    if (!this.sentences.has(id)) return;
    if (!/\*[0-9A-Fa-f]{2}$/.test(text)) return this.reject(`NMEA ${id} sentence without a checksum`);
    let packet: Record<string, unknown>;
    try {
      // Throws on a checksum that does not match, as on a body it cannot read.
      packet = parseNmeaSentence(text) as unknown as Record<string, unknown>;
    } catch {
      return this.reject(`NMEA ${id} sentence with a wrong checksum or unreadable fields`);
    }
    const values: Values = {};
    let sourceTs: number | undefined;
    for (const [key, value] of Object.entries(packet)) {
      if (key === 'sentenceId' || key === 'talkerId' || key === 'chxOk' || key === 'sentenceName') continue;
      if (value instanceof Date) {
        if (Number.isFinite(value.getTime())) {
          values[`${id}.${key}`] = value.toISOString();
          // Only RMC and ZDA carry the date; GGA's time alone is stamped on today's date.
          if (id === 'RMC' || id === 'ZDA') sourceTs = value.getTime();
        }
      } else if (typeof value === 'number') {
        // Degrees from degrees and minutes carry binary noise (23.522531999999998): nine decimals
        // (a tenth of a millimetre) are more than any talker sends.
        if (Number.isFinite(value))
          values[`${id}.${key}`] = key === 'latitude' || key === 'longitude' ? Number(value.toFixed(9)) : value;
      } else if (typeof value === 'string' || typeof value === 'boolean') values[`${id}.${key}`] = value;
    }
    this.record(values, sourceTs);
  }

  private reject(message: string): void {
    this.rejected++;
    this.state.error(message);
  }

  protected async close(): Promise<void> {
    const udp = this.udp;
    const tcp = this.tcp;
    this.udp = null;
    this.tcp = null;
    if (udp) await closeUdp(udp);
    if (tcp) await destroySocket(tcp);
  }
}
