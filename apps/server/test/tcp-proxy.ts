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
      // One queue a direction, delivered strictly in order by one timer: timers of different
      // lengths due in the same millisecond may fire in any order, and a stream must not.
      const queue: Array<{ at: number; chunk: Buffer }> = [];
      let busyUntil = 0;
      let timer: NodeJS.Timeout | null = null;
      let ended = false;
      const pump = () => {
        timer = null;
        const now = Date.now();
        while (queue.length > 0 && queue[0]!.at <= now) {
          const { chunk } = queue.shift()!;
          if (to.destroyed) continue;
          this.samples.push([now, chunk.length]);
          to.write(chunk);
        }
        if (queue.length > 0) timer = setTimeout(pump, queue[0]!.at - now);
        else if (ended && !to.destroyed) to.end();
      };
      from.on('data', (chunk: Buffer) => {
        const now = Date.now();
        const rate = this.opts.rateBytes;
        const sendAt = rate ? Math.max(now, busyUntil) + (chunk.length / rate) * 1000 : now;
        busyUntil = sendAt;
        queue.push({ at: sendAt + (this.opts.delayMs ?? 0), chunk });
        if (!timer) pump();
      });
      from.on('end', () => {
        ended = true;
        if (!timer) pump();
      });
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
