import { Socket } from 'node:net';
import { z } from 'zod';
import { BufferedSource, destroySocket, LineSplitter } from './buffered-source.js';
import { bufferOptions, host, port, type SourceDeps } from './config.js';
import { safeMessage } from './health.js';

export const gpsdConfigSchema = z
  .object({
    host: host.default('127.0.0.1'),
    port: port.default(2947),
    /** Only this device's reports (gpsd's `device` path), when gpsd serves several receivers. */
    device: z.string({ message: 'device must be a device path' }).min(1).optional(),
    ...bufferOptions,
  })
  .strict();
export type GpsdConfig = z.infer<typeof gpsdConfigSchema>;

/** The report classes read: position/velocity/time and attitude. */
const classes = new Set(['TPV', 'ATT']);

/**
 * gpsd's JSON protocol: after `?WATCH={"enable":true,"json":true}` gpsd streams one JSON object a
 * line; TPV and ATT reports become readings keyed `TPV.<field>` / `ATT.<field>` (`TPV.lat`,
 * `TPV.lon`, `TPV.altHAE`, `TPV.speed`, `TPV.track`, `ATT.heading`, `ATT.pitch`, `ATT.roll`).
 */
export class GpsdSource extends BufferedSource {
  private socket: Socket | null = null;
  private readonly lines = new LineSplitter();

  protected get label(): string {
    return `gpsd ${this.config.host}:${this.config.port}`;
  }

  constructor(
    private readonly config: GpsdConfig,
    deps: SourceDeps,
  ) {
    super(config, deps);
  }

  protected open(): void {
    const socket = new Socket();
    this.socket = socket;
    this.lines.reset();
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 10_000);
    socket.on('connect', () => {
      socket.write('?WATCH={"enable":true,"json":true}\n');
      this.opened();
    });
    socket.on('data', (chunk) => {
      const lines = this.lines.push(chunk);
      if (lines === 'overflow') {
        this.state.error('gpsd sent a line longer than 64 kB; reconnecting');
        socket.destroy();
        return;
      }
      for (const line of lines) this.line(line);
    });
    socket.on('error', (error) =>
      this.state.error(`gpsd ${this.config.host}:${this.config.port}: ${safeMessage(error)}`),
    );
    // After an error (refused, reset) the error is the message; a clean close says so.
    socket.on('close', (hadError) => {
      if (this.socket === socket) this.socket = null;
      this.lost(hadError ? undefined : `gpsd ${this.config.host}:${this.config.port} closed the connection`);
    });
    socket.connect(this.config.port, this.config.host);
  }

  private line(line: string): void {
    let report: unknown;
    try {
      report = JSON.parse(line);
    } catch {
      this.state.error('gpsd sent a line that is not JSON');
      return;
    }
    if (!report || typeof report !== 'object') return;
    const { class: kind, device, time } = report as { class?: unknown; device?: unknown; time?: unknown };
    if (typeof kind !== 'string' || !classes.has(kind)) return;
    if (this.config.device && device !== this.config.device) return;
    // TPV without a fix (mode 0/1) carries no position worth stamping.
    const mode = (report as { mode?: unknown }).mode;
    if (kind === 'TPV' && typeof mode === 'number' && mode < 2) return;
    const values: Record<string, number | string | boolean | null> = {};
    for (const [key, value] of Object.entries(report as Record<string, unknown>)) {
      if (key === 'class' || key === 'device') continue;
      if (typeof value === 'number' && Number.isFinite(value)) values[`${kind}.${key}`] = value;
      else if (typeof value === 'string' || typeof value === 'boolean') values[`${kind}.${key}`] = value;
    }
    this.record(values, typeof time === 'string' ? Date.parse(time) : undefined);
  }

  protected async close(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    await destroySocket(socket);
  }
}
