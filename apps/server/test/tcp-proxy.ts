import net from 'node:net';

export interface ProxyOptions {
  /** One-way delay added to every chunk, each direction (ms). */
  delayMs?: number;
  /** Link rate each direction (bytes/s); chunks queue behind it. Default: unlimited. */
  rateBytes?: number;
}

/**
 * A TCP proxy for two-server tests and the bench: forwards to a target port, records every
 * byte with its time (both directions), can cut the link (drops open connections, refuses new
 * ones) and restore it, and can add delay and a link rate.
 */
export class TcpProxy {
  private server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private cutOff = false;
  /** [epoch ms, bytes] of every chunk that passed, either way. */
  readonly samples: Array<[number, number]> = [];
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly opts: ProxyOptions = {},
  ) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get totalBytes(): number {
    return this.samples.reduce((n, [, b]) => n + b, 0);
  }

  /** Bytes that passed in [from, to). */
  bytesBetween(from: number, to: number): number {
    return this.samples.filter(([t]) => t >= from && t < to).reduce((n, [, b]) => n + b, 0);
  }

  cut(): void {
    this.cutOff = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.cutOff = false;
  }

  private accept(client: net.Socket): void {
    if (this.cutOff) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    this.sockets.add(client);
    this.sockets.add(upstream);
    const pipe = (from: net.Socket, to: net.Socket) => {
      let busyUntil = 0;
      from.on('data', (chunk: Buffer) => {
        const now = Date.now();
        const rate = this.opts.rateBytes;
        const start = Math.max(now, busyUntil);
        const sendAt = rate ? start + (chunk.length / rate) * 1000 : now;
        busyUntil = sendAt;
        const at = sendAt + (this.opts.delayMs ?? 0);
        const deliver = () => {
          if (to.destroyed) return;
          this.samples.push([Date.now(), chunk.length]);
          to.write(chunk);
        };
        if (at <= now) deliver();
        else setTimeout(deliver, at - now);
      });
      from.on('end', () => setTimeout(() => to.end(), Math.max(0, busyUntil - Date.now()) + (this.opts.delayMs ?? 0)));
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
      });
    };
    pipe(client, upstream);
    pipe(upstream, client);
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
